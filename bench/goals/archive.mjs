// P8: the archive at scale. Runs are bulk-loaded through the real schema (the store's own
// migrations create it; rows are inserted with SQL into the real tables, with the store's indexes
// dropped during the load and re-created from their own definitions, which builds them sorted),
// then the RunStore API is timed at 10k rows and again at the large size: point lookups must stay
// O(log n) (≤ 2.5× the 10k time) and list/filter pages O(page) (≤ 1.5×). Every statement the
// store sent at the large size is EXPLAINed: 0 full scans or sorts. SQLite, then PostgreSQL on a
// fresh schema (dropped at the end). Series: 5,000 at 10k runs, 50,020 at the large size (GET /api/series).
import { join } from 'node:path';
import { QUICK, freshDir, goal, info, log, main, median, rm, round, skip } from '../lib/common.mjs';
import { serverRequire } from '../lib/deps.mjs';
import { openSqliteStore } from '../../server/src/store/sqlite-store.ts';
import { openPostgresStore } from '../../server/src/store/postgres-store.ts';
import { cursorForRun } from '../../server/src/store/cursor.ts';
import { SERIES_COUNTS_BACKFILL } from '../../server/src/store/replica-state.ts';

const SMALL = 10_000;
const LARGE_SQLITE = Number(process.env.BENCH_SQLITE_ROWS ?? (QUICK ? 200_000 : 1_000_000));
const LARGE_PG = Number(process.env.BENCH_PG_ROWS ?? (QUICK ? 100_000 : 500_000));
const PG_URL = process.env.BLOCKWISE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const CALLS = QUICK ? 200 : 400;

/** Row n's values: ids are valid 22-character ids, keys 64 hex digits (sha-256 shaped). */
const idOf = (n) => (n * 7919).toString(16).padStart(22, '0');
const SUMMARY = JSON.stringify({
  headline: {
    readIops: 10267.01,
    writeIops: 5127.4,
    readBytesPerSec: 42053672,
    writeBytesPerSec: 21002342,
    readBlockSizeBytes: 4096,
    writeBlockSizeBytes: 4096,
    readClatMs: { 50: 0.38, 99: 1.2, 99.9: 3.1 },
    writeClatMs: { 50: 0.9, 99: 2.4, 99.9: 5.6 },
    clatApproximate: false,
    runtimeSec: 60,
  },
  warnings: [],
});
const REPORT = '{"fioVersion":"fio-3.33","jobs":[]}';
const COLUMNS =
  'id, created_at, idempotency_key, series, branch, instance_type, kind, raw_sha256, raw_size, media_type, file_name, analysis_version, fio_version, labels, summary, report';

// 20 series, each with runs on 10 branches (the branch changes every 20 rows, so series and branch
// are independent, as planners assume), 50 instance types, 2 kinds: every filter value used below
// matches ≥ 50 rows (a full page) already at 10k rows.
const SQLITE_ROWS = (
  from,
  to,
) => `WITH RECURSIVE g(n) AS (SELECT ${from} UNION ALL SELECT n + 1 FROM g WHERE n < ${to})
INSERT INTO runs (${COLUMNS})
SELECT printf('%022x', n * 7919), 1700000000000 + n * 1000, printf('%064x', n), 'series-' || (n % 20),
  'branch-' || (n / 20 % 10), 'type-' || (n % 50), CASE WHEN n % 2 = 0 THEN 'ebs' ELSE 'nvme' END,
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 104051, 'application/json', 'fio.json',
  '2026.11.0', 'fio-3.33',
  json_object('name', 'run-' || n, 'series', 'series-' || (n % 20), 'branch', 'branch-' || (n / 20 % 10),
    'instanceType', 'type-' || (n % 50), 'kind', CASE WHEN n % 2 = 0 THEN 'ebs' ELSE 'nvme' END),
  ?, ?
FROM g`;
const PG_ROWS = (from, to) => `INSERT INTO runs (${COLUMNS})
SELECT lpad(to_hex(n * 7919), 22, '0'), 1700000000000 + n * 1000, lpad(to_hex(n), 64, '0'), 'series-' || (n % 20),
  'branch-' || (n / 20 % 10), 'type-' || (n % 50), CASE WHEN n % 2 = 0 THEN 'ebs' ELSE 'nvme' END,
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 104051, 'application/json', 'fio.json',
  '2026.11.0', 'fio-3.33',
  jsonb_build_object('name', 'run-' || n, 'series', 'series-' || (n % 20), 'branch', 'branch-' || (n / 20 % 10),
    'instanceType', 'type-' || (n % 50), 'kind', CASE WHEN n % 2 = 0 THEN 'ebs' ELSE 'nvme' END),
  $1::json, $2::json
FROM generate_series(${from}::bigint, ${to}::bigint) AS n`;

