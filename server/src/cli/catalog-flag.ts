import { pricesOlderThanAYear } from '@blockwise/shared/aws';
import { catalogInfo } from '@blockwise/shared/catalog';
import { CatalogInputError } from '../catalog/errors.ts';
import { useCatalog } from '../catalog/load.ts';
import { UsageError, type CliIo } from './io.ts';

/** The `--catalog FILE` option every pricing command shares, for parseFlags. */
export const CATALOG_FLAG = { catalog: { type: 'string' } } as const;

export const CATALOG_USAGE = `  --catalog     a catalog file written by \`blockwise catalog update\` (or BLOCKWISE_CATALOG);
                default: the built-in catalog (Region prices of 2024-07-18, Local and Wavelength
                Zones 2022-02-10)`;

/**
 * Installs `--catalog FILE` (else BLOCKWISE_CATALOG, else the built-in catalog) for this
 * command's lookups; a file that is not a catalog is refused (exit 2) naming the flag and field.
 */
export async function applyCatalogFlag(value: string | undefined, io: CliIo): Promise<void> {
  try {
    await useCatalog(value, io.env, io.cwd);
  } catch (error) {
    if (!(error instanceof CatalogInputError)) throw error;
    const flag = value === undefined ? 'BLOCKWISE_CATALOG' : '--catalog';
    throw new UsageError(`${flag}: ${error.message}`, flag);
  }
}

/** A line under the prices when they are over a year old, else null. */
export function staleRatesNote(date: string, today = new Date()): string | null {
  return pricesOlderThanAYear(date, today)
    ? `  Warning: these prices are from ${date}, over a year old: refresh them with \`blockwise catalog update\` (docs/catalog.md, "Refreshing prices").`
    : null;
}

/** "Catalog: cat.json (EBS prices of 2026-11-01 to 2026-11-01, 30 regions)", with a warning when old. */
export function catalogNote(today = new Date()): string {
  const info = catalogInfo();
  const dates =
    info.pricesFrom === info.pricesTo ? info.pricesFrom : `${info.pricesFrom} to ${info.pricesTo}`;
  const stale = info.pricesFrom !== null && pricesOlderThanAYear(info.pricesFrom, today);
  return `Catalog: ${info.origin} (EBS prices of ${dates}, ${info.ebsRegions} regions; ${info.instanceTypes} instance types)${stale ? ' — over a year old: refresh with `blockwise catalog update`' : ''}`;
}
