import { readFileSync } from 'node:fs';
import { builtInCatalog, checkCatalogData, formatCatalog } from '@blockwise/shared/catalog';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_FILE, buildBuiltInCatalog } from './builtin.ts';

/**
 * The built-in catalog is what `blockwise catalog update` makes of the committed inputs (AWS
 * Price List mirrors, describe-instance-types files): rebuilt here on every run, so the loader
 * that reads users' refreshes is the one that made the shipped numbers.
 */
describe('built-in catalog', () => {
  it('is exactly what the update code makes of shared/src/aws/data/inputs (run `pnpm catalog:builtin` after changing them)', async () => {
    const built = await buildBuiltInCatalog();
    expect(built.warnings).toEqual([]);
    expect(formatCatalog(built.catalog)).toBe(readFileSync(BUILT_IN_FILE, 'utf8'));
  });

  it('passes the check every loaded catalog passes', () => {
    const checked = checkCatalogData(builtInCatalog());
    expect(checked.ok ? 'ok' : `${checked.path}: ${checked.message}`).toBe('ok');
  });
});
