import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { emptyCatalog, formatCatalog } from '@blockwise/shared/catalog';
import { buildUpdatedCatalog, type UpdateResult } from './update.ts';

/**
 * The built-in catalog (shared/src/aws/data/catalog.json), built from the committed inputs in
 * shared/src/aws/data/inputs/ (AWS Price List mirrors, describe-instance-types files, the docs'
 * store IOPS) by the same code as `blockwise catalog update`. builtin.test.ts rebuilds it on
 * every run and compares it with the committed file; `pnpm catalog:builtin` rewrites it.
 */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const INPUTS_DIR = join(REPO_ROOT, 'shared/src/aws/data/inputs');
export const BUILT_IN_FILE = join(REPO_ROOT, 'shared/src/aws/data/catalog.json');

const dated = { file: z.string(), note: z.string(), publicationDate: z.string() };
const ManifestSchema = z.object({
  fetchedAt: z.string(),
  offers: z.array(z.object({ base: z.string(), note: z.string() })),
  instances: z.array(z.object(dated)),
  storeIops: z.array(z.object(dated)),
});

export async function buildBuiltInCatalog(): Promise<UpdateResult> {
  const manifest = ManifestSchema.parse(JSON.parse(await readFile(join(INPUTS_DIR, 'builtin.json'), 'utf8')));
  const now = new Date(manifest.fetchedAt);
  return buildUpdatedCatalog({
    base: emptyCatalog(manifest.fetchedAt),
    offers: manifest.offers,
    instances: manifest.instances.map((i) => ({ ...i, fetchedAt: manifest.fetchedAt })),
    storeIops: manifest.storeIops.map((i) => ({ ...i, fetchedAt: manifest.fetchedAt })),
    cwd: INPUTS_DIR,
    shownFrom: REPO_ROOT,
    now,
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await buildBuiltInCatalog();
  for (const w of result.warnings) console.warn(`warning: ${w}`);
  if (process.argv.includes('--write')) {
    await writeFile(BUILT_IN_FILE, formatCatalog(result.catalog));
    const c = result.catalog;
    console.log(
      `built-in catalog: ${Object.keys(c.ebs).length} EBS price regions, ${c.instances.rows.length} instance types, ${c.dVariantPairs.length} d-variant pairs → ${BUILT_IN_FILE}`,
    );
  } else {
    process.stdout.write(formatCatalog(result.catalog));
  }
}
