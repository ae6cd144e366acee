import { z } from 'zod';
import { RegionRateCardSchema } from './rate-card.ts';

/**
 * The AWS catalog as one file: EBS prices per region, EC2 on-demand prices per region, instance
 * types, and where every number comes from. The built-in catalog (data/catalog.json) and the
 * files `blockwise catalog update` writes have this shape; `--catalog FILE` loads one.
 *
 * Provenance is per region (EBS, EC2) and per instance row (three source columns): each names a
 * `sources` entry with the URL or file it was read from, the offer's `publicationDate` and the
 * date it was fetched.
 */
export const CATALOG_FORMAT = 'blockwise-catalog/v1';

export const CatalogSourceSchema = z.object({
  id: z.string().min(1),
  /** aws-price-list: an AWS Price List offer file; describe-instance-types: `aws ec2 describe-instance-types` output; aws-docs: values from AWS documentation tables. */
  kind: z.enum(['aws-price-list', 'describe-instance-types', 'aws-docs']),
  what: z.string(),
  /** The URL or file it was read from. */
  location: z.string(),
  /** The offer file's `publicationDate` (ISO 8601), or the date of the data; null when the input states none. */
  publicationDate: z.string().nullable(),
  /** When it was read (ISO 8601). */
  fetchedAt: z.string(),
  /** Where a re-encoded input comes from, and anything else a reader should know. */
  note: z.string().optional(),
});
export type CatalogSource = z.infer<typeof CatalogSourceSchema>;

const usd = z.number().nonnegative().finite();

/**
 * The shape of an AWS region code as the Price List writes `regionCode`: lowercase letters and
 * digits in hyphen-separated parts, at least three — Regions (`us-east-1`, `us-gov-west-1`,
 * `ap-southeast-7`), Local Zones (`usw2-lax1-az1`) and Wavelength Zones (`apne1-wl1-kix-wlz1`) —
 * at most 50 characters (the Account Management API's `RegionName` limit). AWS publishes no one
 * pattern for all of them (docs/catalog.md §2); this one admits every code in the built-in
 * catalog and nothing that could carry markup, a path or a line break into a catalog file.
 */
export const REGION_CODE = /^(?=.{1,50}$)[a-z][a-z0-9]*(?:-[a-z0-9]+){2,}$/;
const REGION_CODE_EXPECTED =
  'expected an AWS region code such as us-east-1 (lowercase letters, digits and hyphens)';
export const RegionCodeSchema = z.string().regex(REGION_CODE, REGION_CODE_EXPECTED);

/** The rate components of a region, null where the offer has no price (`RegionRateCard` without its facts). */
export const EbsRatesSchema = RegionRateCardSchema.omit({
  region: true,
  location: true,
  source: true,
  date: true,
});
export type EbsRates = z.infer<typeof EbsRatesSchema>;

export const EbsRegionSchema = z.object({
  location: z.string().nullable(),
  /** region, local_zone, wavelength_zone (from the offer's `locationType`), null when not stated. */
  zoneType: z.string().nullable(),
  source: z.string(),
  rates: EbsRatesSchema,
  /** USD per GB-month of snapshot data: standard tier and archive tier. */
  snapshot: z.object({ standard: usd.nullable(), archive: usd.nullable() }),
});
export type EbsRegion = z.infer<typeof EbsRegionSchema>;

export const Ec2RegionSchema = z.object({
  source: z.string(),
  /** On-demand Linux, shared tenancy, USD per hour, by instance type. */
  usdPerHour: z.record(z.string(), usd),
});

