/**
 * A write that cannot finish — a disk that stalls an fsync, another process holding SQLite's
 * write lock — delays that write only: the SQLite store commits in its writer thread
 * (store/write-channel.ts), so /healthz and reads keep answering from the event loop meanwhile,
 * and the write is acknowledged (201) once it commits. Issue 24: a frozen disk used to freeze
 * the whole server.
 *
 * The stall is real: a second connection to the file holds the write lock (BEGIN IMMEDIATE), so
 * the writer's transaction waits in SQLite's busy handler, as it would wait on a stuck fsync. The
 * store's busy_timeout is raised so that the wait cannot run out during the test; nothing here
 * depends on how long anything takes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { HealthSchema, CreatedRunSchema } from '@blockwise/shared/api';
import { openSqliteStore, type SqliteRunStore } from '../store/sqlite-store.ts';
import { fixture, makeTestApp, MANY_UPLOADS } from '../testing/test-app.ts';

const fio = fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json');

const upload = (app: Parameters<typeof request>[0], name: string) =>
  request(app)
    .post(`/api/runs?name=${name}`)
    .set('Content-Type', 'application/json')
    .serialize((b: unknown) => b as string)
    .send(fio);

/** Resolves once the store has a write sent to its writer and not answered. */
async function writePending(store: SqliteRunStore): Promise<void> {
  while (store.pendingWrites() === 0) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('SQLite: a stalled write stalls only itself', () => {
  it('while an upload waits for the write lock, /healthz and reads answer; the upload then commits (201)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bw-stall-'));
    const path = join(dir, 'blockwise.db');
    const store = await openSqliteStore({ path, busyTimeoutMs: 10 * 60_000 });
    const t = await makeTestApp({ store, dir, rateLimits: MANY_UPLOADS });
    const holder = new Database(path);
    try {
      const first = await upload(t.app, 'before');
      expect(first.status, first.text).toBe(201);
      const firstId = CreatedRunSchema.parse(first.body).id;

      holder.exec('BEGIN IMMEDIATE');
      let settled = false;
      const stalled = upload(t.app, 'during').then((res) => {
        settled = true;
        return res;
      });
      await writePending(store);

      const health = await request(t.app).get('/healthz');
      expect(health.status).toBe(200);
      // The write probe finds the lock taken (busy): writes go through, later.
      expect(HealthSchema.parse(health.body).store).toMatchObject({ ok: true, writable: true });
      expect((await request(t.app).get(`/api/runs/${firstId}`)).status).toBe(200);
      expect((await request(t.app).get('/api/runs')).status).toBe(200);
      // All of that answered while the upload's write was still waiting.
      expect(settled).toBe(false);
      expect(store.pendingWrites()).toBeGreaterThan(0);

      holder.exec('ROLLBACK');
      const during = await stalled;
      expect(during.status, during.text).toBe(201);
      const run = await request(t.app).get(`/api/runs/${CreatedRunSchema.parse(during.body).id}`);
      expect(run.status).toBe(200);
      expect(store.pendingWrites()).toBe(0);
    } finally {
      holder.close();
      await t.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
