import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './cursor.ts';
import {
  canonicalJson,
  idempotencyKeyFor,
  OFF_LOOP_SHA256_MIN_BYTES,
  sha256Hex,
  sha256HexOffLoop,
} from './idempotency.ts';
import { newId } from './ids.ts';
import { migrationChecksum, pendingMigrations, type Migration } from './migrations/migrations.ts';
import { POSTGRES_MIGRATIONS } from './migrations/postgres.ts';
import { SQLITE_MIGRATIONS } from './migrations/sqlite.ts';
import { StoreConfigError, StoreUnavailableError, isStorableText } from './run-store.ts';
import {
  MonotonicClock,
  WRITE_FAILURE_MEMORY_MS,
  WriteHealth,
  listRunsStatement,
  planListRuns,
} from './store-core.ts';

describe('page cursors', () => {
  it.each([
    [0, 'AAAAAAAAAAAAAAAAAAAAAA'],
    [1_790_000_000_000, '-_-_-_-_-_-_-_-_-_-_-_'],
    [Number.MAX_SAFE_INTEGER, newId()],
  ])('round-trips (%s, %s) through 42 opaque characters', (createdAt, id) => {
    const cursor = encodeCursor({ createdAt, id });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]{42}$/);
    expect(decodeCursor(cursor)).toEqual({ ok: true, value: { createdAt, id } });
  });

  it('refuses to encode a position that is not a run position (a bug, so it throws)', () => {
    expect(() => encodeCursor({ createdAt: -1, id: newId() })).toThrow(TypeError);
    expect(() => encodeCursor({ createdAt: 1.5, id: newId() })).toThrow(TypeError);
    expect(() => encodeCursor({ createdAt: 1, id: 'short' })).toThrow(TypeError);
  });

  it('names the query field in its problem', () => {
    expect(decodeCursor('nope', 'before')).toEqual({
      ok: false,
      error: { code: 'invalid_cursor', message: 'invalid page cursor', path: 'before' },
    });
  });
});

describe('idempotency keys', () => {
  const bytes = Buffer.from('{"fio version":"fio-3.33"}');

  it('canonical JSON sorts keys at every depth and drops undefined like JSON.stringify', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[3,{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson([undefined, Number.NaN, 'x'])).toBe('[null,null,"x"]');
    expect(canonicalJson('\u0000')).toBe('"\\u0000"');
  });

  it('depends on bytes and labels, not on label key order or undefined labels', () => {
    const key = idempotencyKeyFor(bytes, { series: 's', branch: 'main', tags: { b: '2', a: '1' } });
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(
      idempotencyKeyFor(bytes, { tags: { a: '1', b: '2' }, branch: 'main', series: 's', commit: undefined }),
    ).toBe(key);
    expect(idempotencyKeyFor(bytes, { series: 's', branch: 'dev', tags: { b: '2', a: '1' } })).not.toBe(key);
    expect(
      idempotencyKeyFor(Buffer.concat([bytes, Buffer.from(' ')]), { series: 's', branch: 'main' }),
    ).not.toBe(key);
  });

  it('is SHA-256 over a version tag, the bytes digest and the canonical labels (documented format)', () => {
    const labels = { series: 's' };
    expect(idempotencyKeyFor(bytes, labels)).toBe(
      sha256Hex(`blockwise.run.v1\n${sha256Hex(bytes)}\n${canonicalJson(labels)}`),
    );
  });
});

describe('sha256HexOffLoop: the same digest, in the thread pool from OFF_LOOP_SHA256_MIN_BYTES', () => {
  it.each([0, 1, OFF_LOOP_SHA256_MIN_BYTES - 1, OFF_LOOP_SHA256_MIN_BYTES, 1024 * 1024 + 3])(
    '%i bytes',
    async (size) => {
      const bytes = Buffer.alloc(size);
      for (let i = 0; i < size; i++) bytes[i] = (i * 31 + 7) & 0xff;
      // A view into a larger buffer: only the view's bytes are hashed.
      const whole = Buffer.concat([Buffer.from('xx'), bytes, Buffer.from('yy')]);
      const view = new Uint8Array(whole.buffer, whole.byteOffset + 2, size);
      expect(await sha256HexOffLoop(view)).toBe(createHash('sha256').update(bytes).digest('hex'));
    },
  );
});

describe('storable text', () => {
  it.each([
    ['plain', true],
    ['emoji 💾 (a surrogate pair)', true],
    ['', true],
    ['nul \u0000', false],
    ['lone high \ud800', false],
    ['lone low \udc00 first', false],
    ['reversed pair \udc00\ud800', false],
  ])('%j → %s', (text, expected) => {
    expect(isStorableText(text)).toBe(expected);
  });
});

describe('MonotonicClock', () => {
  it('never goes backwards and floors fractional milliseconds', () => {
    let wall = 1000.7;
    const clock = new MonotonicClock(() => wall);
    expect(clock.next()).toBe(1000);
    wall = 400;
    expect(clock.next()).toBe(1000);
    wall = 2000;
    expect(clock.next()).toBe(2000);
  });
});

