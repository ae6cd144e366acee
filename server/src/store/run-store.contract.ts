/**
 * The RunStore contract: one suite, run against every implementation (sqlite-store.test.ts,
 * postgres-store.test.ts). A behaviour that differs between SQLite (dev, single node) and
 * PostgreSQL (replicas) is a bug in one of them, so anything observable belongs here.
 */
import { createHash, randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import { afterEach, describe, expect, it } from 'vitest';
import { cursorForRun, encodeCursor } from './cursor.ts';
import { idempotencyKeyFor, OFF_LOOP_SHA256_MIN_BYTES } from './idempotency.ts';
import { isValidId, newId } from './ids.ts';
import { POSTGRES_MIGRATIONS } from './migrations/postgres.ts';
import { StoredRecordError } from './records.ts';
import { SQLITE_MIGRATIONS } from './migrations/sqlite.ts';
import { SERIES_COUNTS_BACKFILL } from './replica-state.ts';
import {
  JsonObjectText,
  LIST_LIMIT,
  StoreInputError,
  TokenRevokedError,
  type InsertRunInput,
  type RunFilters,
  type RunMeta,
  type RunStore,
} from './run-store.ts';
import {
  FIO_JSON,
  FIO_NORMAL_JSON,
  REPORT,
  manualClock,
  newestFirst,
  runInput,
  smallRunInput,
  unwrap,
  type ManualClock,
} from './testing/run-inputs.ts';
import { fleetPlanInsert, fleetPlanOfInputs } from './testing/fleet-inputs.ts';

export interface StoreUnderTest {
  store: RunStore;
  /** Another store on the same database (file or schema): a restart, or a second replica. */
  reopen(): Promise<RunStore>;
  /** Runs one SQL statement on the same database, bypassing the store; resolves to its rows. */
  sql(text: string): Promise<Record<string, unknown>[]>;
}

export type OpenStoreUnderTest = (options: { now: () => number }) => Promise<StoreUnderTest>;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const tokenDigest = () => sha256(randomBytes(32));

/** Every page of a listing, following nextCursor. */
async function allPages(
  store: RunStore,
  query: RunFilters & { limit?: number },
): Promise<{ pages: RunMeta[][]; cursors: Array<string | null> }> {
  const pages: RunMeta[][] = [];
  const cursors: Array<string | null> = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const page = unwrap(await store.listRuns({ ...query, ...(cursor === undefined ? {} : { cursor }) }));
    pages.push(page.items);
    cursors.push(page.nextCursor);
    if (page.nextCursor === null) return { pages, cursors };
    cursor = page.nextCursor;
  }
  throw new Error('pagination did not terminate');
}