/** Columns of an instance row (a tuple: 1,400 rows of objects would triple the file). */
export const INSTANCE_COLUMNS = [
  'instanceType',
  'family',
  'vCpus',
  'memoryMiB',
  'currentGeneration',
  'baselineBandwidthMbps',
  'baselineIops',
  'maximumBandwidthMbps',
  'maximumIops',
  'storeVolumes',
  'storeVolumeSizeGB',
  'storeKind',
  'storeRandomReadIops',
  'storeWriteIops',
  'hypervisor',
  'architecture',
  'maximumEbsAttachments',
  'ebsAttachmentLimitType',
  /** Source of the limits, vCPU, memory, store layout, hypervisor and architecture. */
  'source',
  /** Source of the store's random read / write IOPS (AWS docs tables); null when there are none. */
  'storeIopsSource',
  /** Source of the attachment limit (absent from describe-instance-types output saved before 2025). */
  'attachmentsSource',
] as const;

const count = z.number().int().nonnegative().nullable();
const positive = z.number().positive().finite().nullable();
export const InstanceRowSchema = z.tuple([
  z.string().min(1).max(64),
  z.string(),
  count,
  positive,
  z.boolean().nullable(),
  positive,
  positive,
  positive,
  positive,
  count,
  positive,
  z.string().nullable(),
  positive,
  positive,
  z.enum(['nitro', 'xen']).nullable(),
  z.string().nullable(),
  count,
  z.enum(['shared', 'dedicated']).nullable(),
  z.string(),
  z.string().nullable(),
  z.string().nullable(),
]);
export type InstanceRow = z.infer<typeof InstanceRowSchema>;

export const CatalogDataSchema = z.object({
  format: z.literal(CATALOG_FORMAT),
  /** When the file was written (ISO 8601). */
  generatedAt: z.string(),
  note: z.string().optional(),
  sources: z.record(z.string(), CatalogSourceSchema),
  /** Keyed by region code (REGION_CODE; checkCatalogData checks the keys). */
  ebs: z.record(z.string(), EbsRegionSchema),
  ec2: z.record(z.string(), Ec2RegionSchema),
  instances: z.object({
    columns: z.array(z.string()),
    rows: z.array(InstanceRowSchema),
  }),
  /** [base type, its `d` variant of the same size]: same vCPU and memory, the `d` adds the instance store. */
  dVariantPairs: z.array(z.tuple([z.string(), z.string()])),
});
export type CatalogData = z.infer<typeof CatalogDataSchema>;

/**
 * Checks a parsed catalog file: the schema, the column list, and that every source a region or
 * row names is in `sources`. The first problem is reported with its JSON path.
 */
export function checkCatalogData(
  value: unknown,
): { ok: true; value: CatalogData } | { ok: false; path: string; message: string } {
  const parsed = CatalogDataSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, path: issue.path.join('.') || '(top level)', message: issue.message };
  }
  const data = parsed.data;
  const columnsMatch =
    data.instances.columns.length === INSTANCE_COLUMNS.length &&
    INSTANCE_COLUMNS.every((c, i) => data.instances.columns[i] === c);
  if (!columnsMatch)
    return {
      ok: false,
      path: 'instances.columns',
      message: `expected ${INSTANCE_COLUMNS.join(', ')}`,
    };
  for (const [table, regions] of [['ebs', data.ebs] as const, ['ec2', data.ec2] as const])
    for (const code of Object.keys(regions))
      if (!REGION_CODE.test(code))
        return { ok: false, path: `${table}.${code.slice(0, 60)}`, message: REGION_CODE_EXPECTED };
  const known = (id: string | null) => id === null || Object.hasOwn(data.sources, id);
  for (const [code, region] of Object.entries(data.ebs))
    if (!known(region.source))
      return { ok: false, path: `ebs.${code}.source`, message: `no source "${region.source}" in sources` };
  for (const [code, region] of Object.entries(data.ec2))
    if (!known(region.source))
      return { ok: false, path: `ec2.${code}.source`, message: `no source "${region.source}" in sources` };
  const sourceColumns = [18, 19, 20] as const;
  for (const [i, row] of data.instances.rows.entries())
    for (const c of sourceColumns)
      if (!known(row[c]))
        return {
          ok: false,
          path: `instances.rows.${i}.${c}`,
          message: `no source "${row[c]}" in sources (${row[0]})`,
        };
  return { ok: true, value: data };
}
