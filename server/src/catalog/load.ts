import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  checkCatalogData,
  installBuiltInCatalog,
  installCatalog,
  type CatalogData,
} from '@blockwise/shared/catalog';
import { CatalogInputError } from './errors.ts';

const MAX_CATALOG_BYTES = 64 * 1024 * 1024;

/** A catalog file as `blockwise catalog update` writes it, checked; CatalogInputError naming the field when it is not one. */
export async function loadCatalogFile(file: string, cwd: string): Promise<CatalogData> {
  const path = resolve(cwd, file);
  let text: string;
  try {
    const info = await stat(path);
    if (info.size > MAX_CATALOG_BYTES)
      throw new CatalogInputError(file, null, `${info.size} bytes; a catalog is far smaller`);
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof CatalogInputError) throw error;
    throw new CatalogInputError(
      file,
      null,
      `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CatalogInputError(file, null, `not valid JSON (${(error as Error).message})`);
  }
  const checked = checkCatalogData(json);
  if (!checked.ok)
    throw new CatalogInputError(
      file,
      checked.path,
      `${checked.message} (write one with \`blockwise catalog update\`)`,
    );
  return checked.value;
}

/**
 * The catalog a command should use: `--catalog FILE`, else BLOCKWISE_CATALOG, else the built-in
 * one. Installs it for every lookup of this process and returns where it came from (null: built-in).
 */
export async function useCatalog(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ file: string; catalog: CatalogData } | null> {
  const file = flag ?? (env.BLOCKWISE_CATALOG || undefined);
  if (file === undefined) {
    installBuiltInCatalog();
    return null;
  }
  const catalog = await loadCatalogFile(file, cwd);
  installCatalog(catalog, file);
  return { file, catalog };
}
