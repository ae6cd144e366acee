import { z } from 'zod';
import {
  CreateComparisonSchema,
  RunListQuerySchema,
  SeriesListQuerySchema,
  SeriesNameSchema,
  SeriesRunsQuerySchema,
} from '@blockwise/shared/api';
import { SeriesConfigSchema } from '@blockwise/shared/history';
import { validate } from '../http/validate.ts';

/**
 * The request validators of the routes, in one file beside the route folders because two readers
 * need them: the route that validates with them and the OpenAPI document (routes/openapi), which
 * describes the same schemas — so the document cannot drift from what a route accepts, and no
 * route folder imports another (eslint.config.js, serverLayers).
 */

export const runsValidators = { list: validate({ query: RunListQuerySchema }) };

export const comparisonsValidators = { create: validate({ body: CreateComparisonSchema }) };

const SeriesParamsSchema = z.object({ series: SeriesNameSchema });

export const seriesValidators = {
  list: validate({ query: SeriesListQuerySchema }),
  settings: validate({ params: SeriesParamsSchema }),
  putSettings: validate({ params: SeriesParamsSchema, body: SeriesConfigSchema }),
  runs: validate({ params: SeriesParamsSchema, query: SeriesRunsQuerySchema }),
};
