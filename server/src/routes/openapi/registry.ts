import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  ComparisonSchema,
  CreatedComparisonSchema,
  CreatedRunSchema,
  ErrorResponseSchema,
  HealthSchema,
  RunListSchema,
  RunRegressionSchema,
  RunSchema,
  SeriesListSchema,
  SeriesSettingsSchema,
  UploadResponseSchema,
} from '@blockwise/shared/api';
import { FleetPlanSchema } from '@blockwise/shared/fleet';
import { RunLabelsSchema } from '@blockwise/shared/records';
import {
  CreateFleetPlanBodySchema,
  CreatedFleetPlanSchema,
  StoredFleetPlanResponseSchema,
} from '@blockwise/shared/api';
import { comparisonsValidators, seriesValidators } from '../validators.ts';

/**
 * The named schemas of the document (components/schemas), each the Zod schema the server
 * validates or answers with. `input`: a request body, described as the client writes it (fields
 * with defaults optional); the rest are responses (`output`).
 *
 * They are converted by Zod's own JSON Schema converter, not zod-to-openapi's: these schemas use
 * z.custom and transforms (fio's report, fleet inputs), which zod-to-openapi cannot describe and
 * Zod writes as `{}` (any). zod-to-openapi assembles the document: paths, parameters (converted
 * from the routes' params/query schemas), responses.
 */
export const COMPONENTS = {
  Run: [RunSchema, 'output'],
  RunList: [RunListSchema, 'output'],
  RunLabels: [RunLabelsSchema, 'output'],
  CreatedRun: [CreatedRunSchema, 'output'],
  UploadResponse: [UploadResponseSchema, 'output'],
  // The bodies the validators check (validate({ body })), as they check them.
  CreateComparison: [comparisonsValidators.create.schemas.body, 'output'],
  CreatedComparison: [CreatedComparisonSchema, 'output'],
  Comparison: [ComparisonSchema, 'output'],
  Error: [ErrorResponseSchema, 'output'],
  Health: [HealthSchema, 'output'],
  SeriesSettings: [SeriesSettingsSchema, 'output'],
  SeriesList: [SeriesListSchema, 'output'],
  RunRegression: [RunRegressionSchema, 'output'],
  /** Request bodies: every field optional (the defaults apply), hence the input side of the schema. */
  SeriesConfigInput: [seriesValidators.putSettings.schemas.body, 'input'],
  CreateFleetPlan: [CreateFleetPlanBodySchema, 'input'],
  CreatedFleetPlan: [CreatedFleetPlanSchema, 'output'],
  /** GET /api/fleet/plans/{id}: the stored plan with its id, link, date and analysis version. */
  StoredFleetPlan: [StoredFleetPlanResponseSchema, 'output'],
  /** The plan itself (`plan` of CreatedFleetPlan and StoredFleetPlan; the CLI's `fleet plan --json`). */
  FleetPlan: [FleetPlanSchema, 'output'],
} as const satisfies Record<string, readonly [z.ZodType, 'input' | 'output']>;

export type ComponentName = keyof typeof COMPONENTS;

/** Adds every named schema and the bearer security scheme to the registry. */
export function registerComponents(registry: OpenAPIRegistry): void {
  for (const [name, [schema, io]] of Object.entries(COMPONENTS)) {
    const jsonSchema = z.toJSONSchema(schema, { target: 'openapi-3.0', unrepresentable: 'any', io });
    // Zod's JSON Schema type and openapi3-ts's SchemaObject describe the same JSON.
    registry.registerComponent('schemas', name, jsonSchema as never);
  }
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
}

export const schemaRef = (name: ComponentName) => ({ $ref: `#/components/schemas/${name}` });
export const json = (name: ComponentName) => ({ 'application/json': { schema: schemaRef(name) } });
export const error = (description: string): ResponseConfig => ({ description, content: json('Error') });
export const response = (description: string, name: ComponentName): ResponseConfig => ({
  description,
  content: json(name),
});

/** Open to anyone until the archive requires a token (see the description of the document). */
export const OPTIONAL_BEARER: Record<string, string[]>[] = [{}, { bearer: [] }];
