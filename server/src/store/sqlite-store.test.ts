import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSqliteDriver } from './sqlite-driver.ts';
import { newId } from './ids.ts';
import { JsonObjectText, StoreUnavailableError } from './run-store.ts';
import { describeRunStoreContract } from './run-store.contract.ts';
import { openSqliteStore, pragmaMismatches, readPragmas } from './sqlite-store.ts';
import { FIO_JSON, REPORT, runInput } from './testing/run-inputs.ts';
import {
  LIST_STATEMENT,
  LIST_STATEMENT_VARIANTS,
  PLAN_EXEMPTIONS,
  bulkRunsSql,
  exerciseEveryQuery,
  filterColumns,
  hasPlan,
  queryRecorder,
} from './testing/query-workload.ts';

const dir = mkdtempSync(join(tmpdir(), 'blockwise-sqlite-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const freshPath = () => join(dir, `${newId()}.db`);
// The store's own driver, for connections of the tests' own (BLOCKWISE_SQLITE_DRIVER=node:sqlite
// under Node 22.13+/24 runs this file on node:sqlite).
const driver = await loadSqliteDriver();
const openConnection = (path: string) => driver.open(path);
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/** One statement on its own connection, outside the store. */
function rawSql(path: string, text: string): Record<string, unknown>[] {
  const db = openConnection(path);
  try {
    const statement = db.prepare(text);
    if (/^\s*(SELECT|PRAGMA|WITH|EXPLAIN)\b|\bRETURNING\b/i.test(text))
      return statement.all() as Record<string, unknown>[];
    statement.run();
    return [];
  } finally {
    db.close();
  }
}

describeRunStoreContract('SQLite (file, WAL)', async ({ now }) => {
  const path = freshPath();
  const store = await openSqliteStore({ path, now });
  return {
    store,
    reopen: () => openSqliteStore({ path, now }),
    sql: async (text) => rawSql(path, text),
  };
});

describe('SQLite store: durability settings (R2)', () => {
  it('runs with WAL, synchronous=FULL (2), foreign keys and a busy timeout, read back from the connection', async () => {
    const store = await openSqliteStore({ path: freshPath() });
    expect(store.pragmas()).toEqual({
      journalMode: 'wal',
      synchronous: 2,
      foreignKeys: 1,
      busyTimeoutMs: 5000,
    });
    await store.close();
  });

  it('creates new databases with 16 KiB pages (a run is ≈ 150 KB of overflow pages); keeps an existing file as it is', async () => {
    const path = freshPath();
    const store = await openSqliteStore({ path });
    await store.close();
    expect(rawSql(path, 'PRAGMA page_size')).toEqual([{ page_size: 16384 }]);

    const old = freshPath();
    const db = openConnection(old);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE before_blockwise (x INTEGER)');
    db.close();
    const reopened = await openSqliteStore({ path: old });
    await reopened.close();
    expect(rawSql(old, 'PRAGMA page_size')).toEqual([{ page_size: 4096 }]);
  });

  it('reports every pragma that did not take', () => {
    const path = freshPath();
    const db = openConnection(path);
    db.pragma('journal_mode = DELETE');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = OFF');
    db.pragma('busy_timeout = 10');
    expect(pragmaMismatches(readPragmas(db), { memory: false, busyTimeoutMs: 5000 })).toEqual([
      'journal_mode is delete, expected wal',
      'synchronous is 1, expected 2 (FULL)',
      'foreign_keys is 0, expected 1 (ON)',
      'busy_timeout is 10, expected 5000',
    ]);
    db.close();
    expect(
      pragmaMismatches(
        { journalMode: 'wal', synchronous: 2, foreignKeys: 1, busyTimeoutMs: 5000 },
        { memory: false, busyTimeoutMs: 5000 },
      ),
    ).toEqual([]);
  });

  it('refuses to start when WAL cannot be enabled because another connection holds the file', async () => {
    const path = freshPath();
    const holder = openConnection(path);
    holder.exec('CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1)');
    holder.exec('BEGIN');
    holder.prepare('SELECT x FROM t').all(); // a read transaction in rollback-journal mode
    await expect(openSqliteStore({ path, busyTimeoutMs: 50 })).rejects.toThrow(/locked|journal_mode/);
    holder.exec('COMMIT');
    holder.close();
    const store = await openSqliteStore({ path });
    expect(store.pragmas().journalMode).toBe('wal');
    await store.close();
  });

  it('a write lock held beyond busy_timeout is StoreUnavailableError (→ 503), and the store recovers', async () => {
    const path = freshPath();
    const store = await openSqliteStore({ path, busyTimeoutMs: 50 });
    const other = openConnection(path);
    other.exec('BEGIN IMMEDIATE');
    await expect(store.insertRun(runInput())).rejects.toBeInstanceOf(StoreUnavailableError);
    other.exec('COMMIT');
    other.close();
    expect((await store.insertRun(runInput())).created).toBe(true);
    await store.close();
  });

  it('a store opening while another process holds the write lock for a moment waits for it (no SQLITE_BUSY at once)', async () => {
    // A CLI command (`blockwise token revoke`) opening the file while a replica's writer commits a
    // token's last_used_at: the start-up write probe used busy_timeout 0 and failed at once with
    // "database is locked". The holder is another thread (the probe blocks this one): it takes the
    // lock, lets the store start opening, holds it a little longer, then commits.
    const path = freshPath();
    await (await openSqliteStore({ path })).close();
    const opening = new Int32Array(new SharedArrayBuffer(4));
    const holder = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
      const db = workerData.driverPath === null
        ? new (require('node:sqlite').DatabaseSync)(workerData.path)
        : new (require(workerData.driverPath))(workerData.path);
      db.exec('BEGIN IMMEDIATE');
      parentPort.postMessage('held');
      Atomics.wait(workerData.opening, 0, 0);
      Atomics.wait(workerData.opening, 0, 1, 300); // the store is past its first statements by now
      db.exec('COMMIT');
      db.close();`,
      {
        eval: true,
        workerData: {
          driverPath:
            driver.name === 'better-sqlite3'
              ? createRequire(import.meta.url).resolve('better-sqlite3')
              : null,
          path,
          opening,
        },
      },
    );
    try {
      await once(holder, 'message');
      Atomics.store(opening, 0, 1);
      Atomics.notify(opening, 0);
      const store = await openSqliteStore({ path });
      expect((await store.createToken({ name: 'after-wait', tokenSha256: sha256('t') })).ok).toBe(true);
      await store.close();
    } finally {
      await holder.terminate();
    }
  });

  it('creates the directory of the database file', async () => {
    const path = join(dir, 'nested', newId(), 'deeper', 'blockwise.db');
    const store = await openSqliteStore({ path });
    expect(existsSync(path)).toBe(true);
    await store.close();
  });

  it('works in memory for tests (no journal, nothing durable)', async () => {
    const store = await openSqliteStore({ path: ':memory:' });
    expect(store.pragmas()).toMatchObject({ journalMode: 'memory', synchronous: 2 });
    const { run } = await store.insertRun(runInput());
    expect((await store.getRunRaw(run.id))?.bytes.equals(FIO_JSON)).toBe(true);
    await store.close();
  });
});

describe('SQLite store: the file', () => {
  it('after close and reopen, runs read back byte-identical; close checkpoints the WAL away', async () => {
    const path = freshPath();
    const gzip = gzipSync(FIO_JSON);
    const binary = randomBytes(300_000);
    const first = await openSqliteStore({ path });
    const a = await first.insertRun(runInput({ rawBytes: gzip, mediaType: 'application/gzip' }));
    const b = await first.insertRun(runInput({ rawBytes: binary, mediaType: 'application/octet-stream' }));
    await first.close();
    expect(existsSync(`${path}-wal`)).toBe(false);

    const second = await openSqliteStore({ path });
    expect((await second.getRunRaw(a.run.id))?.bytes.equals(gzip)).toBe(true);
    expect((await second.getRunRaw(b.run.id))?.bytes.equals(binary)).toBe(true);
    expect(await second.getRun(a.run.id)).toEqual({ ...a.run, report: REPORT });
    await second.close();
    expect(rawSql(path, 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
  });

  it('a pair comparison goes to the writer in the group commit of the runs queued with it, its documents stored as TEXT', async () => {
    const path = freshPath();
    const store = await openSqliteStore({ path });
    try {
      const a = (await store.insertRun(runInput())).run;
      const b = (await store.insertRun(runInput())).run;
      // Queued in one turn, as an upload's comparison meets the next uploads' runs.
      const next = store.insertRun(runInput({}, { name: 'non-ASCII: 4 KiB → 1 µs ✓' }));
      const pair = store.ensurePairComparison({
        title: 'main vs pr',
        runIds: [a.id, b.id],
        plan: null,
        result: new JsonObjectText('{"runs":["é","→"]}'),
        priceTableDate: '2026-11-01',
        analysisVersion: '2026.11.0',
      });
      await new Promise((resolve) => setImmediate(resolve));
      // One message to the writer thread, one commit: not a second commit (and fsync) for the comparison.
      expect(store.pendingWrites()).toBe(1);
      const stored = await next;
      const comparison = await pair;
      if (!comparison.ok) throw new Error(comparison.error.message);
      expect(comparison.value.comparison.result).toEqual({ runs: ['é', '→'] });
      expect(await store.getComparison(comparison.value.comparison.id)).toEqual(comparison.value.comparison);
      expect((await store.getRunJson(stored.run.id))?.labels).toEqual(stored.run.labels);
      expect(await store.getRun(stored.run.id)).toEqual({ ...stored.run, report: REPORT });
      expect((await store.getRunRaw(stored.run.id))?.bytes.equals(FIO_JSON)).toBe(true);
    } finally {
      await store.close();
    }
    // The documents went to the writer as UTF-8 bytes: they are stored as TEXT all the same.
    expect(
      rawSql(path, 'SELECT DISTINCT typeof(labels) || typeof(summary) || typeof(report) AS types FROM runs'),
    ).toEqual([{ types: 'texttexttext' }]);
    expect(rawSql(path, 'SELECT typeof(result) AS type, result FROM comparisons')).toEqual([
      { type: 'text', result: '{"runs":["é","→"]}' },
    ]);
  });

  it('a report read as bytes is read by the writer’s connection, in its thread: it waits behind a stalled write while the event loop’s reads answer', async () => {
    const path = freshPath();
    const store = await openSqliteStore({ path, busyTimeoutMs: 10 * 60_000 });
    const holder = openConnection(path);
    try {
      const { run } = await store.insertRun(runInput());
      // Another connection holds the write lock: the writer's next commit waits for it, as on a
      // stuck fsync, and what is queued behind that commit waits too.
      holder.exec('BEGIN IMMEDIATE');
      const stalled = store.insertRun(runInput({}, { name: 'during' }));
      while (store.pendingWrites() === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      let settled = false;
      const bytes = store.getRunJsonBytes(run.id).then((read) => {
        settled = true;
        return read;
      });
      expect(store.pendingWrites()).toBe(2);
      // The event loop's own connection answers meanwhile (WAL: readers take no lock).
      expect(await store.getRunMeta(run.id)).toEqual(run);
      expect((await store.getRunJson(run.id))?.reportJson).toBe(JSON.stringify(REPORT));
      expect(settled).toBe(false);
      holder.exec('ROLLBACK');
      const read = await bytes;
      // Moved back from the writer's thread, a Buffer again over the same memory.
      expect(Buffer.isBuffer(read?.reportJson)).toBe(true);
      expect(Buffer.from(read!.reportJson).toString('utf8')).toBe(JSON.stringify(REPORT));
      expect((await stalled).created).toBe(true);
    } finally {
      holder.close();
      await store.close();
    }
  });

  it('giveBytes: a body and report of their own memory move to the writer (detached here), not copied; without it they stay', async () => {
    const path = freshPath();
    const store = await openSqliteStore({ path });
    try {
      const text = JSON.stringify(REPORT);
      // Memory of their own, as the upload's body and the parse worker's report are (Buffer.from of
      // a string may be a view of a larger buffer: Node 24 cuts it from one sized for the worst case).
      const own = (bytes: Uint8Array) => {
        const copy = Buffer.allocUnsafeSlow(bytes.byteLength);
        copy.set(bytes);
        return copy;
      };
      const given = { raw: own(FIO_JSON), report: own(Buffer.from(text, 'utf8')) };
      const { run } = await store.insertRun({
        ...runInput({ rawBytes: given.raw }),
        report: new JsonObjectText(given.report),
        giveBytes: true,
      });
      expect([given.raw.buffer.byteLength, given.report.buffer.byteLength]).toEqual([0, 0]);
      // The run the insert answers was described before its bytes moved.
      expect(run.rawSize).toBe(FIO_JSON.byteLength);
      expect(await store.getRunMeta(run.id)).toEqual(run);
      const kept = { raw: Buffer.from(FIO_JSON), report: Buffer.from(text, 'utf8') };
      await store.insertRun({
        ...runInput({ rawBytes: kept.raw }, { name: 'kept' }),
        report: new JsonObjectText(kept.report),
      });
      expect(kept.raw.equals(FIO_JSON)).toBe(true);
      expect(kept.report.toString('utf8')).toBe(text);
      expect((await store.getRunRaw(run.id))?.bytes.equals(FIO_JSON)).toBe(true);
      expect((await store.getRunJson(run.id))?.reportJson).toBe(text);
    } finally {
      await store.close();
    }
  });

  it('never writes a plaintext token: the database file and WAL hold only its SHA-256 (R7)', async () => {
    const path = freshPath();
    const store = await openSqliteStore({ path });
    const plaintext = `bw_${randomBytes(32).toString('base64url')}`;
    const digest = sha256(plaintext);
    const token = await store.createToken({ name: 'ci-main', tokenSha256: digest });
    expect(token.ok).toBe(true);
    await store.findActiveTokenByHash(digest);
    await store.markTokenUsed(token.ok ? token.value.id : '');
    await store.insertRun(runInput());

    const files = [path, `${path}-wal`].filter((file) => existsSync(file));
    expect(files).toContain(`${path}-wal`);
    let bytes = Buffer.concat(files.map((file) => readFileSync(file)));
    // Control: the search does see the stored token row, so a miss below is meaningful.
    expect(bytes.includes(digest)).toBe(true);
    expect(bytes.includes(plaintext)).toBe(false);
    expect(bytes.includes(plaintext.slice(3))).toBe(false);

    await store.close();
    bytes = readFileSync(path);
    expect(bytes.includes(digest)).toBe(true);
    expect(bytes.includes(plaintext.slice(3))).toBe(false);
  });

  it('SIGKILL mid-ingest loses no acknowledged run and leaves no half-written one (R1)', async () => {
    const path = freshPath();
    const child = fileURLToPath(new URL('./testing/crash-child.ts', import.meta.url));
    const serverDir = fileURLToPath(new URL('../../', import.meta.url));
    const acknowledged = new Map<string, string>();
    for (let cycle = 0; cycle < 3; cycle++) {
      const proc = spawn(process.execPath, ['--import', 'tsx', child, path], {
        cwd: serverDir,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let pending = '';
      let stderr = '';
      let lines = 0;
      proc.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        proc.on('exit', (_code, signal) => resolve(signal)),
      );
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`child produced ${lines} acks in 20 s: ${stderr}`)),
          20_000,
        );
        proc.stdout.on('data', (chunk: Buffer) => {
          pending += chunk.toString();
          const complete = pending.split('\n');
          pending = complete.pop() ?? '';
          for (const line of complete) {
            const [id, digest] = line.split(' ');
            if (id && digest) acknowledged.set(id, digest);
            lines++;
          }
          if (lines >= 25 + cycle * 10) {
            clearTimeout(timer);
            // Kill at an arbitrary point of the next insert (0–3 ms later).
            setTimeout(() => proc.kill('SIGKILL'), cycle);
            resolve();
          }
        });
        proc.on('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      expect(await exited).toBe('SIGKILL');
    }

    expect(acknowledged.size).toBeGreaterThanOrEqual(25 + 35 + 45 - 3);
    const store = await openSqliteStore({ path });
    let lost = 0;
    for (const [id, digest] of acknowledged) {
      const raw = await store.getRunRaw(id);
      if (!raw || sha256(raw.bytes) !== digest || raw.sha256 !== digest) lost++;
    }
    await store.close();
    expect(lost).toBe(0);
    expect(rawSql(path, 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    const halfWritten = rawSql(
      path,
      'SELECT count(*) AS n FROM runs LEFT JOIN run_raw ON run_raw.run_id = runs.id WHERE run_raw.run_id IS NULL',
    );
    expect(halfWritten).toEqual([{ n: 0 }]);
  });
});

describe('SQLite store: query plans (P8)', () => {
  it('every statement the store issues is index-backed: no full table scan, no sort; filters use their index', async () => {
    const path = freshPath();
    const recorder = queryRecorder();
    const store = await openSqliteStore({ path, onQuery: recorder.observe });
    await exerciseEveryQuery(store);
    const statements = [...recorder.statements.values()].filter((statement) => hasPlan(statement.sql));
    expect(statements.filter((s) => LIST_STATEMENT.test(s.sql))).toHaveLength(LIST_STATEMENT_VARIANTS);

    const db = openConnection(path);
    const evidence: string[] = [];
    const violations: string[] = [];
    for (const stage of ['a handful of rows, no statistics', '20,000 more runs, after ANALYZE']) {
      if (stage.startsWith('20,000')) {
        db.exec(bulkRunsSql(20_000));
        db.exec('ANALYZE');
      }
      evidence.push(`-- ${stage}`);
      for (const { sql, params } of statements) {
        const plan = (
          db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>
        ).map((row) => row.detail);
        const exemption = PLAN_EXEMPTIONS.find((e) => e.pattern.test(sql));
        evidence.push(`${plan.join(' | ') || '(no table access)'}${exemption ? '  [exempt]' : ''}  ⇐ ${sql}`);
        if (exemption) continue;
        for (const detail of plan) {
          const fullScan =
            /^SCAN /.test(detail) &&
            !/ USING (COVERING )?INDEX /.test(detail) &&
            detail !== 'SCAN CONSTANT ROW';
          if (fullScan || /TEMP B-TREE/.test(detail)) violations.push(`${stage}: ${detail} ⇐ ${sql}`);
        }
        // A filtered listing must seek on one of its filter columns, not walk runs_created.
        const filters = filterColumns(sql);
        const seeks = plan.some((detail) =>
          filters.some((column) =>
            new RegExp(`^SEARCH runs USING (COVERING )?INDEX \\w+ \\(${column}=\\?`).test(detail),
          ),
        );
        if (filters.length > 0 && !seeks)
          violations.push(`${stage}: no index seek on ${filters.join('/')} ⇐ ${sql}`);
      }
    }
    db.close();
    await store.close();
    if (process.env.BLOCKWISE_PRINT_PLANS) console.log(evidence.join('\n'));
    expect(violations).toEqual([]);
    expect(statements.length).toBeGreaterThan(LIST_STATEMENT_VARIANTS + 15);
  });
});