/**
 * GET /api/series at scale is about the number of series, not of runs: besides the 20 active
 * series, each archive gets idle ones (one run each: its oldest runs, so the active series stay
 * first) — 5,000 at 10k runs, 50,000 at the large size — and every page is a full page of 50.
 * Identical SQL on both dialects.
 */
const idleSeriesSql = (rows) =>
  'INSERT INTO series_stats (series, run_count, branch_count, latest_created_at, latest_run_id) ' +
  `SELECT 'idle-' || id, 1, 0, created_at, id FROM runs ORDER BY created_at, id LIMIT ${Math.min(50_000, rows / 2)}`;

/** Median µs per call of `call(i)` over `count` calls (after a short warm-up). */
async function timeCalls(count, call) {
  for (let i = 0; i < 5; i++) await call(i);
  const times = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    const result = await call(i);
    times.push((performance.now() - t) * 1000);
    if (result === null || result?.ok === false || (result?.value && result.value.items.length === 0))
      throw new Error(`query ${i} found nothing: ${JSON.stringify(result)?.slice(0, 200)}`);
  }
  return median(times);
}

/** The RunStore calls the API makes, each with filter values that match rows at both sizes. */
async function measure(store, rows, calls) {
  const CALLS = calls;
  let seed = 12345;
  const rand = (n) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return 1 + (seed % n);
  };
  const middle = await store.getRun(idOf(Math.floor(rows / 2)));
  const cursor = cursorForRun(middle);
  const k = (i) => i % 20;
  return {
    lookups: {
      get_run: await timeCalls(CALLS, () => store.getRun(idOf(rand(rows)))),
    },
    lists: {
      newest: await timeCalls(CALLS, () => store.listRuns({ limit: 50 })),
      by_series: await timeCalls(CALLS, (i) => store.listRuns({ series: `series-${k(i)}`, limit: 50 })),
      by_series_branch: await timeCalls(CALLS, (i) =>
        store.listRuns({ series: `series-${k(i)}`, branch: `branch-${i % 10}`, limit: 50 }),
      ),
      by_instance_type: await timeCalls(CALLS, (i) =>
        store.listRuns({ instanceType: `type-${i % 50}`, limit: 50 }),
      ),
      by_kind: await timeCalls(CALLS, (i) => store.listRuns({ kind: i % 2 ? 'nvme' : 'ebs', limit: 50 })),
      page_from_middle: await timeCalls(CALLS, () => store.listRuns({ limit: 50, cursor })),
      // GET /api/series: one row per series (series_stats), whatever the number of runs.
      series_list: await timeCalls(CALLS, () => store.listSeries({ limit: 50 })),
      series_history: await timeCalls(CALLS, () =>
        store.listSeriesRuns({
          series: middle.labels.series,
          branch: middle.labels.branch,
          before: cursor,
          limit: 20,
        }),
      ),
    },
  };
}

const ROUNDS = 5;

/**
 * Both archives measured in alternating rounds (the interleaved method: a noisy neighbour or a
 * PostgreSQL checkpoint hits both sizes alike); per query, the median over rounds of the
 * large/small time ratio.
 */
async function interleaved(smallStore, largeStore, largeRows) {
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const pair = {};
    const order = r % 2 ? ['large', 'small'] : ['small', 'large'];
    for (const which of order) {
      pair[which] = await measure(
        which === 'small' ? smallStore : largeStore,
        which === 'small' ? SMALL : largeRows,
        Math.ceil(CALLS / ROUNDS),
      );
    }
    rounds.push(pair);
  }
  const summary = {};
  for (const group of ['lookups', 'lists']) {
    summary[group] = {};
    for (const q of Object.keys(rounds[0].small[group])) {
      summary[group][q] = {
        ratio: median(rounds.map((p) => p.large[group][q] / p.small[group][q])),
        small_us: median(rounds.map((p) => p.small[group][q])),
        large_us: median(rounds.map((p) => p.large[group][q])),
      };
    }
  }
  return summary;
}

