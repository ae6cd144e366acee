/**
 * The RunStore contract, SeriesRecords part — Series: the counts insertRun keeps (hence RunRecords) and the per-series CI settings.
 * Run on SQLite and PostgreSQL by run-store.contract.ts.
 */
import { describe, expect, it } from 'vitest';
import { POSTGRES_MIGRATIONS } from '../migrations/postgres.ts';
import { SQLITE_MIGRATIONS } from '../migrations/sqlite.ts';
import { SERIES_COUNTS_BACKFILL } from '../replica-state.ts';
import { newestFirst, smallRunInput, unwrap } from '../testing/run-inputs.ts';
import { type RunMeta, type RunRecords, type SeriesRecords, StoreInputError } from '../run-store.ts';
import { type ContractHarness } from './harness.ts';

export function describeSeriesRecordsContract(harness: ContractHarness<SeriesRecords & RunRecords>): void {
  const { setup, clock } = harness;

  describe('SeriesRecords', () => {
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
  });
}
