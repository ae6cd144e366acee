import { defineConfig } from 'vitest/config';

// One `vitest run` at the root runs every package's suite (each package keeps its own config).
export default defineConfig({
  test: {
    projects: [
      'shared',
      'server',
      'web',
      // Tests of the repo's own checks (scripts/check-*.mjs, which the lint stage runs).
      { test: { name: 'scripts', include: ['scripts/**/*.test.mjs'] } },
    ],
  },
});
