import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The lint rule behind the server's layers (eslint.config.js, `serverLayers`): a route folder
 * imports http/, presenters/, services/, store/ and itself, never another route folder; nothing
 * below the routes imports them. Linted as if the text were a file in the given folder (the
 * imported files exist).
 */
const repoRoot = decodeURIComponent(new URL('../../', import.meta.url).pathname);
const eslint = new ESLint({ cwd: repoRoot });

async function layerErrors(code: string, folder: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, {
    filePath: `${repoRoot}server/src/${folder}/layer-probe.ts`,
  });
  return result!.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

describe('a route folder never imports another route folder', () => {
  it.each([
    ['series → runs', 'routes/series', `export { runsRouter } from '../runs/runs.router.ts';`],
    [
      'share → comparisons',
      'routes/share',
      `export { comparisonsRouter } from '../comparisons/comparisons.router.ts';`,
    ],
    ['lazily', 'routes/runs', `export const load = () => import('../series/series.router.ts');`],
  ])('%s: refused', async (_how, folder, code) => {
    const errors = await layerErrors(code, folder);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/may import http\/, presenters\/, services\/, store\/, ingest\/ and itself/);
  });

  it.each([
    ['presenters/', `export { toListItem } from '../../presenters/run.ts';`],
    ['services/', `export { readGate } from '../../services/regression-gate.ts';`],
    ['http/', `export { storeCall } from '../../http/route-helpers.ts';`],
    ['the request validators at the routes/ root', `export { seriesValidators } from '../validators.ts';`],
    ['its own folder', `export { seriesRouter } from './series.router.ts';`],
  ])('%s: allowed', async (_what, code) => {
    expect(await layerErrors(code, 'routes/series')).toEqual([]);
  });
});

describe('the layers below the routes never import them', () => {
  it.each([
    ['http', `export { runsValidators } from '../routes/validators.ts';`],
    ['services', `export { runsRouter } from '../routes/runs/runs.router.ts';`],
    ['presenters', `export { webRouter } from '../routes/share/share.router.ts';`],
  ])('%s importing routes/: refused', async (folder, code) => {
    const errors = await layerErrors(code, folder);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`server/src/${folder} is below the routes`));
  });

  it.each([
    ['http', `export { checkStoreHealth } from '../services/store-health.ts';`],
    ['presenters', `export { effectiveConfig } from '../services/regression-gate.ts';`],
  ])('%s importing a lower layer: allowed', async (folder, code) => {
    expect(await layerErrors(code, folder)).toEqual([]);
  });
});
