import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// npm test's `package` stage: the npm package users install, packed and installed from its tarball
// (src/package/npm-package.pack.test.ts). After `pnpm build`, which assembles packages/blockwise.
export default defineConfig({
  // Run from the repository root (npm test): the paths below are the server's.
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'package',
    include: ['src/**/*.pack.test.ts'],
    environment: 'node',
    // Hang guards (an npm install, servers starting), not timings: CI runs with busy cores.
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
