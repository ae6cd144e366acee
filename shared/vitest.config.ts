import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'shared',
    include: ['src/**/*.test.ts'],
    environment: 'node',
    // Vitest's default of 5 s is a wall-clock bound, and CI also runs the suite with two busy
    // cores: the timeout only catches a hung test, tests assert bounds of their own.
    testTimeout: 30_000,
  },
});
