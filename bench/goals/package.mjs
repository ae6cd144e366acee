// P21: the npm package users install (packages/blockwise, docs/install.md).
//   P21a/P21b  its tarball and unpacked size (`npm pack --dry-run --json`) within budget;
//   P21c       a cold `npx`: the tarball run with an empty npm cache (its dependencies fetched
//              from the registry, nothing native built) until `blockwise --version` answers;
//   P21d/P21e  the SQLite drivers side by side under this Node, as the store uses them: a
//              committed write (a ~150 KB run in its own IMMEDIATE transaction, WAL +
//              synchronous=FULL, 16 KiB pages) and an indexed read, node:sqlite (through
//              server/src/store/sqlite-driver.ts) over better-sqlite3, interleaved rounds, median
//              time per operation. INFO: they decide which driver the store prefers (docs/install.md §3).
// Needs `pnpm build` (it assembles the package); skipped otherwise. P21d/e need Node 22.13+ and a
// better-sqlite3 built for this Node: the server's, or BENCH_P21_BETTER_SQLITE3=<its folder>.
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import {
  QUICK,
  ROOT,
  existsSync,
  freshDir,
  goal,
  info,
  join,
  log,
  main,
  median,
  rm,
  round,
  skip,
} from '../lib/common.mjs';

const run = promisify(execFile);
const PACKAGE_DIR = join(ROOT, 'packages', 'blockwise');
const MB = 1e6;
/** Budgets: about a third above what 0.1.0 measured (3.0 MB packed, 10.4 MB unpacked, 2026-11-28). */
const TARBALL_MAX_MB = 4;
const UNPACKED_MAX_MB = 14;
/** A first `npx` on a CI runner: the registry round trips for 15 small packages, no compile. */
const COLD_NPX_MAX_SEC = 60;

async function sizes() {
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json'], { cwd: PACKAGE_DIR });
  const [pack] = JSON.parse(stdout);
  return [
    goal({
      id: 'P21a',
      title: `${pack.name} tarball`,
      value: pack.size / MB,
      op: '<=',
      target: TARBALL_MAX_MB,
      unit: ' MB',
      note: `${pack.entryCount} files`,
      details: { bytes: pack.size },
    }),
    goal({
      id: 'P21b',
      title: `${pack.name} unpacked`,
      value: pack.unpackedSize / MB,
      op: '<=',
      target: UNPACKED_MAX_MB,
      unit: ' MB',
      details: { bytes: pack.unpackedSize },
    }),
  ];
}