function compare(dialect, m, largeRows, scans, statements) {
  const lists = Object.entries(m.lists).sort((a, b) => b[1].ratio - a[1].ratio);
  const [worstName, worst] = lists[0];
  const get = m.lookups.get_run;
  const sizeLabel = `${SMALL / 1000}k→${largeRows >= 1e6 ? `${largeRows / 1e6}M` : `${largeRows / 1000}k`}`;
  const rounded = (group) =>
    Object.fromEntries(
      Object.entries(m[group]).map(([q, v]) => [
        q,
        { ratio: round(v.ratio, 2), small_us: round(v.small_us, 1), large_us: round(v.large_us, 1) },
      ]),
    );
  const tag = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const id = dialect === 'sqlite' ? 'P8' : 'P8pg';
  return [
    goal({
      id: `${id}a`,
      title: `${tag} run lookup time ${sizeLabel}`,
      value: get.ratio,
      op: '<=',
      target: 2.5,
      unit: '×',
      details: { rows: { small: SMALL, large: largeRows }, lookups: rounded('lookups') },
      note: `${round(get.small_us, 1)} → ${round(get.large_us, 1)} µs`,
    }),
    goal({
      id: `${id}b`,
      title: `${tag} list/filter page time ${sizeLabel}, worst of ${lists.length}`,
      value: worst.ratio,
      op: '<=',
      target: 1.5,
      unit: '×',
      details: { lists: rounded('lists') },
      note: `worst: ${worstName} ${round(worst.small_us, 0)} → ${round(worst.large_us, 0)} µs`,
    }),
    goal({
      id: `${id}c`,
      title: `${tag} full scans/sorts in the plans of ${statements} store statements at ${sizeLabel.split('→')[1]} rows`,
      value: scans.length,
      op: '==',
      target: 0,
      digits: 0,
      details: { scans },
    }),
  ];
}

/** Every distinct statement the store sent (a QueryObserver), to EXPLAIN afterwards. */
function recorder() {
  const statements = new Map();
  return {
    statements,
    observe: ({ sql, params }) => {
      // schema_migrations is read once at start-up, whole, by design (as in the store's plan tests).
      if (/^\s*(SELECT|WITH)\b/i.test(sql) && !/schema_migrations/.test(sql) && !statements.has(sql))
        statements.set(sql, [...params]);
    },
  };
}

/** Drops the table's secondary indexes, runs `load`, re-creates them from their own definitions. */
async function withIndexesRebuilt(list, drop, create, load) {
  const indexes = await list();
  for (const i of indexes) await drop(i);
  await load();
  for (const i of indexes) await create(i);
}

async function sqlite() {
  const Database = serverRequire('better-sqlite3');
  const dir = freshDir('p8');
  const seed = async (path, rows) => {
    await (await openSqliteStore({ path })).close();
    const db = new Database(path);
    db.pragma('synchronous = OFF'); // the loader only; the store reopens with its own settings
    db.pragma('cache_size = -262144');
    const load = (from, to) => db.prepare(SQLITE_ROWS(from, to)).run(SUMMARY, REPORT);
    await withIndexesRebuilt(
      () =>
        db
          .prepare(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'runs' AND sql IS NOT NULL",
          )
          .all(),
      (i) => db.exec(`DROP INDEX ${i.name}`),
      (i) => db.exec(i.sql),
      () => {
        for (let from = 1; from <= rows; from += 100_000) load(from, Math.min(from + 99_999, rows));
      },
    );
    // The runs went in with SQL, past the store: count them as migration 2 counts an old archive.
    db.exec(SERIES_COUNTS_BACKFILL);
    db.exec(idleSeriesSql(rows));
    return db;
  };
  try {
    const t = performance.now();
    const smallDb = await seed(join(dir, 'small.db'), SMALL);
    const largeDb = await seed(join(dir, 'large.db'), LARGE_SQLITE);
    const loadSec = (performance.now() - t) / 1000;
    log('P8', `SQLite: ${SMALL} and ${LARGE_SQLITE} rows loaded in ${round(loadSec, 1)} s`);
    smallDb.close();
    const rec = recorder();
    const small = await openSqliteStore({ path: join(dir, 'small.db') });
    const large = await openSqliteStore({ path: join(dir, 'large.db'), onQuery: rec.observe });
    const m = await interleaved(small, large, LARGE_SQLITE);
    await small.close();
    await large.close();
    const scans = [];
    for (const [sql, params] of rec.statements) {
      for (const { detail } of largeDb.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params)) {
        const fullScan =
          /^SCAN /.test(detail) &&
          !/ USING (COVERING )?INDEX /.test(detail) &&
          detail !== 'SCAN CONSTANT ROW';
        if (fullScan || /TEMP B-TREE/.test(detail)) scans.push(`${detail} ⇐ ${sql}`);
      }
    }
    largeDb.close();
    const results = compare('sqlite', m, LARGE_SQLITE, scans, rec.statements.size);
    results[0].details.load_seconds = round(loadSec, 1);
    return results;
  } finally {
    rm(dir);
  }
}

