import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    // The installed npm package's test needs `pnpm build`: npm test's `package` stage (vitest.pack.config.ts).
    exclude: ['src/**/*.pack.test.ts', '**/node_modules/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
