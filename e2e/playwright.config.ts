import { defineConfig } from '@playwright/test';

/**
 * Journeys run in Debian's Chromium (never a downloaded browser) against the real server — the
 * built bundle on a fresh SQLite file — started by `webServer` below.
 */
const PORT = Number(process.env.BLOCKWISE_E2E_PORT ?? 18080);
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    screenshot: 'only-on-failure',
    // Recording a trace snapshots the DOM at every action: on the planning page that costs more
    // than the journeys themselves (≈ 4 min instead of under 3 on two busy cores). A failure that
    // CI retries is traced; locally, re-run with `--trace on` to get one.
    trace: 'on-first-retry',
    launchOptions: {
      executablePath: chromium,
      args: [
        ...(asRoot ? ['--no-sandbox'] : []),
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium', viewport: { width: 1280, height: 900 } } }],
  webServer: {
    command: `node scripts/start-server.mjs ${PORT}`,
    url: `http://127.0.0.1:${PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
