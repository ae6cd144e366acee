/**
 * The RunStore contract, StoreHealth part — The whole store: no method changes a run or a comparison (and the database refuses it), health, migrations, close.
 * Run on SQLite and PostgreSQL by run-store.contract.ts.
 */
import { describe, expect, it } from 'vitest';
import { newId } from '../ids.ts';
import { fleetPlanInsert } from '../testing/fleet-inputs.ts';
import { FIO_JSON, REPORT, runInput, unwrap } from '../testing/run-inputs.ts';
import type { RunStore } from '../run-store.ts';
import { type ContractHarness } from './harness.ts';

export function describeStoreHealthContract(harness: ContractHarness<RunStore>): void {
  const { setup } = harness;

  describe('StoreHealth', () => {
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