export function describeRunStoreContract(name: string, open: OpenStoreUnderTest): void {
  describe(`RunStore contract — ${name}`, () => {
    const opened: RunStore[] = [];
    let clock: ManualClock;

    async function setup(): Promise<StoreUnderTest> {
      clock = manualClock();
      const subject = await open({ now: () => clock.now() });
      opened.push(subject.store);
      return {
        ...subject,
        reopen: async () => {
          const another = await subject.reopen();
          opened.push(another);
          return another;
        },
      };
    }

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });

    describe('runs: insert and read', () => {
      it('stores a run; getRun returns it with its report and without raw bytes', async () => {
        const { store } = await setup();
        const input = runInput();
        const { run, created } = await store.insertRun(input);
        expect(created).toBe(true);
        expect(isValidId(run.id)).toBe(true);
        expect(run).toEqual({
          id: run.id,
          createdAt: clock.now(),
          rawSha256: sha256(FIO_JSON),
          rawSize: FIO_JSON.byteLength,
          mediaType: 'application/json',
          fileName: 'randrw-4k.json',
          labels: input.labels,
          summary: input.summary,
          analysisVersion: '2026.11.0',
          fioVersion: 'fio-3.33',
          idempotencyKey: idempotencyKeyFor(FIO_JSON, input.labels),
        });
        const read = await store.getRun(run.id);
        expect(read).toEqual({ ...run, report: REPORT });
        expect(read).not.toHaveProperty('rawBytes');
        expect(read).not.toHaveProperty('bytes');
      });

      it('getRunJson returns the same run with report and summary as their stored JSON text', async () => {
        const { store } = await setup();
        const { run } = await store.insertRun(runInput());
        const { summary, ...meta } = run;
        const json = await store.getRunJson(run.id);
        expect(json).not.toBeNull();
        const { summaryJson, reportJson, ...rest } = json!;
        expect(rest).toEqual(meta);
        expect(JSON.parse(summaryJson)).toEqual(summary);
        expect(JSON.parse(reportJson)).toEqual(REPORT);
        expect(reportJson).toBe(JSON.stringify(REPORT)); // byte for byte what was written
        expect(await store.getRunJson(newId())).toBeNull();
        expect(await store.getRunJson('nope')).toBeNull();
      });

      it('returns null for unknown and malformed ids without failing', async () => {
        const { store } = await setup();
        await store.insertRun(runInput());
        for (const id of [newId(), 'nope', '', "' OR '1'='1' --xxxxxxxx", 'A'.repeat(10_000)]) {
          expect(await store.getRun(id)).toBeNull();
          expect(await store.getRunRaw(id)).toBeNull();
          expect(await store.getComparison(id)).toBeNull();
        }
      });

      const bodies: Array<[string, Buffer, string]> = [
        ['a real fio json+ file', FIO_JSON, 'application/json'],
        ['fio normal+json text output', FIO_NORMAL_JSON, 'text/plain'],
        ['a gzip body', gzipSync(FIO_JSON), 'application/gzip'],
        [
          'every byte value',
          Buffer.from(Array.from({ length: 1024 }, (_, i) => i % 256)),
          'application/octet-stream',
        ],
        [
          'invalid UTF-8 (lone continuation, overlong, truncated sequence, FF FE)',
          Buffer.from([0x7b, 0x80, 0xc0, 0xaf, 0xe2, 0x82, 0xff, 0xfe, 0x00, 0x7d]),
          'application/json',
        ],
        [
          'UTF-16LE with a BOM (fio on Windows via PowerShell redirection)',
          Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"fio version" : "fio-3.36"}', 'utf16le')]),
          'application/json',
        ],
        ['NUL bytes only', Buffer.alloc(64), 'application/octet-stream'],
        ['zero bytes', Buffer.alloc(0), 'application/json'],
        ['4 MiB of random bytes', randomBytes(4 * 1024 * 1024), 'application/octet-stream'],
      ];

      it.each(bodies)('raw bytes round-trip byte-identical: %s', async (_label, bytes, mediaType) => {
        const { store } = await setup();
        const { run } = await store.insertRun(runInput({ rawBytes: bytes, mediaType }));
        const raw = await store.getRunRaw(run.id);
        expect(raw).not.toBeNull();
        expect(raw?.bytes.equals(bytes)).toBe(true);
        expect(raw?.bytes.byteLength).toBe(bytes.byteLength);
        expect(raw?.sha256).toBe(sha256(bytes));
        expect(sha256(raw?.bytes ?? Buffer.alloc(1))).toBe(run.rawSha256);
        expect(raw?.mediaType).toBe(mediaType);
        expect(raw?.fileName).toBe('randrw-4k.json');
      });

      it('a gzip body stays gzip: the stored bytes inflate to the original file', async () => {
        const { store } = await setup();
        const { run } = await store.insertRun(
          runInput({ rawBytes: gzipSync(FIO_JSON), mediaType: 'application/gzip' }),
        );
        const raw = await store.getRunRaw(run.id);
        expect(gunzipSync(raw?.bytes ?? Buffer.alloc(0)).equals(FIO_JSON)).toBe(true);
      });

      it('stores only the visible bytes of a Uint8Array view', async () => {
        const { store } = await setup();
        const backing = Buffer.concat([Buffer.from('BEFORE'), FIO_JSON, Buffer.from('AFTER')]);
        const view = new Uint8Array(backing.buffer, backing.byteOffset + 6, FIO_JSON.byteLength);
        const { run } = await store.insertRun(runInput({ rawBytes: view }));
        expect((await store.getRunRaw(run.id))?.bytes.equals(FIO_JSON)).toBe(true);
      });

      it('JSON documents come back exactly: key order, U+0000, lone surrogates, non-ASCII, numbers', async () => {
        const { store } = await setup();
        const report = {
          zeta: 1,
          alpha: {
            'job\u0000name': 'nul\u0000inside',
            lone: 'x\ud800y',
            trail: '\udfff',
            emoji: '💾 io',
            rtl: 'قرص',
          },
          numbers: [0, -1, 0.1, 1e21, 5e-324, Number.MAX_SAFE_INTEGER, -2.5e-7],
          nested: [[], {}, [null, true, false, '']],
          'key with spaces': 'fio "job options"',
        };
        const summary = { b: 2, a: 1, note: 'tab\tnewline\n\u2028' };
        const { run } = await store.insertRun(runInput({ report, summary }));
        const read = await store.getRun(run.id);
        expect(read?.report).toStrictEqual(report);
        expect(JSON.stringify(read?.report)).toBe(JSON.stringify(report));
        expect(JSON.stringify(read?.summary)).toBe(JSON.stringify(summary));
        expect(JSON.stringify(run.summary)).toBe(JSON.stringify(summary));
      });

      it('keeps null file name and fio version, and non-ASCII file names', async () => {
        const { store } = await setup();
        const a = await store.insertRun(runInput({ fileName: null, fioVersion: null }));
        const b = await store.insertRun(runInput({ fileName: 'résultats fio — 東京.json' }));
        expect((await store.getRun(a.run.id))?.fileName).toBeNull();
        expect((await store.getRun(a.run.id))?.fioVersion).toBeNull();
        expect((await store.getRunRaw(a.run.id))?.fileName).toBeNull();
        expect((await store.getRun(b.run.id))?.fileName).toBe('résultats fio — 東京.json');
      });

      it('round-trips every label field, tags included', async () => {
        const { store } = await setup();
        const labels = {
          name: 'io2 Block Express, 64k IOPS',
          kind: 'ebs' as const,
          instanceType: 'r7i.8xlarge',
          volumeType: 'io2' as const,
          volumeSizeGiB: 2048,
          volumeIops: 64000,
          volumeThroughputMiBps: 1000,
          region: 'us-east-1',
          series: 'db-primary',
          branch: 'feature/larger-volume',
          baseBranch: 'main',
          commit: '3f2a9c1d0e7b',
          tags: { team: 'storage', 'cost-center': '4711', unicode: 'é ✓ 東京' },
        };
        const { run } = await store.insertRun(runInput({ labels }));
        expect((await store.getRun(run.id))?.labels).toEqual(labels);
        expect(run.labels).toEqual(labels);
      });

      it('createdAt never goes backwards when the wall clock does', async () => {
        const { store } = await setup();
        const first = await store.insertRun(runInput());
        clock.advance(-60_000);
        const second = await store.insertRun(runInput());
        expect(second.run.createdAt).toBe(first.run.createdAt);
        clock.advance(120_000);
        const third = await store.insertRun(runInput());
        expect(third.run.createdAt).toBe(first.run.createdAt + 60_000);
      });
    });

    describe('runs: idempotency', () => {
      it('the same bytes and labels uploaded twice give the same run, not a duplicate', async () => {
        const { store } = await setup();
        const input = runInput();
        const first = await store.insertRun(input);
        clock.advance(5_000);
        const second = await store.insertRun(input);
        expect(first.created).toBe(true);
        expect(second.created).toBe(false);
        expect(second.run).toEqual(first.run);
        expect(unwrap(await store.listRuns()).items.map((run) => run.id)).toEqual([first.run.id]);
      });

      it('concurrent identical uploads store exactly one run', async () => {
        const { store } = await setup();
        const input = runInput();
        const results = await Promise.all(Array.from({ length: 12 }, () => store.insertRun(input)));
        expect(results.filter((result) => result.created)).toHaveLength(1);
        expect(new Set(results.map((result) => result.run.id)).size).toBe(1);
        expect(unwrap(await store.listRuns())).toMatchObject({
          items: [{ id: results[0]?.run.id }],
          nextCursor: null,
        });
      });

      it('a body hashed off the event loop (from OFF_LOOP_SHA256_MIN_BYTES) has the digest and key of its bytes', async () => {
        const { store } = await setup();
        const copies = Math.ceil((OFF_LOOP_SHA256_MIN_BYTES + 1) / FIO_JSON.byteLength);
        const rawBytes = Buffer.concat(Array.from({ length: copies }, () => FIO_JSON));
        const input = runInput({ rawBytes });
        const [first, second] = await Promise.all([store.insertRun(input), store.insertRun(input)]);
        expect(first.run).toMatchObject({
          rawSha256: sha256(rawBytes),
          rawSize: rawBytes.byteLength,
          idempotencyKey: idempotencyKeyFor(rawBytes, input.labels),
        });
        expect([first.created, second.created].sort()).toEqual([false, true]);
        expect(second.run.id).toBe(first.run.id);
      });

      it('concurrent identical uploads through two stores on one database store exactly one run', async () => {
        const { store, reopen } = await setup();
        const other = await reopen();
        const inputs = Array.from({ length: 5 }, () => runInput());
        const results = await Promise.all(
          inputs.flatMap((input) => [store.insertRun(input), other.insertRun(input), store.insertRun(input)]),
        );
        expect(results.filter((result) => result.created)).toHaveLength(inputs.length);
        const ids = new Set(results.map((result) => result.run.id));
        expect(ids.size).toBe(inputs.length);
        const listed = unwrap(await other.listRuns()).items.map((run) => run.id);
        expect(new Set(listed)).toEqual(ids);
        expect(listed).toHaveLength(inputs.length);
      });

      it('different labels or different bytes are different runs; label key order is not', async () => {
        const { store } = await setup();
        const base = runInput();
        const a = await store.insertRun(base);
        const otherLabels = await store.insertRun({ ...base, labels: { ...base.labels, branch: 'dev' } });
        const otherBytes = await store.insertRun({
          ...base,
          rawBytes: Buffer.concat([FIO_JSON, Buffer.from('\n')]),
        });
        const reordered = Object.fromEntries(
          Object.entries(base.labels).reverse(),
        ) as InsertRunInput['labels'];
        const sameAgain = await store.insertRun({ ...base, labels: reordered, fileName: 'renamed.json' });
        expect(otherLabels.created && otherBytes.created).toBe(true);
        expect(new Set([a.run.id, otherLabels.run.id, otherBytes.run.id]).size).toBe(3);
        expect(sameAgain).toEqual({ run: a.run, created: false });
      });

      it('honours an explicit idempotency key, and the first upload wins', async () => {
        const { store } = await setup();
        const key = tokenDigest();
        const first = await store.insertRun(runInput({ idempotencyKey: key }));
        const second = await store.insertRun(runInput({ idempotencyKey: key, rawBytes: FIO_NORMAL_JSON }));
        expect(second).toEqual({ run: first.run, created: false });
        expect((await store.getRunRaw(first.run.id))?.bytes.equals(FIO_JSON)).toBe(true);
      });
    });

    describe('runs: listing', () => {
      it('lists newest first and breaks createdAt ties by id, descending', async () => {
        const { store } = await setup();
        const runs: RunMeta[] = [];
        for (let i = 0; i < 9; i++) {
          if (i % 3 === 0) clock.advance(1_000);
          runs.push((await store.insertRun(smallRunInput())).run);
        }
        const page = unwrap(await store.listRuns());
        expect(page.items.map((run) => run.id)).toEqual(newestFirst(runs).map((run) => run.id));
        expect(page.nextCursor).toBeNull();
      });

      it('list items carry metadata and summary, never the report or the bytes', async () => {
        const { store } = await setup();
        const { run } = await store.insertRun(runInput());
        const [item] = unwrap(await store.listRuns()).items;
        expect(item).toEqual(run);
        expect(item).not.toHaveProperty('report');
        expect(item).not.toHaveProperty('rawBytes');
      });

      it('paginates through ties in createdAt without skipping or repeating a run', async () => {
        const { store } = await setup();
        const runs: RunMeta[] = [];
        for (let i = 0; i < 23; i++) {
          if (i % 4 === 0) clock.advance(7);
          runs.push((await store.insertRun(smallRunInput())).run);
        }
        const { pages, cursors } = await allPages(store, { limit: 5 });
        expect(pages.map((page) => page.length)).toEqual([5, 5, 5, 5, 3]);
        expect(cursors.at(-1)).toBeNull();
        expect(pages.flat().map((run) => run.id)).toEqual(newestFirst(runs).map((run) => run.id));
      });

      it('the last page has no cursor when the count is a multiple of the limit', async () => {
        const { store } = await setup();
        for (let i = 0; i < 10; i++) await store.insertRun(smallRunInput());
        const { pages, cursors } = await allPages(store, { limit: 5 });
        expect(pages.map((page) => page.length)).toEqual([5, 5]);
        expect(cursors).toEqual([expect.any(String), null]);
      });

      it('a cursor keeps its place when newer runs arrive between pages (keyset, not offset)', async () => {
        const { store } = await setup();
        const older: RunMeta[] = [];
        for (let i = 0; i < 6; i++) {
          clock.advance(1);
          older.push((await store.insertRun(smallRunInput())).run);
        }
        const first = unwrap(await store.listRuns({ limit: 3 }));
        for (let i = 0; i < 4; i++) {
          clock.advance(1);
          await store.insertRun(smallRunInput());
        }
        const second = unwrap(await store.listRuns({ limit: 3, cursor: first.nextCursor ?? '' }));
        const expected = newestFirst(older).map((run) => run.id);
        expect(first.items.map((run) => run.id)).toEqual(expected.slice(0, 3));
        expect(second.items.map((run) => run.id)).toEqual(expected.slice(3, 6));
        expect(second.nextCursor).toBeNull();
      });

      it(`defaults to ${LIST_LIMIT.default} items and accepts up to ${LIST_LIMIT.max}`, async () => {
        const { store } = await setup();
        for (let i = 0; i < LIST_LIMIT.max + 1; i++) await store.insertRun(smallRunInput());
        const byDefault = unwrap(await store.listRuns());
        expect(byDefault.items).toHaveLength(LIST_LIMIT.default);
        expect(byDefault.nextCursor).not.toBeNull();
        const max = unwrap(await store.listRuns({ limit: LIST_LIMIT.max }));
        expect(max.items).toHaveLength(LIST_LIMIT.max);
        const rest = unwrap(await store.listRuns({ limit: LIST_LIMIT.max, cursor: max.nextCursor ?? '' }));
        expect(rest.items).toHaveLength(1);
        expect(rest.nextCursor).toBeNull();
        const one = unwrap(await store.listRuns({ limit: 1 }));
        expect(one.items).toHaveLength(1);
      });

      it.each([0, -1, LIST_LIMIT.max + 1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '10', null])(
        'limit %j is an invalid_limit problem',
        async (limit) => {
          const { store } = await setup();
          const query = { limit: limit as number };
          expect(await store.listRuns(query)).toEqual({
            ok: false,
            error: { code: 'invalid_limit', message: expect.any(String), path: 'limit' },
          });
          expect(await store.listSeriesRuns({ series: 's', ...query })).toMatchObject({
            ok: false,
            error: { code: 'invalid_limit' },
          });
        },
      );

      const validCursor = encodeCursor({ createdAt: 1_790_000_000_000, id: 'AAAAAAAAAAAAAAAAAAAAAA' });
      const tampered = (mutate: (bytes: Buffer) => void) => {
        const bytes = Buffer.from(validCursor, 'base64url');
        mutate(bytes);
        return bytes.toString('base64url');
      };
      const badCursors: Array<[string, unknown]> = [
        ['empty', ''],
        ['a word', 'next'],
        ['punctuation', 'not a cursor!'],
        ['standard base64', validCursor.replace(/-/g, '+').replace(/_/g, '/').slice(0, 41) + '='],
        ['one character short', validCursor.slice(0, -1)],
        ['one character long', `${validCursor}A`],
        ['non-canonical last character', validCursor.slice(0, -1) + (validCursor.endsWith('B') ? 'C' : 'B')],
        ['unknown version', tampered((b) => b.writeUInt8(2, 0))],
        ['negative time', tampered((b) => b.writeBigInt64BE(-5n, 1))],
        ['time beyond 2^53', tampered((b) => b.writeBigInt64BE(2n ** 60n, 1))],
        ['id with a forbidden character', tampered((b) => b.write('.', 9, 'latin1'))],
        ['10 kB of text', 'A'.repeat(10_000)],
        ['a number', 42],
        ['an object', { createdAt: 1, id: 'x' }],
      ];
      it.each(badCursors)(
        'cursor "%s" is an invalid_cursor problem, never an exception',
        async (_label, cursor) => {
          const { store } = await setup();
          await store.insertRun(smallRunInput());
          const listed = await store.listRuns({ cursor: cursor as string });
          expect(listed).toEqual({
            ok: false,
            error: { code: 'invalid_cursor', message: expect.any(String), path: 'cursor' },
          });
          const history = await store.listSeriesRuns({ series: 'nightly-gp3', before: cursor as string });
          expect(history).toMatchObject({ ok: false, error: { code: 'invalid_cursor', path: 'before' } });
        },
      );

      it('filters by series, branch, instance type and kind, alone and combined', async () => {
        const { store } = await setup();
        const stored: RunMeta[] = [];
        const values = {
          series: ['alpha', 'beta'],
          branch: ['main', 'dev'],
          instanceType: ['m7i.large', 'i4i.xlarge'],
          kind: ['ebs', 'nvme'] as const,
        };
        for (let i = 0; i < 16; i++) {
          clock.advance(i % 3);
          const labels = {
            series: values.series[i & 1],
            branch: values.branch[(i >> 1) & 1],
            instanceType: values.instanceType[(i >> 2) & 1],
            kind: values.kind[(i >> 3) & 1],
          };
          stored.push((await store.insertRun(smallRunInput(labels))).run);
          stored.push((await store.insertRun(smallRunInput(labels))).run);
        }
        stored.push((await store.insertRun(smallRunInput())).run); // no indexed labels at all
        const names = ['series', 'branch', 'instanceType', 'kind'] as const;
        for (let mask = 0; mask < 16; mask++) {
          for (const pick of [0, 1]) {
            const filters: RunFilters = {};
            for (const [bit, key] of names.entries()) {
              if (mask & (1 << bit)) Object.assign(filters, { [key]: values[key][pick] });
            }
            const expected = newestFirst(
              stored.filter((run) =>
                Object.entries(filters).every(
                  ([key, value]) => run.labels[key as keyof RunFilters] === value,
                ),
              ),
            ).map((run) => run.id);
            const listed = (await allPages(store, { ...filters, limit: 3 })).pages
              .flat()
              .map((run) => run.id);
            expect(listed, JSON.stringify(filters)).toEqual(expected);
          }
        }
      });

      it('a filter value nobody used lists nothing', async () => {
        const { store } = await setup();
        await store.insertRun(runInput());
        expect(unwrap(await store.listRuns({ series: 'no-such-series' }))).toEqual({
          items: [],
          nextCursor: null,
        });
        expect(unwrap(await store.listRuns({ kind: 'nvme' }))).toEqual({ items: [], nextCursor: null });
      });

      it.each([
        ['kind', { kind: 'hdd' }],
        ['series', { series: '' }],
        ['series', { series: 'with\u0000nul' }],
        ['branch', { branch: 'x'.repeat(257) }],
        ['instanceType', { instanceType: 42 }],
      ])('an unusable %s filter is an invalid_filter problem', async (path, filters) => {
        const { store } = await setup();
        expect(await store.listRuns(filters as RunFilters)).toEqual({
          ok: false,
          error: { code: 'invalid_filter', message: expect.any(String), path },
        });
      });
    });

    describe('runs: series history', () => {
      it('lists a series newest first, optionally one branch, paged with before', async () => {
        const { store } = await setup();
        const runs: RunMeta[] = [];
        for (let i = 0; i < 12; i++) {
          clock.advance(i % 2);
          const labels = { series: i % 3 === 0 ? 'other' : 'db', branch: i % 2 === 0 ? 'main' : 'pr-7' };
          runs.push((await store.insertRun(smallRunInput(labels))).run);
        }
        const db = newestFirst(runs.filter((run) => run.labels.series === 'db'));
        const dbMain = db.filter((run) => run.labels.branch === 'main');
        const all = unwrap(await store.listSeriesRuns({ series: 'db', limit: 200 }));
        expect(all.items.map((run) => run.id)).toEqual(db.map((run) => run.id));
        const main = unwrap(await store.listSeriesRuns({ series: 'db', branch: 'main' }));
        expect(main.items.map((run) => run.id)).toEqual(dbMain.map((run) => run.id));

        const newest = db[0];
        if (!newest) throw new Error('no runs');
        const before = unwrap(
          await store.listSeriesRuns({ series: 'db', before: cursorForRun(newest), limit: 2 }),
        );
        expect(before.items.map((run) => run.id)).toEqual(db.slice(1, 3).map((run) => run.id));
        const next = unwrap(
          await store.listSeriesRuns({ series: 'db', before: before.nextCursor ?? '', limit: 200 }),
        );
        expect(next.items.map((run) => run.id)).toEqual(db.slice(3).map((run) => run.id));
        expect(next.nextCursor).toBeNull();
      });

      it('requires a series', async () => {
        const { store } = await setup();
        for (const query of [{}, { series: '' }, { series: 7 }]) {
          expect(await store.listSeriesRuns(query as { series: string })).toEqual({
            ok: false,
            error: { code: 'invalid_filter', message: expect.any(String), path: 'series' },
          });
        }
      });
    });

    describe('comparisons', () => {
      it('stores a comparison frozen as given and reads it back', async () => {
        const { store } = await setup();
        const a = (await store.insertRun(runInput())).run;
        const b = (await store.insertRun(runInput({}, { instanceType: 'i4i.2xlarge', kind: 'nvme' }))).run;
        clock.advance(3_000);
        const input = {
          title: 'gp3 vs instance store — 東京',
          runIds: [b.id, a.id],
          plan: { targetIops: 12000, zeta: 1, alpha: 2 },
          result: { winner: b.id, monthlyUsd: { [a.id]: 312.5, [b.id]: 0 }, note: 'nul\u0000ok' },
          priceTableDate: '2026-11-01',
          analysisVersion: '2026.11.0',
        };
        const stored = unwrap(await store.insertComparison(input));
        expect(isValidId(stored.id)).toBe(true);
        expect(stored).toEqual({ id: stored.id, createdAt: clock.now(), ...input });
        const read = await store.getComparison(stored.id);
        expect(read).toEqual(stored);
        expect(JSON.stringify(read?.plan)).toBe(JSON.stringify(input.plan));
        expect(read?.runIds).toEqual([b.id, a.id]);
      });

      it('title and plan default to null', async () => {
        const { store } = await setup();
        const a = (await store.insertRun(runInput())).run;
        const stored = unwrap(
          await store.insertComparison({
            runIds: [a.id],
            result: {},
            priceTableDate: '2026-11-01',
            analysisVersion: 'v',
          }),
        );
        expect(await store.getComparison(stored.id)).toMatchObject({ title: null, plan: null, result: {} });
      });

      it('stores a comparison of a planning session alone (typed-in numbers, no runs)', async () => {
        const { store } = await setup();
        const plan = { version: 1, observed: [{ id: 'cw' }] };
        const stored = unwrap(
          await store.insertComparison({
            runIds: [],
            plan,
            result: { plans: [] },
            priceTableDate: '2026-11-01',
            analysisVersion: 'v',
          }),
        );
        expect(await store.getComparison(stored.id)).toMatchObject({ runIds: [], plan });
      });

      it.each([
        ['an unknown run', (ids: string[]) => [ids[0], newId()], 'unknown_run', 'runIds.1'],
        ['a malformed id', (ids: string[]) => ['../etc/passwd', ids[0]], 'unknown_run', 'runIds.0'],
        ['no runs', () => [], 'invalid_run_ids', 'runIds'],
        ['the same run twice', (ids: string[]) => [ids[0], ids[1], ids[0]], 'invalid_run_ids', 'runIds.2'],
      ])('refuses %s with a problem value, storing nothing', async (_label, runIds, code, path) => {
        const { store } = await setup();
        const ids = [(await store.insertRun(runInput())).run.id, (await store.insertRun(runInput())).run.id];
        const result = await store.insertComparison({
          runIds: runIds(ids) as string[],
          result: { x: 1 },
          priceTableDate: '2026-11-01',
          analysisVersion: 'v',
        });
        expect(result).toEqual({ ok: false, error: { code, message: expect.any(String), path } });
      });
    });

    describe('fleet plans (share links of fleet right-sizing)', () => {
      it('stores a plan immutably and reads it back through FleetPlanSchema, on a reopened store too', async () => {
        const { store, reopen } = await setup();
        const plan = fleetPlanOfInputs();
        clock.advance(5_000);
        const input = fleetPlanInsert(plan);
        const { plan: ref, created } = await store.insertFleetPlan(input);
        expect(created).toBe(true);
        expect(isValidId(ref.id)).toBe(true);
        const stored = {
          id: ref.id,
          createdAt: clock.now(),
          analysisVersion: ANALYSIS_VERSION,
          priceDate: plan.priceDate,
        };
        expect(ref).toEqual(stored);
        expect(await store.getFleetPlan(ref.id)).toEqual({ ...stored, plan });
        expect(await (await reopen()).getFleetPlan(ref.id)).toEqual({ ...stored, plan });
        // Served as stored: the same gzip bytes, not inflated, with the JSON's length.
        const document = await store.getFleetPlanDocument(ref.id);
        expect(document).toMatchObject(stored);
        const body = document?.body;
        if (!body || !('gzip' in body)) return expect.fail('expected the gzip body');
        expect(Buffer.from(body.gzip).equals(Buffer.from(input.document.gzip))).toBe(true);
        expect(body.bytes).toBe(Buffer.byteLength(JSON.stringify(plan)));
        expect(JSON.parse(gunzipSync(body.gzip).toString('utf8'))).toEqual(plan);
      });

      it('the same idempotency key stores one plan: the second insert returns the first row', async () => {
        const { store, sql } = await setup();
        const first = await store.insertFleetPlan(
          fleetPlanInsert(fleetPlanOfInputs(), { key: 'a'.repeat(64) }),
        );
        clock.advance(1_000);
        const other = fleetPlanOfInputs({ headroom: 0.5 });
        const again = await store.insertFleetPlan(fleetPlanInsert(other, { key: 'a'.repeat(64) }));
        expect(again).toEqual({ plan: first.plan, created: false });
        const third = await store.insertFleetPlan(fleetPlanInsert(other, { key: 'b'.repeat(64) }));
        expect(third.created).toBe(true);
        expect(await sql('SELECT id FROM fleet_plans')).toHaveLength(2);
        expect((await store.getFleetPlan(first.plan.id))?.plan.headroom).toBe(0.25);
      });

      it('answers null for an unknown or malformed id', async () => {
        const { store } = await setup();
        expect(await store.getFleetPlan(newId())).toBeNull();
        expect(await store.getFleetPlan("x' OR '1'='1")).toBeNull();
        expect(await store.getFleetPlanDocument(newId())).toBeNull();
        expect(await store.getFleetPlanDocument("x' OR '1'='1")).toBeNull();
      });

      it('refuses a document that is not what encodeFleetPlan writes (a bug at the edge), storing nothing', async () => {
        const { store, sql } = await setup();
        const good = fleetPlanInsert();
        const bad = [
          { ...good, document: { ...good.document, gzip: gzipSync('{}') } },
          { ...good, document: { ...good.document, bytes: -1 } },
          { ...good, idempotencyKey: 'not a digest' },
        ];
        for (const input of bad) await expect(store.insertFleetPlan(input)).rejects.toThrow(StoreInputError);
        // A plan that does not fit FleetPlanSchema never becomes a document.
        const plan = { ...fleetPlanOfInputs(), headroom: 'a lot' } as never;
        expect(() => fleetPlanInsert(plan)).toThrow(StoreInputError);
        expect(await sql('SELECT id FROM fleet_plans')).toEqual([]);
      });

      it('reads a plan stored before migration 4 (JSON text in body) through the versioned reader', async () => {
        const { store, sql } = await setup();
        const id = newId();
        const plan = fleetPlanOfInputs();
        const json = JSON.stringify(plan).replaceAll("'", "''");
        await sql(
          `INSERT INTO fleet_plans (id, created_at, analysis_version, price_date, body) VALUES ('${id}', 1, '${ANALYSIS_VERSION}', '${plan.priceDate}', '${json}')`,
        );
        expect((await store.getFleetPlan(id))?.plan).toEqual(plan);
        expect((await store.getFleetPlanDocument(id))?.body).toEqual({ plan });
      });

      it('parses the stored body on read: a row that no longer fits the schema is an error naming the field', async () => {
        const { store, sql } = await setup();
        const id = newId();
        await sql(
          `INSERT INTO fleet_plans (id, created_at, analysis_version, price_date, body) VALUES ('${id}', 1, '${ANALYSIS_VERSION}', 'd', '{"region":null}')`,
        );
        await expect(store.getFleetPlan(id)).rejects.toThrow(
          new RegExp(`^fleet plan ${id}: body\\.[a-zA-Z]+: `),
        );
      });

      it('reads a plan stored by a newer analysis version as a StoredRecordError naming the version', async () => {
        const { store } = await setup();
        const {
          plan: { id },
        } = await store.insertFleetPlan(
          fleetPlanInsert(fleetPlanOfInputs(), { analysisVersion: '2999.1.1' }),
        );
        await expect(store.getFleetPlan(id)).rejects.toThrow(StoredRecordError);
        await expect(store.getFleetPlan(id)).rejects.toThrow(
          new RegExp(`^fleet plan ${id}: analysisVersion: .*"2999\\.1\\.1", newer than this build's`),
        );
      });
    });

    describe('pair comparisons (the regression gate: one per [baseline, run] and analysis version)', () => {
      const pairInput = (runIds: string[], analysisVersion = '2026.11.0', title = 'main vs pr') => ({
        title,
        runIds,
        plan: null,
        result: { runs: runIds },
        priceTableDate: '2026-11-01',
        analysisVersion,
      });

      it('is made once: a second call and a second store on the same database (a replica) get the first', async () => {
        const { store, reopen } = await setup();
        const baseline = (await store.insertRun(runInput())).run;
        const run = (await store.insertRun(runInput())).run;
        const replica = await reopen();
        const outcomes = await Promise.all(
          [store, replica, store, replica].map(async (s, i) =>
            unwrap(await s.ensurePairComparison(pairInput([baseline.id, run.id], '2026.11.0', `try ${i}`))),
          ),
        );
        expect(outcomes.filter((o) => o.created)).toHaveLength(1);
        const first = outcomes.find((o) => o.created)!.comparison;
        for (const o of outcomes) expect(o.comparison).toEqual(first);
        expect(await store.getComparison(first.id)).toEqual(first);
        expect(await replica.findPairComparisons([baseline.id, run.id])).toEqual([
          { id: first.id, createdAt: first.createdAt, analysisVersion: '2026.11.0' },
        ]);
        const again = unwrap(await replica.ensurePairComparison(pairInput([baseline.id, run.id])));
        expect(again).toEqual({ comparison: first, created: false });
      });

      it('another analysis version is another comparison; lookups are by ordered pair, newest first', async () => {
        const { store } = await setup();
        const a = (await store.insertRun(runInput())).run;
        const b = (await store.insertRun(runInput())).run;
        const old = unwrap(await store.ensurePairComparison(pairInput([a.id, b.id], '2026.11.0'))).comparison;
        clock.advance(1000);
        const next = unwrap(
          await store.ensurePairComparison(pairInput([a.id, b.id], '2026.12.0')),
        ).comparison;
        expect(next.id).not.toBe(old.id);
        expect((await store.findPairComparisons([a.id, b.id])).map((r) => r.analysisVersion)).toEqual([
          '2026.12.0',
          '2026.11.0',
        ]);
        expect(await store.findPairComparisons([b.id, a.id])).toEqual([]);
        expect(await store.findPairComparisons([a.id, 'not an id'])).toEqual([]);
        // An ordinary comparison of the same runs is not a pair comparison.
        unwrap(await store.insertComparison(pairInput([a.id, b.id])));
        expect(await store.findPairComparisons([a.id, b.id])).toHaveLength(2);
      });

      it('takes the result as JSON text already written (the parse pool serializes large ones)', async () => {
        const { store } = await setup();
        const a = (await store.insertRun(runInput())).run;
        const b = (await store.insertRun(runInput())).run;
        const json = '{"runs":[1,2],"nested":{"x":"\\u0000 kept"}}';
        const { comparison } = unwrap(
          await store.ensurePairComparison({ ...pairInput([a.id, b.id]), result: new JsonObjectText(json) }),
        );
        expect(comparison.result).toEqual(JSON.parse(json));
        expect((await store.getComparison(comparison.id))?.result).toEqual(JSON.parse(json));
        const plain = unwrap(
          await store.insertComparison({ ...pairInput([a.id, b.id]), result: new JsonObjectText(json) }),
        );
        expect((await store.getComparison(plain.id))?.result).toEqual(JSON.parse(json));
        await expect(
          store.insertComparison({ ...pairInput([a.id, b.id]), result: new JsonObjectText('[1]') }),
        ).rejects.toBeInstanceOf(StoreInputError);
      });

      it('refuses an unknown run with a problem value, and anything but two distinct runs as a bug', async () => {
        const { store } = await setup();
        const a = (await store.insertRun(runInput())).run;
        expect(await store.ensurePairComparison(pairInput([a.id, newId()]))).toEqual({
          ok: false,
          error: { code: 'unknown_run', message: expect.any(String), path: 'runIds.1' },
        });
        for (const runIds of [[a.id], [a.id, a.id], [a.id, newId(), newId()], ['x', a.id]])
          await expect(store.ensurePairComparison(pairInput(runIds))).rejects.toBeInstanceOf(StoreInputError);
      });
    });

    describe('series listing (counts kept by insertRun)', () => {
      it('lists each series once with its run and branch counts and latest run, most recently active first', async () => {
        const { store } = await setup();
        const uploads: Array<[string, string | undefined]> = [
          ['db', 'main'],
          ['web', 'main'],
          ['db', 'pr-1'],
          ['db', 'main'],
          ['logs', undefined],
          ['web', 'main'],
        ];
        const runs: RunMeta[] = [];
        for (const [series, branch] of uploads) {
          clock.advance(1000);
          runs.push((await store.insertRun(smallRunInput(branch ? { series, branch } : { series }))).run);
        }
        await store.insertRun(smallRunInput({ branch: 'main' })); // no series: not listed
        clock.advance(1000);
        const input = smallRunInput({ series: 'db', branch: 'main' });
        const again = (await store.insertRun(input)).run;
        clock.advance(1000);
        // An identical upload is the same run: counted once.
        expect((await store.insertRun(input)).created).toBe(false);
        const page = unwrap(await store.listSeries());
        expect(page.items.map((s) => [s.series, s.runCount, s.branchCount, s.latestRun.id])).toEqual([
          ['db', 4, 2, again.id],
          ['web', 2, 1, runs[5]!.id],
          ['logs', 1, 0, runs[4]!.id],
        ]);
        expect(page.items[1]!.latestRun).toEqual(runs[5]);
        expect(page.nextCursor).toBeNull();
      });

      it('pages with a cursor; bad limits and cursors are problems', async () => {
        const { store } = await setup();
        for (let i = 0; i < 5; i++) {
          clock.advance(i % 2);
          await store.insertRun(smallRunInput({ series: `s${i}`, branch: 'main' }));
        }
        const all = unwrap(await store.listSeries({ limit: 200 })).items;
        expect(all.map((s) => s.latestRun)).toEqual(newestFirst(all.map((s) => s.latestRun)));
        const first = unwrap(await store.listSeries({ limit: 2 }));
        const second = unwrap(await store.listSeries({ limit: 2, cursor: first.nextCursor! }));
        const third = unwrap(await store.listSeries({ limit: 2, cursor: second.nextCursor! }));
        expect([...first.items, ...second.items, ...third.items]).toEqual(all);
        expect(all).toHaveLength(5);
        expect(third.nextCursor).toBeNull();
        expect(await store.listSeries({ limit: 0 })).toMatchObject({
          ok: false,
          error: { code: 'invalid_limit' },
        });
        expect(await store.listSeries({ cursor: 'nope' })).toMatchObject({
          ok: false,
          error: { code: 'invalid_cursor', path: 'cursor' },
        });
      });

      it('counts the runs stored before the migration that introduced the counts', async () => {
        const { store, sql, reopen } = await setup();
        const a = (await store.insertRun(smallRunInput({ series: 'old', branch: 'main' }))).run;
        clock.advance(5);
        const b = (await store.insertRun(smallRunInput({ series: 'old', branch: 'pr' }))).run;
        // Forget the counts and re-run the backfill the way migration 2 ran it on an old archive.
        await sql('DELETE FROM series_stats');
        await sql('DELETE FROM series_branches');
        for (const statement of SERIES_COUNTS_BACKFILL.split(';').filter((text) => text.trim()))
          await sql(statement);
        const reopened = await reopen();
        const [old] = unwrap(await reopened.listSeries()).items;
        expect([old?.series, old?.runCount, old?.branchCount, old?.latestRun.id]).toEqual([
          'old',
          2,
          2,
          b.id,
        ]);
        expect(a.id).not.toBe(b.id);
        for (const migrations of [SQLITE_MIGRATIONS, POSTGRES_MIGRATIONS])
          expect(migrations.find((m) => m.version === 2)?.sql).toContain(SERIES_COUNTS_BACKFILL);
      });
    });

    describe('rate-limit counters', () => {
      it('add up within a window, start over after it, and are separate per key', async () => {
        const { store } = await setup();
        expect(await store.hitRateLimit('uploads:ip:1', 1, 60_000)).toEqual({ count: 1, resetInMs: 60_000 });
        clock.advance(10_000);
        expect(await store.hitRateLimit('uploads:ip:1', 5, 60_000)).toEqual({ count: 6, resetInMs: 50_000 });
        expect(await store.hitRateLimit('uploads:ip:1', 0, 60_000)).toEqual({ count: 6, resetInMs: 50_000 });
        expect(await store.hitRateLimit('uploads:ip:2', 0, 60_000)).toEqual({ count: 0, resetInMs: 60_000 });
        expect(await store.hitRateLimit('uploads:ip:2', 2, 60_000)).toMatchObject({ count: 2 });
        clock.advance(50_000);
        expect(await store.hitRateLimit('uploads:ip:1', 0, 60_000)).toEqual({ count: 0, resetInMs: 60_000 });
        expect(await store.hitRateLimit('uploads:ip:1', 1, 60_000)).toEqual({ count: 1, resetInMs: 60_000 });
      });

      it('refuse keys and amounts no backend can hold', async () => {
        const { store } = await setup();
        for (const [key, amount, windowMs] of [
          ['', 1, 1000],
          ['k'.repeat(513), 1, 1000],
          ['nul\u0000', 1, 1000],
          ['k', -1, 1000],
          ['k', 1.5, 1000],
          ['k', 1, 0],
        ] as const)
          await expect(store.hitRateLimit(key, amount, windowMs)).rejects.toBeInstanceOf(StoreInputError);
      });
    });

    describe('immutability', () => {
      it('offers no way to change or delete a run or a comparison', async () => {
        const { store } = await setup();
        const methods = new Set<string>();
        for (
          let proto: object | null = store;
          proto && proto !== Object.prototype;
          proto = Object.getPrototypeOf(proto)
        ) {
          for (const key of Object.getOwnPropertyNames(proto)) {
            if (
              key !== 'constructor' &&
              typeof (store as unknown as Record<string, unknown>)[key] === 'function'
            ) {
              methods.add(key);
            }
          }
        }
        const writes = [...methods].filter((method) =>
          /^(insert|ensure|create|put|update|set|save|upsert|patch|replace|delete|remove|drop|truncate|clear|purge|revoke|mark)/i.test(
            method,
          ),
        );
        expect(writes.sort()).toEqual([
          'createToken',
          'ensurePairComparison',
          'insertComparison',
          'insertFleetPlan',
          'insertRun',
          'markTokenUsed',
          'putSeriesSettings',
          'revokeToken',
        ]);
      });

      it('the database itself refuses UPDATE and DELETE of runs, raw bytes, comparisons and fleet plans', async () => {
        const { store, sql } = await setup();
        const { run } = await store.insertRun(runInput());
        const comparison = unwrap(
          await store.insertComparison({
            runIds: [run.id],
            result: { a: 1 },
            priceTableDate: 'd',
            analysisVersion: 'v',
          }),
        );
        const { plan: fleetPlanRef } = await store.insertFleetPlan(fleetPlanInsert());
        const fleetPlan = await store.getFleetPlan(fleetPlanRef.id);
        if (!fleetPlan) return expect.fail('the fleet plan was not stored');
        const attempts = [
          `UPDATE runs SET file_name = 'evil.json' WHERE id = '${run.id}'`,
          `UPDATE runs SET summary = '{}' WHERE id = '${run.id}'`,
          `DELETE FROM runs WHERE id = '${run.id}'`,
          `UPDATE run_raw SET bytes = run_raw.bytes WHERE run_id = '${run.id}'`,
          `DELETE FROM run_raw WHERE run_id = '${run.id}'`,
          `UPDATE comparisons SET title = 'rewritten' WHERE id = '${comparison.id}'`,
          `DELETE FROM comparisons WHERE id = '${comparison.id}'`,
          `UPDATE fleet_plans SET price_date = 'rewritten' WHERE id = '${fleetPlan.id}'`,
          `DELETE FROM fleet_plans WHERE id = '${fleetPlan.id}'`,
        ];
        for (const statement of attempts) {
          await expect(sql(statement), statement).rejects.toThrow(/append-only/);
        }
        expect(await store.getRun(run.id)).toEqual({ ...run, report: REPORT });
        expect((await store.getRunRaw(run.id))?.bytes.equals(FIO_JSON)).toBe(true);
        expect(await store.getComparison(comparison.id)).toEqual(comparison);
        expect(await store.getFleetPlan(fleetPlan.id)).toEqual(fleetPlan);
      });
    });

    describe('tokens', () => {
      it('registers a token by digest; lookups and lists never expose the digest', async () => {
        const { store } = await setup();
        expect(await store.countActiveTokens()).toBe(0);
        const digest = tokenDigest();
        const created = unwrap(await store.createToken({ name: 'ci-main', tokenSha256: digest }));
        expect(created).toEqual({
          id: created.id,
          name: 'ci-main',
          createdAt: clock.now(),
          revokedAt: null,
          lastUsedAt: null,
        });
        expect(isValidId(created.id)).toBe(true);
        expect(await store.countActiveTokens()).toBe(1);
        expect(await store.findActiveTokenByHash(digest)).toEqual({ ...created, tokenSha256: digest });
        const list = await store.listTokens();
        expect(list).toEqual([created]);
        expect(JSON.stringify(list)).not.toContain(digest);
        expect(await store.findActiveTokenByHash(tokenDigest())).toBeNull();
        expect(await store.findActiveTokenByHash('not-a-digest')).toBeNull();
        expect(await store.findActiveTokenByHash(digest.toUpperCase())).toBeNull();
      });

      it('refuses a second active token with the same name or the same digest', async () => {
        const { store } = await setup();
        const digest = tokenDigest();
        unwrap(await store.createToken({ name: 'ci', tokenSha256: digest }));
        expect(await store.createToken({ name: 'ci', tokenSha256: tokenDigest() })).toEqual({
          ok: false,
          error: { code: 'token_name_taken', message: expect.any(String), path: 'name' },
        });
        expect(await store.createToken({ name: 'ci-2', tokenSha256: digest })).toEqual({
          ok: false,
          error: { code: 'token_hash_taken', message: expect.any(String), path: 'tokenSha256' },
        });
        expect(await store.countActiveTokens()).toBe(1);
      });

      it('revokes by id or by name; a revoked token no longer authenticates and its name is free', async () => {
        const { store } = await setup();
        const first = tokenDigest();
        const token = unwrap(await store.createToken({ name: 'ci', tokenSha256: first }));
        clock.advance(1_000);
        expect(unwrap(await store.revokeToken({ id: token.id }))).toEqual({
          ...token,
          revokedAt: clock.now(),
        });
        expect(await store.findActiveTokenByHash(first)).toBeNull();
        expect(await store.countActiveTokens()).toBe(0);
        expect(await store.revokeToken({ id: token.id })).toMatchObject({
          ok: false,
          error: { code: 'token_not_found' },
        });

        const second = tokenDigest();
        const again = unwrap(await store.createToken({ name: 'ci', tokenSha256: second }));
        expect(await store.countActiveTokens()).toBe(1);
        expect(unwrap(await store.revokeToken({ name: 'ci' })).id).toBe(again.id);
        expect(await store.findActiveTokenByHash(second)).toBeNull();
        expect((await store.listTokens()).map((t) => [t.id, t.revokedAt !== null])).toEqual([
          [token.id, true],
          [again.id, true],
        ]);
        // A revoked digest cannot be registered again: that token is burnt.
        expect(await store.createToken({ name: 'ci', tokenSha256: first })).toMatchObject({
          ok: false,
          error: { code: 'token_hash_taken' },
        });
      });

      it('an upload’s token is re-checked at commit: revoked meanwhile (from another connection), nothing is stored', async () => {
        const { store, reopen } = await setup();
        const token = unwrap(await store.createToken({ name: 'ci', tokenSha256: tokenDigest() }));
        const before = await store.insertRun({ ...smallRunInput({ series: 'db' }), tokenId: token.id });
        expect(before.created).toBe(true);
        // `blockwise token revoke` runs in another process, on its own connection.
        const cli = await reopen();
        unwrap(await cli.revokeToken({ name: 'ci' }));
        const input = { ...smallRunInput({ series: 'db' }), tokenId: token.id };
        await expect(store.insertRun(input)).rejects.toBeInstanceOf(TokenRevokedError);
        // Also an identical retry of an upload stored earlier: the token no longer writes.
        await expect(
          store.insertRun({ ...input, idempotencyKey: before.run.idempotencyKey }),
        ).rejects.toBeInstanceOf(TokenRevokedError);
        const page = unwrap(await store.listRuns({ limit: 10 }));
        expect(page.items.map((r) => r.id)).toEqual([before.run.id]);
        expect(unwrap(await store.listSeries()).items).toMatchObject([{ series: 'db', runCount: 1 }]);
        // An unknown token id is no better; no token at all is an anonymous write.
        await expect(store.insertRun({ ...smallRunInput(), tokenId: newId() })).rejects.toBeInstanceOf(
          TokenRevokedError,
        );
        expect((await store.insertRun({ ...input, tokenId: null })).created).toBe(true);
      });

      it('a fleet plan’s token is re-checked at commit: revoked meanwhile (from another connection), nothing is stored', async () => {
        const { store, reopen, sql } = await setup();
        const token = unwrap(await store.createToken({ name: 'ci', tokenSha256: tokenDigest() }));
        const before = await store.insertFleetPlan({ ...fleetPlanInsert(), tokenId: token.id });
        expect(before.created).toBe(true);
        // `blockwise token revoke` runs in another process while the next plan is computed.
        const cli = await reopen();
        unwrap(await cli.revokeToken({ name: 'ci' }));
        const other = fleetPlanInsert(fleetPlanOfInputs({ headroom: 0.5 }));
        await expect(store.insertFleetPlan({ ...other, tokenId: token.id })).rejects.toBeInstanceOf(
          TokenRevokedError,
        );
        // Also an identical retry of a plan stored earlier: the token no longer writes.
        await expect(
          store.insertFleetPlan({ ...fleetPlanInsert(), tokenId: token.id }),
        ).rejects.toBeInstanceOf(TokenRevokedError);
        expect(await sql('SELECT id FROM fleet_plans')).toEqual([{ id: before.plan.id }]);
        // An unknown token id is no better; no token at all is an anonymous write.
        await expect(store.insertFleetPlan({ ...other, tokenId: newId() })).rejects.toBeInstanceOf(
          TokenRevokedError,
        );
        expect((await store.insertFleetPlan({ ...other, tokenId: null })).created).toBe(true);
        expect(await sql('SELECT id FROM fleet_plans')).toHaveLength(2);
      });

      it('has held a token from the first registration on, also after every token is revoked', async () => {
        const { store } = await setup();
        expect(await store.hasHeldToken()).toBe(false);
        unwrap(await store.createToken({ name: 'ci', tokenSha256: tokenDigest() }));
        expect(await store.hasHeldToken()).toBe(true);
        unwrap(await store.revokeToken({ name: 'ci' }));
        expect(await store.countActiveTokens()).toBe(0);
        expect(await store.hasHeldToken()).toBe(true);
      });

      it.each([[{ id: newId() }], [{ id: 'malformed' }], [{ name: 'nobody' }], [{ name: '' }]])(
        'revoking %j is token_not_found',
        async (ref) => {
          const { store } = await setup();
          expect(await store.revokeToken(ref)).toMatchObject({
            ok: false,
            error: { code: 'token_not_found' },
          });
        },
      );

      it('records last use at most once a minute', async () => {
        const { store } = await setup();
        const digest = tokenDigest();
        const token = unwrap(await store.createToken({ name: 'ci', tokenSha256: digest }));
        const start = clock.now();
        await store.markTokenUsed(token.id);
        expect((await store.findActiveTokenByHash(digest))?.lastUsedAt).toBe(start);
        clock.advance(59_999);
        await store.markTokenUsed(token.id);
        expect((await store.findActiveTokenByHash(digest))?.lastUsedAt).toBe(start);
        clock.advance(1);
        await store.markTokenUsed(token.id);
        expect((await store.findActiveTokenByHash(digest))?.lastUsedAt).toBe(start + 60_000);
        await expect(store.markTokenUsed('malformed')).resolves.toBeUndefined();
      });

      it('accepts only a lowercase hex SHA-256, never something that looks like a plaintext token', async () => {
        const { store } = await setup();
        for (const tokenSha256 of [
          `bw_${randomBytes(32).toString('base64url')}`,
          'abc',
          tokenDigest().toUpperCase(),
        ]) {
          await expect(store.createToken({ name: 'ci', tokenSha256 })).rejects.toBeInstanceOf(
            StoreInputError,
          );
        }
        expect(await store.listTokens()).toEqual([]);
      });
    });

    describe('series settings', () => {
      it('gets null until put; put replaces the config and bumps updatedAt', async () => {
        const { store } = await setup();
        expect(await store.getSeriesSettings('db')).toBeNull();
        const config = { maxIopsDropPct: 10, baseline: { branch: 'main', runs: 5 }, alpha: true };
        const first = await store.putSeriesSettings('db', config);
        expect(first).toEqual({ series: 'db', config, updatedAt: clock.now() });
        expect(await store.getSeriesSettings('db')).toEqual(first);
        expect(JSON.stringify((await store.getSeriesSettings('db'))?.config)).toBe(JSON.stringify(config));
        clock.advance(10_000);
        const second = await store.putSeriesSettings('db', { maxIopsDropPct: 5 });
        expect(second).toEqual({ series: 'db', config: { maxIopsDropPct: 5 }, updatedAt: clock.now() });
        expect(await store.getSeriesSettings('db')).toEqual(second);
        expect(await store.getSeriesSettings('other')).toBeNull();
      });

      it('refuses unusable series names and non-object configs', async () => {
        const { store } = await setup();
        await expect(store.putSeriesSettings('', {})).rejects.toBeInstanceOf(StoreInputError);
        await expect(store.putSeriesSettings('a\u0000b', {})).rejects.toBeInstanceOf(StoreInputError);
        await expect(store.putSeriesSettings('db', [] as unknown as object)).rejects.toBeInstanceOf(
          StoreInputError,
        );
        expect(await store.getSeriesSettings('')).toBeNull();
        expect(await store.getSeriesSettings('a\u0000b')).toBeNull();
      });
    });

    describe('input no backend can hold is refused identically', () => {
      const cases: Array<[string, () => InsertRunInput, string]> = [
        ['NUL in an indexed label', () => runInput({}, { series: 'a\u0000b' }), 'labels.series'],
        ['a lone surrogate in a tag', () => runInput({}, { tags: { team: 'x\ud800' } }), 'labels.tags.team'],
        ['an unknown label', () => runInput({}, { colour: 'blue' } as never), 'labels'],
        ['a kind that is neither nvme nor ebs', () => runInput({}, { kind: 'hdd' } as never), 'labels.kind'],
        ['a 257-character branch', () => runInput({}, { branch: 'b'.repeat(257) }), 'labels.branch'],
        [
          'a __proto__ tag',
          () => runInput({}, { tags: JSON.parse('{"__proto__":"x"}') as Record<string, string> }),
          'labels.tags',
        ],
        ['NUL in the file name', () => runInput({ fileName: 'a\u0000.json' }), 'fileName'],
        ['an empty media type', () => runInput({ mediaType: '' }), 'mediaType'],
        ['a report that is an array', () => runInput({ report: [] }), 'report'],
        ['a summary with a BigInt', () => runInput({ summary: { n: 1n } }), 'summary'],
        ['a malformed idempotency key', () => runInput({ idempotencyKey: 'abc' }), 'idempotencyKey'],
        [
          'raw bytes that are a string',
          () => runInput({ rawBytes: 'text' as unknown as Uint8Array }),
          'rawBytes',
        ],
      ];
      it.each(cases)('%s → StoreInputError, nothing stored', async (_label, input, path) => {
        const { store } = await setup();
        const rejection = await store.insertRun(input()).then(
          () => null,
          (error: unknown) => error,
        );
        expect(rejection).toBeInstanceOf(StoreInputError);
        expect((rejection as StoreInputError).path?.startsWith(path)).toBe(true);
        expect(unwrap(await store.listRuns()).items).toEqual([]);
      });
    });

    describe('lifecycle', () => {
      it('answers ping', async () => {
        const { store } = await setup();
        await expect(store.ping()).resolves.toBeUndefined();
      });

      it('migrations are idempotent: reopening finds the schema and the data', async () => {
        const { store, reopen, sql } = await setup();
        const { run } = await store.insertRun(runInput());
        const second = await reopen();
        const third = await reopen();
        expect(await third.getRun(run.id)).toEqual({ ...run, report: REPORT });
        expect((await second.getRunRaw(run.id))?.bytes.equals(FIO_JSON)).toBe(true);
        const migrations = await sql('SELECT version, name FROM schema_migrations ORDER BY version');
        expect(migrations.map((row) => [Number(row.version), row.name])).toEqual([
          [1, 'archive'],
          [2, 'replica-safe state'],
          [3, 'fleet plans'],
          [4, 'fleet plans stored compressed'],
        ]);
      });

      it('close is idempotent, and a closed store rejects instead of hanging', async () => {
        const { store } = await setup();
        await store.close();
        await store.close();
        await expect(store.ping()).rejects.toThrow();
        await expect(store.getRun(newId())).rejects.toThrow();
      });
    });
  });
}
