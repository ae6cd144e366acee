// Bundles the server under test (bench/servers/app-server.mjs), the upload-parsing worker and the
// SQLite writer thread with the same esbuild settings as server/scripts/build.mjs, into
// bench/.tmp/bundle/. The app code is
// exactly what ships (built from the working tree, so a fix is measured at once); only the entry
// differs (see app-server.mjs). Native and database drivers stay external and are loaded from
// server/node_modules by absolute URL, as the real bundle loads them from its own node_modules.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH, ROOT, TMP_ROOT } from './common.mjs';
import { serverRequire } from './deps.mjs';

export const BUNDLE_DIR = join(TMP_ROOT, 'bundle');
export const APP_SERVER = join(BUNDLE_DIR, 'app-server.mjs');

/** esbuild plugin: `better-sqlite3` / `pg` → external file:// URLs into server/node_modules. */
export const serverDrivers = {
  name: 'server-drivers',
  setup(build) {
    build.onResolve({ filter: /^(better-sqlite3|pg|pg-native)$/ }, (args) => {
      try {
        return { path: pathToFileURL(serverRequire.resolve(args.path)).href, external: true };
      } catch {
        return { path: args.path, external: true };
      }
    });
  },
};

export async function buildAppBundle() {
  const { build } = serverRequire('esbuild');
  const pkg = JSON.parse(readFileSync(join(ROOT, 'server', 'package.json'), 'utf8'));
  mkdirSync(BUNDLE_DIR, { recursive: true });
  const common = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: true,
    legalComments: 'none',
    external: ['tsx', 'tsx/*'],
    plugins: [serverDrivers],
    banner: {
      js: "import { createRequire as __bwCreateRequire } from 'node:module'; const require = __bwCreateRequire(import.meta.url);",
    },
    define: { 'process.env.BLOCKWISE_VERSION': JSON.stringify(pkg.version) },
    logLevel: 'warning',
    absWorkingDir: ROOT,
  };
  const started = performance.now();
  await build({ ...common, entryPoints: [join(BENCH, 'servers', 'app-server.mjs')], outfile: APP_SERVER });
  await build({
    ...common,
    entryPoints: [join(ROOT, 'server', 'src', 'ingest', 'parse-worker.ts')],
    outfile: join(BUNDLE_DIR, 'parse-worker.mjs'),
  });
  await build({
    ...common,
    entryPoints: [join(ROOT, 'server', 'src', 'store', 'write-worker.ts')],
    outfile: join(BUNDLE_DIR, 'write-worker.mjs'),
  });
  return { ms: Math.round(performance.now() - started) };
}

/** The `blockwise` CLI as server/scripts/build.mjs bundles it (P14 runs `catalog update` with it). */
export async function buildCliBundle(outfile) {
  const { build } = serverRequire('esbuild');
  await build({
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    legalComments: 'none',
    external: ['tsx', 'tsx/*'],
    plugins: [serverDrivers],
    banner: {
      js: "import { createRequire as __bwCreateRequire } from 'node:module'; const require = __bwCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
    absWorkingDir: ROOT,
    entryPoints: [join(ROOT, 'server', 'src', 'cli', 'main.ts')],
    outfile,
  });
}