async function coldNpx(dir) {
  await run('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: PACKAGE_DIR });
  const tarball = join(
    dir,
    readdirSync(dir).find((n) => n.endsWith('.tgz')),
  );
  const cache = join(dir, 'npm-cache');
  const cwd = join(dir, 'empty');
  mkdirSync(cwd);
  const started = performance.now();
  const { stdout } = await run(
    'npx',
    ['--yes', '--cache', cache, '--package', tarball, 'blockwise', '--version'],
    { cwd, env: { ...process.env, npm_config_update_notifier: 'false' } },
  );
  const seconds = (performance.now() - started) / 1000;
  if (!/^blockwise \d/.test(stdout.trim())) throw new Error(`npx blockwise --version printed ${stdout}`);
  return goal({
    id: 'P21c',
    title: 'cold npx (empty npm cache): install from the tarball + blockwise --version',
    value: seconds,
    op: '<=',
    target: COLD_NPX_MAX_SEC,
    unit: ' s',
    digits: 1,
    note: `${process.version}, dependencies from ${process.env.npm_config_registry ?? 'the npm registry'}`,
  });
}

/** better-sqlite3 for this Node, or the reason there is none. */
function loadBetterSqlite3() {
  const from = process.env.BENCH_P21_BETTER_SQLITE3
    ? join(process.env.BENCH_P21_BETTER_SQLITE3, 'package.json')
    : join(ROOT, 'server', 'package.json');
  try {
    const Database = createRequire(from)(process.env.BENCH_P21_BETTER_SQLITE3 ?? 'better-sqlite3');
    new Database(':memory:').close();
    return { Database };
  } catch (error) {
    return {
      reason: `better-sqlite3 does not load under ${process.version}: ${String(error.message).split('\n')[0]}`,
    };
  }
}

function workload(db, rows, reads) {
  db.pragma('page_size = 16384');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE runs (id INTEGER PRIMARY KEY, raw BLOB NOT NULL, report TEXT NOT NULL) STRICT');
  const insert = db.prepare('INSERT INTO runs (id, raw, report) VALUES (?, ?, ?)');
  const select = db.prepare('SELECT report FROM runs WHERE id = ?');
  const raw = Buffer.alloc(100_000, 7);
  const report = 'x'.repeat(50_000);
  let t0 = performance.now();
  for (let id = 1; id <= rows; id++) db.transaction(() => insert.run(id, raw, report)).immediate();
  const writeMs = (performance.now() - t0) / rows;
  t0 = performance.now();
  for (let i = 0; i < reads; i++) select.get(1 + ((i * 7919) % rows));
  const readUs = ((performance.now() - t0) * 1000) / reads;
  return { writeMs, readUs };
}

async function drivers(dir) {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 13)) {
    const reason = `node:sqlite needs Node 22.13+ (this is ${process.version})`;
    return [skip({ id: 'P21d', title: 'SQLite write: node:sqlite / better-sqlite3', reason })];
  }
  const better = loadBetterSqlite3();
  if (!better.Database)
    return [skip({ id: 'P21d', title: 'SQLite write: node:sqlite / better-sqlite3', reason: better.reason })];
  const { loadNamedSqliteDriver } = await import('../../server/src/store/sqlite-driver.ts');
  const nodeSqlite = await loadNamedSqliteDriver('node:sqlite');
  const rows = QUICK ? 60 : 300;
  const reads = QUICK ? 2000 : 20_000;
  const samples = { 'better-sqlite3': [], 'node:sqlite': [] };
  for (let round_ = 0; round_ < (QUICK ? 2 : 5); round_++) {
    for (const name of Object.keys(samples)) {
      const path = join(dir, `${name.replace(':', '-')}-${round_}.db`);
      const db = name === 'node:sqlite' ? nodeSqlite.open(path) : new better.Database(path);
      samples[name].push(workload(db, rows, reads));
      db.close();
    }
  }
  const med = (name, key) => median(samples[name].map((s) => s[key]));
  const write = { better: med('better-sqlite3', 'writeMs'), node: med('node:sqlite', 'writeMs') };
  const read = { better: med('better-sqlite3', 'readUs'), node: med('node:sqlite', 'readUs') };
  log('P21', `write ms/run: ${JSON.stringify(write)}; read µs: ${JSON.stringify(read)}`);
  return [
    info({
      id: 'P21d',
      title: 'SQLite committed write of a ~150 KB run: node:sqlite / better-sqlite3 time',
      value: write.node / write.better,
      unit: '×',
      note: `${round(write.node, 2)} vs ${round(write.better, 2)} ms per commit (WAL, FULL), ${process.version}`,
      details: { write, rows },
    }),
    info({
      id: 'P21e',
      title: 'SQLite indexed read of a 50 KB document: node:sqlite / better-sqlite3 time',
      value: read.node / read.better,
      unit: '×',
      note: `${round(read.node, 1)} vs ${round(read.better, 1)} µs per read, ${process.version}`,
      details: { read, reads },
    }),
  ];
}

main('P21', async () => {
  if (!existsSync(join(PACKAGE_DIR, 'dist', 'blockwise.mjs'))) {
    const reason = 'packages/blockwise is not assembled: run `pnpm build` first';
    return ['P21a', 'P21b', 'P21c', 'P21d'].map((id) => skip({ id, title: 'npm package', reason }));
  }
  const dir = freshDir('package');
  try {
    return [...(await sizes()), await coldNpx(dir), ...(await drivers(dir))];
  } finally {
    rm(dir);
  }
});
