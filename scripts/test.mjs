// `npm test` (or `pnpm test`): install, then the whole suite in order — lint, format, typecheck,
// unit + integration tests (Vitest: shared, server incl. the PostgreSQL store when reachable,
// web), production build, the npm package installed from its tarball, and the Playwright journeys
// in Debian's Chromium.
// Stages can be picked with `npm test -- lint unit` (names below).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureNativeModules } from './native-modules.mjs';
import { pnpm, repoRoot } from './pnpm.mjs';

const stages = {
  install: () => {
    pnpm(['install', '--frozen-lockfile']);
    // The SQLite store's tests load better-sqlite3: rebuilt when it was built for another Node.
    ensureNativeModules();
  },
  lint: () => {
    pnpm(['lint']);
    // Every docs/*.md file, § section and goal id the code and docs cite exists in this repo.
    pnpm(['exec', 'node', 'scripts/check-doc-refs.mjs']);
    // No import cycle, type-only imports included (ESLint's import-x/no-cycle covers value imports).
    pnpm(['exec', 'node', 'scripts/check-import-cycles.mjs']);
    // No dead code: unused files, exports and dependencies (knip.jsonc).
    pnpm(['exec', 'knip', '--no-progress']);
    // @blockwise/shared's public surface: explicit export lists, a name count that only goes down.
    pnpm(['exec', 'node', 'scripts/count-exports.mjs']);
  },
  format: () => pnpm(['format:check']),
  typecheck: () => pnpm(['typecheck']),
  unit: () => pnpm(['test:unit']),
  build: () => pnpm(['build']),
  // The npm package users install (packages/blockwise, assembled by the build): packed, installed
  // from the tarball into an empty folder and run on fixtures (docs/install.md). Its own stage: an
  // npm install, and it needs the build.
  package: () => pnpm(['exec', 'vitest', 'run', '--config', 'server/vitest.pack.config.ts']),
  e2e: () => {
    ensureChromium();
    pnpm(['test:e2e']);
  },
};

/** Playwright drives the system Chromium (never a downloaded browser). */
function ensureChromium() {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (existsSync(path)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).status === 0;
  if (isRoot && hasApt) {
    console.log("• Chromium not found: installing Debian's chromium package (apt-get install -y chromium)");
    const r = spawnSync(
      'sh',
      ['-c', 'apt-get install -y chromium || (apt-get update && apt-get install -y chromium)'],
      {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      },
    );
    if (r.status === 0 && existsSync(path)) return;
  }
  console.error(
    `✗ The end-to-end tests need Chromium at ${path}. Install it (Debian/Ubuntu: apt-get install -y chromium) ` +
      'or point CHROMIUM_PATH at a Chromium binary.',
  );
  process.exit(1);
}

const requested = process.argv.slice(2);
const names =
  requested.length > 0 ? ['install', ...requested.filter((s) => s !== 'install')] : Object.keys(stages);
for (const name of names) {
  const stage = stages[name];
  if (!stage) {
    console.error(`✗ unknown stage "${name}"; stages: ${Object.keys(stages).join(', ')}`);
    process.exit(2);
  }
  const started = Date.now();
  console.log(`\n━━ ${name} ━━`);
  stage();
  console.log(`✓ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
console.log(`\nAll stages passed: ${names.join(', ')} (repo: ${repoRoot})`);
