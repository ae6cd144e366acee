// @vitest-environment node
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The lint rule behind the front-end boundaries (eslint.config.js, `featureBoundaries`): a
 * feature imports components/, lib/, @blockwise/shared and itself, never another feature.
 * Linted as if the text were a file in features/history (the imported files exist).
 */
const repoRoot = decodeURIComponent(new URL('../../../', import.meta.url).pathname);
const eslint = new ESLint({ cwd: repoRoot });

async function boundaryErrors(code: string, folder = 'features/history'): Promise<string[]> {
  const [result] = await eslint.lintText(code, {
    filePath: `${repoRoot}web/src/${folder}/boundary-probe.ts`,
  });
  return result!.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

describe('a feature never imports another feature', () => {
  it.each([
    ['a sibling feature', `export { useComparison } from '../share/api/comparison.ts';`],
    ['through the features folder', `export { useRun } from '../../features/archive/api/runs.ts';`],
    ['lazily', `export const load = () => import('../archive/api/runs.ts');`],
  ])('%s: refused', async (_how, code) => {
    const errors = await boundaryErrors(code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /features\/history may import components\/, lib\/, @blockwise\/shared and itself/,
    );
  });

  it.each([
    ['lib/', `export { useApiQuery } from '../../lib/query.ts';`],
    ['components/', `export { ErrorState } from '../../components/States.tsx';`],
    ['@blockwise/shared/history', `export { defaultSeriesConfig } from '@blockwise/shared/history';`],
    ['its own feature', `export { useSeriesList } from './api/history.ts';`],
  ])('%s: allowed', async (_what, code) => {
    expect(await boundaryErrors(code)).toEqual([]);
  });
});

describe('lib/ and components/ never import a feature (the layers go one way)', () => {
  it.each([
    ['lib', `export { RateMeta } from '../features/right-size/components/RateCardPanel.tsx';`],
    ['lib', `export const load = () => import('../features/fleet/fleet-view.ts');`],
    ['components', `export { useRun } from '../features/archive/api/runs.ts';`],
  ])('%s importing a feature: refused', async (folder, code) => {
    const errors = await boundaryErrors(code, folder);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`web/src/${folder} is below the features`));
  });

  it.each([
    ['lib', `export { fmtUsd } from './format.ts';`],
    ['components', `export { fmtUsd } from '../lib/format.ts';`],
    ['components', `export { Region } from './Region.tsx';`],
  ])('%s importing lib/ or components/: allowed', async (folder, code) => {
    expect(await boundaryErrors(code, folder)).toEqual([]);
  });
});