async function postgres() {
  const pg = serverRequire('pg');
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    return [
      skip({
        id: 'P8pg',
        title: 'PostgreSQL archive at scale',
        reason: `PostgreSQL not reachable at ${PG_URL}: ${error.message}`,
      }),
    ];
  }
  const stamp = Date.now().toString(36);
  const schemas = { small: `bw_bench_${stamp}_s`, large: `bw_bench_${stamp}_l` };
  const seed = async (schema, rows) => {
    await admin.query(`CREATE SCHEMA ${schema}`);
    await (await openPostgresStore({ url: PG_URL, schema })).close();
    await admin.query(`SET search_path = ${schema}`);
    await withIndexesRebuilt(
      async () =>
        (
          await admin.query(
            `SELECT indexrelid::regclass::text AS name, pg_get_indexdef(indexrelid) AS def FROM pg_index
             WHERE indrelid = '${schema}.runs'::regclass AND NOT indisprimary`,
          )
        ).rows,
      (i) => admin.query(`DROP INDEX ${schema}.${i.name.split('.').pop()}`),
      (i) => admin.query(i.def),
      () => admin.query(PG_ROWS(1, rows), [SUMMARY, REPORT]),
    );
    await admin.query(SERIES_COUNTS_BACKFILL);
    await admin.query(idleSeriesSql(rows));
    // What autovacuum does after a bulk load; the store never runs ANALYZE itself.
    await admin.query('ANALYZE runs');
    await admin.query('ANALYZE series_stats');
  };
  try {
    const t = performance.now();
    await seed(schemas.small, SMALL);
    await seed(schemas.large, LARGE_PG);
    const loadSec = (performance.now() - t) / 1000;
    log('P8', `PostgreSQL: ${SMALL} and ${LARGE_PG} rows loaded in ${round(loadSec, 1)} s`);
    const rec = recorder();
    const small = await openPostgresStore({ url: PG_URL, schema: schemas.small });
    const large = await openPostgresStore({ url: PG_URL, schema: schemas.large, onQuery: rec.observe });
    const m = await interleaved(small, large, LARGE_PG);
    await small.close();
    await large.close();
    await admin.query(`SET search_path = ${schemas.large}`);
    const scans = [];
    for (const [sql, params] of rec.statements) {
      const plan = (await admin.query(`EXPLAIN ${sql}`, params)).rows.map((r) => r['QUERY PLAN']);
      for (const line of plan)
        if (/Seq Scan on runs|Sort\b/.test(line)) scans.push(`${line.trim()} ⇐ ${sql}`);
    }
    const results = compare('postgres', m, LARGE_PG, scans, rec.statements.size);
    results[0].details.load_seconds = round(loadSec, 1);
    return results;
  } finally {
    for (const schema of Object.values(schemas))
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
    await admin.end();
  }
}

main('P8', async () => {
  const only = (process.env.BENCH_PARTS ?? 'sqlite,postgres').split(',');
  const results = [];
  if (only.includes('sqlite')) results.push(...(await sqlite()));
  if (only.includes('postgres')) results.push(...(await postgres()));
  if (results.length === 0) results.push(info({ id: 'P8', title: 'nothing selected', value: NaN }));
  return results;
});
