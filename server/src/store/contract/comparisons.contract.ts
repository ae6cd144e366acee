/**
 * The RunStore contract, ComparisonRecords part — Comparisons: frozen share links and the regression gate's pair comparisons (of stored runs, hence RunRecords).
 * Run on SQLite and PostgreSQL by run-store.contract.ts.
 */
import { describe, expect, it } from 'vitest';
import { isValidId, newId } from '../ids.ts';
import { runInput, unwrap } from '../testing/run-inputs.ts';
import { type ComparisonRecords, JsonObjectText, type RunRecords, StoreInputError } from '../run-store.ts';
import { type ContractHarness } from './harness.ts';

export function describeComparisonRecordsContract(
  harness: ContractHarness<RunRecords & ComparisonRecords>,
): void {
  const { setup, clock } = harness;

  describe('ComparisonRecords', () => {
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
  });
}
