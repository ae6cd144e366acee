// Builds the `blockwise` CLI + server into dist/blockwise.mjs, runnable with plain `node` (CI
// users need nothing but Node), the upload-parsing worker into dist/parse-worker.mjs, the SQLite
// writer thread into dist/write-worker.mjs and the fleet plan's metrics reader into
// dist/fleet-worker.mjs. The domain package is bundled in; native and
// database drivers stay external and load lazily, so `blockwise analyze` / `upload` run without
// them (only `serve` touches SQLite or PostgreSQL).
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const src = (path) => new URL(`../src/${path}`, import.meta.url).pathname;

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  legalComments: 'none',
  external: ['better-sqlite3', 'pg', 'pg-native', 'tsx', 'tsx/*'],
  banner: {
    // Bundled CommonJS dependencies (express, pino) call require(); give ESM one.
    js: "import { createRequire as __bwCreateRequire } from 'node:module'; const require = __bwCreateRequire(import.meta.url);",
  },
  define: { 'process.env.BLOCKWISE_VERSION': JSON.stringify(pkg.version) },
  logLevel: 'warning',
};

await build({
  ...common,
  entryPoints: [src('cli/main.ts')],
  outfile: new URL('../dist/blockwise.mjs', import.meta.url).pathname,
  banner: { js: `#!/usr/bin/env node\n${common.banner.js}` },
});
await build({
  ...common,
  entryPoints: [src('ingest/parse-worker.ts')],
  outfile: new URL('../dist/parse-worker.mjs', import.meta.url).pathname,
});
// `serve` on SQLite commits in a thread of its own (src/store/write-channel.ts).
await build({
  ...common,
  entryPoints: [src('store/write-worker.ts')],
  outfile: new URL('../dist/write-worker.mjs', import.meta.url).pathname,
});
// `blockwise fleet plan` reads large metrics inputs in worker threads (src/cli/fleet-metrics.ts).
await build({
  ...common,
  entryPoints: [src('cli/fleet-worker.ts')],
  outfile: new URL('../dist/fleet-worker.mjs', import.meta.url).pathname,
});
console.log('built server/dist/blockwise.mjs, parse-worker.mjs, write-worker.mjs and fleet-worker.mjs');
