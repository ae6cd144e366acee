// HTTP request/response schemas shared by the server, the web app and the CLI; the records they
// carry live in records/.
export {
  ComparisonSchema,
  CreateComparisonSchema,
  CreatedComparisonSchema,
  CreatedRunSchema,
  ErrorResponseSchema,
  HealthSchema,
  LABEL_WIRE_NAMES,
  NUMERIC_LABELS,
  pageLimitParam,
  RunListQuerySchema,
  RunListSchema,
  RunRegressionSchema,
  RunSchema,
  SeriesListQuerySchema,
  SeriesListSchema,
  SeriesNameSchema,
  SeriesRunsQuerySchema,
  SeriesSettingsSchema,
  UploadResponseSchema,
} from './contract.ts';
export type {
  Comparison,
  CreateComparison,
  CreatedRun,
  ErrorCode,
  Health,
  Run,
  RunLabels,
  RunList,
  RunListItem,
  RunRegression,
  SeriesList,
  SeriesListItem,
  SeriesSettingsResponse,
} from './contract.ts';
export { CatalogBodySchema, CatalogInfoSchema } from './catalog-info.ts';
export type { CatalogInfoResponse } from './catalog-info.ts';
export { fitsUploadLimit, MAX_UPLOAD_BYTES } from './limits.ts';
export { CreatedFleetPlanSchema, CreateFleetPlanBodySchema, StoredFleetPlanResponseSchema } from './fleet.ts';
export type { CreatedFleetPlan, CreateFleetPlanBody, StoredFleetPlanResponse } from './fleet.ts';
