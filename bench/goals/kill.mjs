// R1: crash safety. 20 cycles of {start the real server, 8 concurrent uploaders, SIGKILL at a
// random moment}, on SQLite and on PostgreSQL. Uploaders behave like CI clients: an upload whose
// answer was lost (connection reset: "indeterminate", Jepsen's term) is retried with the same
// bytes and labels until acknowledged. Afterwards: every acknowledged upload is stored
// byte-identical (0 lost), no upload is stored twice (0 duplicates, idempotency), and SQLite's
// integrity_check is ok.
import { createHash } from 'node:crypto';
import http from 'node:http';
import { join } from 'node:path';
import {
  QUICK,
  fixture,
  freePort,
  freshDir,
  goal,
  log,
  main,
  rm,
  round,
  sleep,
  skip,
} from '../lib/common.mjs';
import { serverRequire } from '../lib/deps.mjs';
import { startApp } from '../lib/servers.mjs';
import { openSqliteStore } from '../../server/src/store/sqlite-store.ts';
import { openPostgresStore } from '../../server/src/store/postgres-store.ts';

const CYCLES = Number(process.env.BENCH_KILL_CYCLES ?? (QUICK ? 4 : 20));
const UPLOADERS = 8;
const PG_URL = process.env.BLOCKWISE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BODIES = [
  'fio/generated/c_randread_4k_libaio_qd32_timebased5s.json',
  'fio/generated/d_randwrite_16k_psync_timebased5s.json',
  'fio/generated/k_randrw_4k_unified_rw_reporting_both.json',
  'fio/public/arau_fio-3.12_randrw50_32k.json',
].map((f) => fixture(f));
const sha256 = (b) => createHash('sha256').update(b).digest('hex');

function post(port, name, body) {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: `/api/runs?name=${name}&series=r1`,
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': body.length },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode, json: JSON.parse(Buffer.concat(chunks).toString()) });
          } catch {
            resolve({ status: res.statusCode, json: null });
          }
        });
        res.on('error', () => resolve({ status: 0 }));
      },
    );
    req.on('error', () => resolve({ status: 0 }));
    req.end(body);
  });
}

async function killCycles(dialect, db, verify) {
  const port = await freePort();
  const acked = new Map(); // name → {id, sha, created}
  const counts = { requests: 0, indeterminate: 0, other: {}, confirmedAfterLoss: 0 };
  let up = false;
  let stop = false;
  const uploader = async (u) => {
    for (let seq = 0; !stop; seq++) {
      const name = `r1-${dialect}-${u}-${seq}`;
      const body = BODIES[(u + seq) % BODIES.length];
      let lostOnce = false;
      // The same logical upload until it is acknowledged, as a CI client retries.
      for (;;) {
        if (stop && !up) return;
        if (!up) {
          await sleep(20);
          continue;
        }
        counts.requests += 1;
        const r = await post(port, name, body);
        if (r.status === 201 || r.status === 200) {
          acked.set(name, { id: r.json.id, sha: sha256(body), created: r.json.created });
          if (r.status === 200 && lostOnce) counts.confirmedAfterLoss += 1;
          break;
        }
        if (r.status === 0) {
          counts.indeterminate += 1;
          lostOnce = true;
        } else counts.other[r.status] = (counts.other[r.status] ?? 0) + 1;
        await sleep(10);
      }
      if (stop) return;
    }
  };
  const loops = Array.from({ length: UPLOADERS }, (_, u) => uploader(u));
  for (let c = 0; c <= CYCLES; c++) {
    const server = await startApp({ db, env: { PORT: String(port) }, name: `${dialect}-${c}` });
    up = true;
    if (c === CYCLES) {
      // Final round: let every pending upload complete, then stop cleanly.
      stop = true;
      await Promise.all(loops);
      await server.stop();
      break;
    }
    await sleep(300 + Math.random() * 900);
    up = false;
    await server.stop('SIGKILL');
  }
  const v = await verify(acked);
  return { acked, counts, ...v };
}

