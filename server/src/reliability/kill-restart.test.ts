import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { generateToken, hashToken } from '../http/auth.ts';
import { openSqliteStore } from '../store/sqlite-store.ts';
import { fixture } from '../testing/test-app.ts';
import { send } from './testing/http-client.ts';
import { startServe, type ServeProcess } from './testing/serve-process.ts';

/**
 * R1 (short; `pnpm bench` runs 20 cycles on SQLite and PostgreSQL): the real `blockwise serve`
 * is SIGKILLed 3 times under 8 concurrent uploaders that retry every upload whose answer was lost
 * (as a CI client does). Afterwards every acknowledged upload is stored byte-identical, none is
 * stored twice (idempotency: same bytes + labels = same run), and integrity_check is ok.
 */
const CYCLES = 3;
const UPLOADERS = 8;
const BODIES = [
  'fio/generated/c_randread_4k_libaio_qd32_timebased5s.json',
  'fio/generated/d_randwrite_16k_psync_timebased5s.json',
  'fio/public/arau_fio-3.12_randrw50_32k.json',
].map((f) => fixture(f));
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const dir = mkdtempSync(join(tmpdir(), 'bw-kill-'));
const path = join(dir, 'blockwise.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

describe('SIGKILL under concurrent uploads (R1)', () => {
  it(`${CYCLES} kills: 0 acknowledged uploads lost, 0 duplicates, integrity ok`, async () => {
    // A CI token: its rate limit (600/min) instead of the anonymous one (30/min).
    const token = generateToken();
    const setup = await openSqliteStore({ path });
    expect((await setup.createToken({ name: 'ci', tokenSha256: hashToken(token) })).ok).toBe(true);
    await setup.close();

    const port = await freePort();
    const acked = new Map<string, { id: string; sha: string }>();
    let indeterminate = 0;
    const unexpected: number[] = [];
    let up = false;
    let stop = false;
    const uploader = async (u: number) => {
      for (let seq = 0; !stop; seq++) {
        const name = `kill-${u}-${seq}`;
        const body = BODIES[(u + seq) % BODIES.length]!;
        for (;;) {
          if (!up) {
            if (stop) return;
            await sleep(20);
            continue;
          }
          const r = await send(port, {
            path: `/api/runs?name=${name}&series=r1`,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body,
          });
          if (r.status === 201 || r.status === 200) {
            acked.set(name, { id: (JSON.parse(r.body) as { id: string }).id, sha: sha256(body) });
            break;
          }
          if (r.status === 0)
            indeterminate += 1; // the answer was lost: retry the same upload
          else unexpected.push(r.status);
          await sleep(10);
        }
      }
    };
    const loops = Array.from({ length: UPLOADERS }, (_, u) => uploader(u));
    let server: ServeProcess | null = null;
    for (let cycle = 0; cycle <= CYCLES; cycle++) {
      server = await startServe(['--port', String(port), '--db', `sqlite:${path}`]);
      up = true;
      if (cycle === CYCLES) break;
      const before = acked.size;
      while (acked.size < before + 10) await sleep(20); // some load in flight, then a random moment
      await sleep(100 + cycle * 150);
      up = false;
      await server.kill('SIGKILL');
    }
    stop = true;
    await Promise.all(loops); // the last server takes every pending retry
    await server!.kill('SIGTERM');

    expect(unexpected).toEqual([]);
    expect(acked.size).toBeGreaterThan(40);
    const store = await openSqliteStore({ path });
    let lost = 0;
    for (const [name, a] of acked) {
      const raw = await store.getRunRaw(a.id);
      const run = await store.getRun(a.id);
      if (!raw || !run || raw.sha256 !== a.sha || sha256(raw.bytes) !== a.sha || run.labels.name !== name)
        lost += 1;
    }
    await store.close();
    expect(lost).toBe(0);
    const db = new Database(path, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const duplicates = db
        .prepare(
          "SELECT count(*) AS n FROM (SELECT json_extract(labels, '$.name') AS name FROM runs GROUP BY name HAVING count(*) > 1)",
        )
        .get() as { n: number };
      expect(duplicates.n).toBe(0);
      const rows = db.prepare('SELECT count(*) AS n FROM runs').get() as { n: number };
      expect(rows.n).toBe(acked.size);
    } finally {
      db.close();
    }
    console.log(
      `R1: ${acked.size} acknowledged, 0 lost, 0 duplicates, ${indeterminate} indeterminate (retried)`,
    );
  }, 120_000);
});
