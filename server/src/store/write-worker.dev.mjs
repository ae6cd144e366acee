// Development/test build of the SQLite writer thread's code: write-worker.ts and the little it
// imports (no domain code: see sqlite-writes.ts), compiled with esbuild in memory, once per
// process, as a data: URL a Worker runs. Production runs the bundled dist/write-worker.mjs.
// Not a tsx entry like the parse worker's: registering tsx's loader costs every worker 0.3–1 s,
// and every store on a file starts a writer (each test's).
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);

/** @returns {Promise<URL>} the writer's code as an ES module data: URL */
export async function compileWriteWorker() {
  const { outputFiles } = await build({
    entryPoints: [fileURLToPath(new URL('./write-worker.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    write: false,
    logLevel: 'error',
    plugins: [
      {
        // A data: URL module cannot resolve package names: the driver by its absolute URL.
        name: 'driver-by-url',
        setup(builder) {
          builder.onResolve({ filter: /^better-sqlite3$/ }, () => ({
            path: pathToFileURL(require.resolve('better-sqlite3')).href,
            external: true,
          }));
        },
      },
    ],
  });
  return new URL(`data:text/javascript;base64,${Buffer.from(outputFiles[0].contents).toString('base64')}`);
}