function report(dialect, r) {
  const tag = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const bad = r.lost + r.duplicates + (r.integrity === 'ok' || r.integrity === null ? 0 : 1);
  return goal({
    id: dialect === 'sqlite' ? 'R1' : 'R1pg',
    title: `${tag}: ${CYCLES} × SIGKILL under ${UPLOADERS} uploaders, acknowledged uploads lost + duplicates${r.integrity === null ? '' : ' + integrity errors'}`,
    value: bad,
    op: '==',
    target: 0,
    digits: 0,
    details: {
      acknowledged: r.acked.size,
      lost: r.lost,
      duplicates: r.duplicates,
      integrity: r.integrity,
      requests: r.counts.requests,
      indeterminate: r.counts.indeterminate,
      committed_but_unacknowledged_then_confirmed_by_retry: r.counts.confirmedAfterLoss,
      other_statuses: r.counts.other,
      rows: r.rows,
    },
    note: `${r.acked.size} acknowledged, ${r.lost} lost, ${r.duplicates} duplicates, ${r.counts.indeterminate} indeterminate (retried; ${r.counts.confirmedAfterLoss} had committed)${r.integrity ? `, integrity_check ${r.integrity}` : ''}`,
  });
}

async function verifyStore(store, acked) {
  let lost = 0;
  for (const [name, a] of acked) {
    const raw = await store.getRunRaw(a.id);
    const run = await store.getRun(a.id);
    if (!raw || !run || raw.sha256 !== a.sha || sha256(raw.bytes) !== a.sha || run.labels.name !== name)
      lost += 1;
  }
  return lost;
}

async function sqlite() {
  const dir = freshDir('r1');
  const path = join(dir, 'blockwise.db');
  try {
    const r = await killCycles('sqlite', `sqlite:${path}`, async (acked) => {
      const store = await openSqliteStore({ path });
      const lost = await verifyStore(store, acked);
      await store.close();
      const Database = serverRequire('better-sqlite3');
      const db = new Database(path, { readonly: true });
      const integrity = db.pragma('integrity_check', { simple: true });
      const duplicates = db
        .prepare(
          "SELECT count(*) AS n FROM (SELECT json_extract(labels, '$.name') AS name FROM runs GROUP BY name HAVING count(*) > 1)",
        )
        .get().n;
      const rows = db.prepare('SELECT count(*) AS n FROM runs').get().n;
      db.close();
      return { lost, duplicates, integrity, rows };
    });
    return report('sqlite', r);
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
    return skip({
      id: 'R1pg',
      title: 'PostgreSQL kill test',
      reason: `PostgreSQL not reachable at ${PG_URL}: ${error.message}`,
    });
  }
  const schema = `bw_r1_${Date.now().toString(36)}`;
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
    const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const r = await killCycles('postgres', url, async (acked) => {
      const store = await openPostgresStore({ url: PG_URL, schema });
      const lost = await verifyStore(store, acked);
      await store.close();
      const duplicates = Number(
        (
          await admin.query(
            `SELECT count(*) AS n FROM (SELECT labels->>'name' FROM ${schema}.runs GROUP BY 1 HAVING count(*) > 1) d`,
          )
        ).rows[0].n,
      );
      const rows = Number((await admin.query(`SELECT count(*) AS n FROM ${schema}.runs`)).rows[0].n);
      return { lost, duplicates, integrity: null, rows };
    });
    return report('postgres', r);
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
    await admin.end();
  }
}

main('R1', async () => {
  const only = (process.env.BENCH_PARTS ?? 'sqlite,postgres').split(',');
  const results = [];
  const t = performance.now();
  if (only.includes('sqlite')) results.push(await sqlite());
  log('R1', `SQLite done in ${round((performance.now() - t) / 1000, 1)} s`);
  if (only.includes('postgres')) results.push(await postgres());
  return results;
});
