import { z } from 'zod';

/**
 * GET /api/catalog: which AWS catalog the server plans with (server/src/routes/catalog). The
 * catalog itself (GET /api/catalog/data) is checked by `checkCatalogData` where it is installed.
 */
export const CatalogInfoSchema = z.object({
  /** `built-in`, or the catalog file's name. */
  origin: z.string(),
  builtIn: z.boolean(),
  generatedAt: z.string(),
  /** Oldest and newest EBS price dates (YYYY-MM-DD). */
  pricesFrom: z.string().nullable(),
  pricesTo: z.string().nullable(),
  ebsRegions: z.number().int().nonnegative(),
  ec2Regions: z.number().int().nonnegative(),
  instanceTypes: z.number().int().nonnegative(),
  etag: z.string(),
});
export type CatalogInfoResponse = z.infer<typeof CatalogInfoSchema>;

/** The catalog file as it arrives: an object, checked in full by the catalog module. */
export const CatalogBodySchema = z.record(z.string(), z.unknown());
