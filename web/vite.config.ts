import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { moduleGraphPlugin } from './build/module-graph.ts';

const api = 'http://127.0.0.1:8080';

/**
 * Zod 4 probes `new Function("")` when its first object schema is created. Under the server's CSP
 * (`script-src 'self'`, no 'unsafe-eval') the probe is refused and reported as a
 * securitypolicyviolation, even though Zod falls back cleanly. Zod reads its config from
 * `globalThis.__zod_globalConfig`; setting `jitless` at the top of Zod's own core module
 * guarantees it is in place before any schema exists, whatever order the bundle's chunks run in.
 * (src/lib/zod-config.ts does the same for the dev server, where Zod is pre-bundled.)
 */
function zodJitless(): Plugin {
  return {
    name: 'blockwise:zod-jitless',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]zod[\\/]v4[\\/]core[\\/]core\.js$/.test(id)) return null;
      return { code: `(globalThis.__zod_globalConfig ??= {}).jitless = true;\n${code}`, map: null };
    },
  };
}

/** Asset types the server sends compressed (server/src/http/compressed-assets.ts TYPES). */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|map)$/;

/**
 * Writes `NAME.br` and `NAME.gz` beside each text asset of the build (dist/assets), at the highest
 * levels, so the server sends them as they are and never compresses on a request (bench P11).
 */
function precompressAssets(): Plugin {
  let assetsDir = '';
  return {
    name: 'blockwise:precompress-assets',
    apply: 'build',
    configResolved(config) {
      assetsDir = resolve(config.root, config.build.outDir, config.build.assetsDir);
    },
    async closeBundle() {
      const names = (await readdir(assetsDir).catch(() => [])).filter((n) => COMPRESSIBLE.test(n));
      await Promise.all(
        names.map(async (name) => {
          const bytes = await readFile(join(assetsDir, name));
          const [gz, br] = await Promise.all([
            promisify(gzip)(bytes, { level: 9 }),
            promisify(brotliCompress)(bytes, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
              },
            }),
          ]);
          await Promise.all([
            writeFile(join(assetsDir, `${name}.gz`), gz),
            writeFile(join(assetsDir, `${name}.br`), br),
          ]);
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [
    zodJitless(),
    react(),
    precompressAssets(),
    moduleGraphPlugin(resolve(import.meta.dirname, 'src')),
  ],
  server: {
    // /c/pair/…: the regression check's link, answered by the server (it redirects to /c/ID).
    proxy: { '/api': api, '/healthz': api, '/c/pair': api },
  },
  worker: { format: 'es', plugins: () => [zodJitless()] },
  build: {
    // The manifest lets scripts/bundle-size.mjs tell each page's initial chunks from lazy ones.
    manifest: true,
    target: 'es2022',
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The built-in AWS catalog's data (≈ 460 kB of JSON) in a chunk of its own, apart from the
          // code that reads it: together they passed the 500 kB a chunk may have (bench P10).
          groups: [{ name: 'catalog-data', test: /[\\/]shared[\\/]src[\\/]aws[\\/]data[\\/]catalog\.json$/ }],
        },
      },
    },
  },
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    environment: 'happy-dom',
    setupFiles: ['src/test/setup.ts'],
    // Vitest's default of 5 s is a wall-clock bound: typing through a form with user-event took
    // 5.1 s with two busy cores (CI's busy stage). The timeout only catches a hung test.
    testTimeout: 30_000,
  },
});