describe('list statements', () => {
  it('bind every value as a parameter; only fixed column names are spliced in', () => {
    const plan = planListRuns({
      series: "x' OR 1=1 --",
      kind: 'nvme',
      limit: 10,
      cursor: encodeCursor({ createdAt: 5, id: 'AAAAAAAAAAAAAAAAAAAAAA' }),
    });
    if (!plan.ok) throw new Error('plan failed');
    const { sql, params } = listRunsStatement(plan.value, (n) => `$${n}`);
    expect(sql).toBe(
      'SELECT id, created_at, raw_sha256, raw_size, media_type, file_name, labels, summary, analysis_version, ' +
        'fio_version, idempotency_key FROM runs WHERE series = $1 AND kind = $2 AND (created_at, id) < ($3, $4) ' +
        'ORDER BY created_at DESC, id DESC LIMIT $5',
    );
    expect(params).toEqual(["x' OR 1=1 --", 'nvme', 5, 'AAAAAAAAAAAAAAAAAAAAAA', 11]);
  });

  it('ignores query keys that are not filters', () => {
    const plan = planListRuns({ region: 'eu-west-1', orderBy: 'id; DROP TABLE runs' } as never);
    expect(plan).toEqual({ ok: true, value: { filters: [], limit: 50, after: null } });
  });
});

describe('migrations', () => {
  const m = (version: number, name: string, sql = `-- ${name}`): Migration => ({ version, name, sql });
  const applied = (migration: Migration) => ({
    version: migration.version,
    name: migration.name,
    checksum: migrationChecksum(migration),
  });

  it('returns what is not applied yet, in version order', () => {
    const known = [m(2, 'b'), m(1, 'a'), m(3, 'c')];
    expect(pendingMigrations(known, []).map((x) => x.version)).toEqual([1, 2, 3]);
    expect(pendingMigrations(known, [applied(m(1, 'a'))]).map((x) => x.version)).toEqual([2, 3]);
    expect(pendingMigrations(known, known.map(applied))).toEqual([]);
  });

  it('refuses a database migrated by a newer build', () => {
    expect(() => pendingMigrations([m(1, 'a')], [applied(m(1, 'a')), applied(m(2, 'b'))])).toThrow(
      StoreConfigError,
    );
    expect(() => pendingMigrations([m(1, 'a')], [applied(m(2, 'b'))])).toThrow(/newer than this build/);
  });

  it('refuses an applied migration whose SQL was edited afterwards', () => {
    expect(() => pendingMigrations([m(1, 'a', 'CREATE TABLE x (y INT)')], [applied(m(1, 'a'))])).toThrow(
      /must not be edited/,
    );
  });

  it('both dialects list the same versions and names, numbered 1..n', () => {
    const outline = (list: readonly Migration[]) => list.map(({ version, name }) => ({ version, name }));
    expect(outline(SQLITE_MIGRATIONS)).toEqual(outline(POSTGRES_MIGRATIONS));
    expect(SQLITE_MIGRATIONS.map((x) => x.version)).toEqual(SQLITE_MIGRATIONS.map((_, i) => i + 1));
  });
});

describe('WriteHealth: what /healthz says about writes', () => {
  const readOnly = new StoreUnavailableError('attempt to write a readonly database', { fault: 'read_only' });
  const busy = new StoreUnavailableError('database is locked', { fault: 'busy' });

  it('a failed probe is not writable; a probe that waited on another writer says nothing against writes', () => {
    const health = new WriteHealth(() => 0);
    expect(health.report({ ok: true })).toEqual({
      writable: true,
      probe: 'ok',
      lastWriteFailure: null,
      fault: null,
    });
    expect(health.report({ ok: false, error: readOnly })).toMatchObject({
      writable: false,
      probe: 'failed',
      fault: 'read_only',
      cause: readOnly,
    });
    expect(health.report({ ok: false, error: busy })).toMatchObject({ writable: true, probe: 'unknown' });
  });

  it('a real write failure counts until a write succeeds, for at most WRITE_FAILURE_MEMORY_MS', () => {
    let now = 1_000;
    const health = new WriteHealth(() => now);
    health.observe(busy); // not a write fault: remembered as nothing
    expect(health.report({ ok: true }).writable).toBe(true);
    const full = new StoreUnavailableError('database or disk is full', { fault: 'disk_full' });
    health.observe(full);
    expect(health.report({ ok: true })).toMatchObject({
      writable: false,
      probe: 'ok',
      fault: 'disk_full',
      lastWriteFailure: { at: 1_000, fault: 'disk_full' },
    });
    now += WRITE_FAILURE_MEMORY_MS;
    expect(health.report({ ok: true }).writable).toBe(false);
    now += 1;
    expect(health.report({ ok: true })).toMatchObject({ writable: true, lastWriteFailure: null });
    health.observe(full);
    health.succeeded();
    expect(health.report({ ok: true }).writable).toBe(true);
  });
});
