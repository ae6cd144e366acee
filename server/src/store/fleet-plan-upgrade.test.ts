/**
 * Migration 4 (fleet plans stored compressed) on an archive written by the previous release: its
 * plans, stored as JSON text under migration 3, stay readable (through the versioned reader),
 * and new plans are stored beside them — on SQLite (whose table is rebuilt) and PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import { afterAll, describe, expect, it } from 'vitest';
import { PG_URL, probePg } from '../testing/pg-archive.ts';
import { newId } from './ids.ts';
import { migrationChecksum, type Migration } from './migrations/migrations.ts';
import { POSTGRES_MIGRATIONS } from './migrations/postgres.ts';
import { SQLITE_MIGRATIONS } from './migrations/sqlite.ts';
import { openPostgresStore } from './postgres-store.ts';
import type { RunStore } from './run-store.ts';
import { openSqliteStore } from './sqlite-store.ts';
import { fleetPlanInsert, fleetPlanOfInputs } from './testing/fleet-inputs.ts';

const plan = fleetPlanOfInputs();
const oldId = newId();
const upTo3 = (migrations: readonly Migration[]) => migrations.filter((m) => m.version <= 3);
const legacyRow = [oldId, 1_700_000_000_000, ANALYSIS_VERSION, plan.priceDate, JSON.stringify(plan)];

async function expectUpgraded(store: RunStore, versions: unknown[]) {
  expect(versions).toEqual([1, 2, 3, 4]);
  expect((await store.getFleetPlan(oldId))?.plan).toEqual(plan);
  expect((await store.getFleetPlanDocument(oldId))?.body).toEqual({ plan });
  const { plan: ref, created } = await store.insertFleetPlan(fleetPlanInsert(plan));
  expect(created).toBe(true);
  expect((await store.getFleetPlan(ref.id))?.plan).toEqual(plan);
}

describe('migration 4 on a SQLite archive of migration 3', () => {
  it('keeps the plans stored before readable and stores new ones compressed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bw-fleet-upgrade-'));
    const path = join(dir, 'blockwise.db');
    try {
      const db = new Database(path);
      db.exec(
        'CREATE TABLE schema_migrations (version INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT',
      );
      for (const m of upTo3(SQLITE_MIGRATIONS)) {
        db.exec(m.sql);
        db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?, 0)').run(
          m.version,
          m.name,
          migrationChecksum(m),
        );
      }
      db.prepare(
        'INSERT INTO fleet_plans (id, created_at, analysis_version, price_date, body) VALUES (?, ?, ?, ?, ?)',
      ).run(...legacyRow);
      db.close();

      const store = await openSqliteStore({ path });
      try {
        const check = new Database(path, { readonly: true });
        const versions = check
          .prepare('SELECT version FROM schema_migrations ORDER BY version')
          .pluck()
          .all();
        check.close();
        await expectUpgraded(store, versions);
        const writer = new Database(path);
        expect(() => writer.prepare('DELETE FROM fleet_plans WHERE id = ?').run(oldId)).toThrow(
          /append-only/,
        );
        writer.close();
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const reachable = await probePg();
describe.skipIf(!reachable.ok)('migration 4 on a PostgreSQL archive of migration 3', () => {
  const schema = `bw_test_${randomBytes(8).toString('hex')}`;
  const client = () => new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
  afterAll(async () => {
    const admin = client();
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  it('keeps the plans stored before readable and stores new ones compressed', async () => {
    const c = client();
    await c.connect();
    try {
      await c.query(`CREATE SCHEMA ${schema}`);
      await c.query(
        'CREATE TABLE schema_migrations (version integer NOT NULL PRIMARY KEY, name text NOT NULL, checksum text NOT NULL, applied_at bigint NOT NULL)',
      );
      for (const m of upTo3(POSTGRES_MIGRATIONS)) {
        await c.query(m.sql);
        await c.query('INSERT INTO schema_migrations VALUES ($1, $2, $3, 0)', [
          m.version,
          m.name,
          migrationChecksum(m),
        ]);
      }
      await c.query(
        'INSERT INTO fleet_plans (id, created_at, analysis_version, price_date, body) VALUES ($1, $2, $3, $4, $5)',
        legacyRow,
      );
    } finally {
      await c.end();
    }
    const store = await openPostgresStore({ url: PG_URL, schema });
    try {
      const c2 = client();
      await c2.connect();
      const versions = (await c2.query('SELECT version FROM schema_migrations ORDER BY version')).rows.map(
        (r: { version: number }) => r.version,
      );
      await c2.end();
      await expectUpgraded(store, versions);
    } finally {
      await store.close();
    }
  });
});
