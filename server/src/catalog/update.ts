import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import {
  StoreIopsFileSchema,
  diffCatalogs,
  formatCatalog,
  mergeCatalog,
  parseDescribeInstanceTypes,
  type CatalogData,
  type CatalogDiff,
  type CatalogInputs,
  type CatalogSource,
} from '@blockwise/shared/catalog';
import { CatalogInputError } from './errors.ts';
import { readOfferStream } from './offer-stream.ts';
import {
  describeLocation,
  locate,
  openLocation,
  parseOfferBase,
  readLocalText,
  readRegionIndex,
  shownPath,
  type OpenOptions,
} from './offer-source.ts';

export type UpdateOptions = {
  /** The catalog the inputs are merged over (the built-in one, or the previous file). */
  base: CatalogData;
  /** Price List bases: AWS's endpoint, a mirror URL or a folder (see offer-source.ts). */
  offers: { base: string; note?: string }[];
  /** Saved `aws ec2 describe-instance-types --output json` files. */
  instances: { file: string; note?: string; publicationDate?: string | null; fetchedAt?: string }[];
  /** Instance store IOPS from AWS's documentation tables (the built-in catalog's). */
  storeIops?: { file: string; note?: string; publicationDate?: string | null; fetchedAt?: string }[];
  /** Only these regions of each region index (all when null). */
  regions?: string[] | null;
  cwd: string;
  /** Paths in the catalog's sources are written relative to this folder (default `cwd`). */
  shownFrom?: string;
  now: Date;
  open?: OpenOptions;
  /** Progress, one line per file read. */
  log?: (line: string) => void;
};

export type OfferStats = {
  region: string;
  file: string;
  bytesRead: number;
  fileBytes: number | null;
  stoppedEarly: boolean;
  peakHeld: number;
  products: number;
  ms: number;
};

export type UpdateResult = {
  catalog: CatalogData;
  diff: CatalogDiff;
  warnings: string[];
  offers: OfferStats[];
};

const MAX_INSTANCES_BYTES = 256 * 1024 * 1024;

/**
 * Reads every input and merges it over `options.base`: the one code path of `blockwise catalog
 * update` and of the built-in catalog (builtin.ts). Every region listed must read completely:
 * a failed download or a malformed file throws CatalogInputError naming the file and field, and
 * nothing is written (the caller writes only a finished catalog, atomically).
 */
