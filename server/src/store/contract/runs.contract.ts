/**
 * The RunStore contract, RunRecords part — Runs: stored verbatim, read back, idempotent, listed by keyset pages and by series.
 * Run on SQLite and PostgreSQL by run-store.contract.ts.
 */
import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cursorForRun, encodeCursor } from '../cursor.ts';
import { idempotencyKeyFor, OFF_LOOP_SHA256_MIN_BYTES } from '../idempotency.ts';
import { isValidId, newId } from '../ids.ts';
import {
  FIO_JSON,
  FIO_NORMAL_JSON,
  REPORT,
  newestFirst,
  runInput,
  smallRunInput,
  unwrap,
} from '../testing/run-inputs.ts';
import {
  type ComparisonRecords,
  type InsertRunInput,
  JsonObjectText,
  LIST_LIMIT,
  type RunFilters,
  type RunMeta,
  type RunRecords,
  StoreInputError,
} from '../run-store.ts';
import { type ContractHarness, allPages, sha256, tokenDigest } from './harness.ts';

// getComparison too: a malformed id is refused alike by every id lookup, runs' and comparisons'.
export function describeRunRecordsContract(
  harness: ContractHarness<RunRecords & Pick<ComparisonRecords, 'getComparison'>>,
): void {
  const { setup, clock } = harness;

  describe('RunRecords', () => {
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

      it('getRunMeta returns the run as inserted, without its report or raw bytes', async () => {
        const { store } = await setup();
        const { run } = await store.insertRun(runInput());
        const meta = await store.getRunMeta(run.id);
        expect(meta).toEqual(run);
        expect(meta).not.toHaveProperty('report');
        expect(meta).not.toHaveProperty('reportJson');
        expect(await store.getRunMeta(newId())).toBeNull();
        expect(await store.getRunMeta('nope')).toBeNull();
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

      it('getRunJsonBytes returns getRunJson with the report as the UTF-8 bytes of its text', async () => {
        const { store } = await setup();
        const { run } = await store.insertRun(runInput());
        const [text, bytes] = await Promise.all([store.getRunJson(run.id), store.getRunJsonBytes(run.id)]);
        const { reportJson, ...rest } = bytes!;
        const { reportJson: reportText, ...textRest } = text!;
        expect(rest).toEqual(textRest);
        expect(reportJson).toBeInstanceOf(Uint8Array);
        expect(Buffer.from(reportJson).equals(Buffer.from(reportText, 'utf8'))).toBe(true);
        expect(await store.getRunJsonBytes(newId())).toBeNull();
        expect(await store.getRunJsonBytes('nope')).toBeNull();
      });

      it('takes a report as the UTF-8 bytes of its JSON (what the parse pool sends): stored as that text, the bytes left readable to the caller', async () => {
        const { store } = await setup();
        // Non-ASCII text and a NUL escape: the bytes are written as TEXT, not re-encoded.
        const text = JSON.stringify({ ...REPORT, note: 'ジョブ — ünïcode \u0000 kept' });
        const bytes = Buffer.from(text, 'utf8');
        const { run } = await store.insertRun({ ...runInput(), report: new JsonObjectText(bytes) });
        expect((await store.getRunJson(run.id))?.reportJson).toBe(text);
        expect((await store.getRun(run.id))?.report).toEqual(JSON.parse(text));
        // Not given (giveBytes): the caller's bytes are as they were.
        expect(bytes.toString('utf8')).toBe(text);
        for (const bad of [Buffer.from('[1]'), Buffer.from([0x7b, 0xff, 0x7d]), Buffer.alloc(0)]) {
          const refused = store.insertRun({ ...runInput(), report: new JsonObjectText(bad) });
          await expect(refused).rejects.toBeInstanceOf(StoreInputError);
          await expect(refused).rejects.toMatchObject({ path: 'report' });
        }
      });

      it('giveBytes: the store may take the raw bytes and the report’s, and stores them all the same', async () => {
        const { store } = await setup();
        const text = JSON.stringify({ ...REPORT, note: 'ジョブ' });
        // Memory of their own (movable), and slices of a larger buffer (Buffer's shared pool, or
        // the one Node 24 sizes for a string's worst case): not movable.
        const own = (bytes: Uint8Array) => {
          const copy = Buffer.allocUnsafeSlow(bytes.byteLength);
          copy.set(bytes);
          return copy;
        };
        const inputs = [
          { raw: own(FIO_JSON), report: own(Buffer.from(text, 'utf8')) },
          { raw: Buffer.from('{"fio version":"fio-3.33"}'), report: Buffer.from(text, 'utf8') },
        ];
        for (const { raw, report } of inputs) {
          const expectedRaw = Buffer.from(raw);
          const { run, created } = await store.insertRun({
            ...runInput({ rawBytes: raw }),
            report: new JsonObjectText(report),
            giveBytes: true,
          });
          expect(created).toBe(true);
          expect(run.rawSha256).toBe(sha256(expectedRaw));
          // What the insert answers is what a read returns, taken bytes or not (rawSize included).
          expect(run.rawSize).toBe(expectedRaw.byteLength);
          expect(await store.getRunMeta(run.id)).toEqual(run);
          expect((await store.getRunRaw(run.id))?.bytes.equals(expectedRaw)).toBe(true);
          expect((await store.getRunJson(run.id))?.reportJson).toBe(text);
        }
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
  });
}
