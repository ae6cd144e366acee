/**
 * The RunStore contract, FleetPlanRecords part — Fleet plans: the gzip document stored once per idempotency key, read back through the versioned reader.
 * Run on SQLite and PostgreSQL by run-store.contract.ts.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import { describe, expect, it } from 'vitest';
import { isValidId, newId } from '../ids.ts';
import { StoredRecordError } from '../records.ts';
import { fleetPlanInsert, fleetPlanOfInputs } from '../testing/fleet-inputs.ts';
import { type FleetPlanRecords, StoreInputError } from '../run-store.ts';
import { type ContractHarness } from './harness.ts';

export function describeFleetPlanRecordsContract(harness: ContractHarness<FleetPlanRecords>): void {
  const { setup, clock } = harness;

  describe('FleetPlanRecords', () => {
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
  });
}