export async function buildUpdatedCatalog(options: UpdateOptions): Promise<UpdateResult> {
  const shownFrom = options.shownFrom ?? options.cwd;
  const fetchedAt = options.now.toISOString();
  const log = options.log ?? (() => {});
  const inputs: CatalogInputs = { offers: [], instances: [], storeIops: [] };
  const warnings: string[] = [];
  const stats: OfferStats[] = [];

  for (const offer of options.offers) {
    const base = parseOfferBase(offer.base, options.cwd, shownFrom);
    const index = await readRegionIndex(base, options.open);
    const wanted = options.regions ?? null;
    if (wanted) {
      const listed = new Set(index.regions.map((r) => r.code));
      const missing = wanted.filter((r) => !listed.has(r));
      if (missing.length > 0)
        throw Object.assign(
          new CatalogInputError(
            index.shown,
            'regions',
            `no ${missing.join(', ')} (it lists ${index.regions.map((r) => r.code).join(', ')})`,
          ),
          { flag: '--regions' },
        );
    }
    for (const { code, path } of index.regions) {
      if (wanted && !wanted.includes(code)) continue;
      const location = locate(base, path, index.shown);
      const shown = describeLocation(base, location);
      const started = performance.now();
      const { chunks, bytes } = await openLocation(base, location, shown, options.open);
      const read = await readOfferStream(chunks, { label: shown, region: code });
      const ms = Math.round(performance.now() - started);
      stats.push({
        region: code,
        file: shown,
        bytesRead: read.bytesRead,
        fileBytes: bytes,
        stoppedEarly: read.stoppedEarly,
        peakHeld: read.peakHeld,
        products: read.products,
        ms,
      });
      warnings.push(...read.warnings.map((w) => `${shown}: ${w}`));
      if (read.regions.length === 0)
        warnings.push(`${shown}: no EBS or on-demand Linux price for ${code}; the catalog keeps what it had`);
      const source: CatalogSource = {
        id: `${read.header.offerCode}/${code}/${read.header.version || read.header.publicationDate.slice(0, 10)}`,
        kind: 'aws-price-list',
        what: `AWS Price List, ${read.header.offerCode} offer ${read.header.version} for ${code}`,
        location: shown,
        publicationDate: read.header.publicationDate,
        fetchedAt,
        ...(offer.note ? { note: offer.note } : {}),
      };
      inputs.offers.push({ source, regions: read.regions });
      log(
        `${code}: ${(read.bytesRead / 1e6).toFixed(1)} MB read${read.stoppedEarly ? ' (stopped after the on-demand terms)' : ''}, ${read.regions.length} region(s) priced, ${(ms / 1000).toFixed(1)} s — ${shown}`,
      );
    }
  }

  for (const input of options.instances) {
    const { json, shown, mtime } = await readJsonFile(input.file, options.cwd, shownFrom);
    const parsed = parseDescribeInstanceTypes(json);
    if (!parsed.ok) throw new CatalogInputError(shown, parsed.path, parsed.message);
    inputs.instances.push({
      source: {
        id: `describe-instance-types/${basename(input.file).replace(/\.json$/i, '')}`,
        kind: 'describe-instance-types',
        what: `aws ec2 describe-instance-types output (${parsed.instances.length} types)`,
        location: shown,
        publicationDate: input.publicationDate ?? null,
        // A saved file was fetched when it was written.
        fetchedAt: input.fetchedAt ?? mtime,
        ...(input.note ? { note: input.note } : {}),
      },
      instances: parsed.instances,
    });
    log(`${shown}: ${parsed.instances.length} instance types`);
  }

  for (const input of options.storeIops ?? []) {
    const { json, shown, mtime } = await readJsonFile(input.file, options.cwd, shownFrom);
    const parsed = StoreIopsFileSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new CatalogInputError(shown, issue.path.join('.') || '(top level)', issue.message);
    }
    inputs.storeIops.push({
      source: {
        id: `aws-docs/${basename(input.file).replace(/\.json$/i, '')}`,
        kind: 'aws-docs',
        what: `instance store random read / write IOPS (${parsed.data.measurementConditions.slice(0, 60)}…)`,
        location: shown,
        publicationDate: input.publicationDate ?? null,
        fetchedAt: input.fetchedAt ?? mtime,
        ...(input.note ? { note: input.note } : {}),
      },
      file: parsed.data,
    });
  }

  const merged = mergeCatalog(options.base, inputs, fetchedAt);
  return {
    catalog: merged.catalog,
    diff: diffCatalogs(options.base, merged.catalog),
    warnings: [...warnings, ...merged.warnings],
    offers: stats,
  };
}

async function readJsonFile(
  file: string,
  cwd: string,
  shownFrom: string,
): Promise<{ json: unknown; shown: string; mtime: string }> {
  const path = resolve(cwd, file);
  const shown = shownPath(path, shownFrom);
  const { text, mtime } = await readLocalText(
    path,
    shown,
    MAX_INSTANCES_BYTES,
    (bytes) => `${bytes} bytes; over the ${MAX_INSTANCES_BYTES} limit`,
  );
  try {
    return { json: JSON.parse(text), shown, mtime: mtime.toISOString() };
  } catch (error) {
    throw new CatalogInputError(shown, null, `not valid JSON (${(error as Error).message})`);
  }
}

/**
 * Writes the catalog next to `path` under a temporary name, flushes it, then renames it over
 * `path`: a reader sees the old file or the new one, never half of one, and a failure leaves
 * the previous catalog as it was (the temporary file is removed).
 */
export async function writeCatalogAtomically(path: string, catalog: CatalogData): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(formatCatalog(catalog));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
