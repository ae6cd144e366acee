import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgresStore, type PostgresRunStore } from '../store/postgres-store.ts';

/** The test PostgreSQL server (trust auth, database `test`), as the store tests use it. */
export const PG_URL = process.env.BLOCKWISE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Whether the test server answers a query, and why not when it does not. */
export async function probePg(): Promise<{ ok: true } | { ok: false; reason: string }> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: (error as Error).message || String(error) };
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * PG_URL on `schema` with every transaction read-only (`default_transaction_read_only`), as on a
 * standby; the schema must be migrated already, since the store then opens without DDL.
 */
export function readOnlyPgUrl(schema: string): string {
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${schema} -c default_transaction_read_only=on`);
  return url.toString();
}

export interface PgArchive {
  schema: string;
  /** Another store on this schema: one replica. */
  open(): Promise<PostgresRunStore>;
  /** One statement in the schema, outside any store. */
  sql(text: string): Promise<Record<string, unknown>[]>;
  /** Drops the schema and closes the admin connection. */
  drop(): Promise<void>;
}

/**
 * A fresh schema on the test server, for tests that run several app replicas on one archive. Null
 * when no server is reachable — unless BLOCKWISE_REQUIRE_PG=1 (CI), where that fails the test.
 */
export async function pgArchive(): Promise<PgArchive | null> {
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  admin.on('error', () => {});
  try {
    await admin.connect();
  } catch (error) {
    await admin.end().catch(() => {});
    if (process.env.BLOCKWISE_REQUIRE_PG === '1') throw error;
    return null;
  }
  const schema = `bw_test_${randomBytes(8).toString('hex')}`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  return {
    schema,
    open: () => openPostgresStore({ url: PG_URL, schema, poolMax: 4 }),
    sql: async (text) => {
      await admin.query(`SET search_path = ${schema}`);
      return (await admin.query<Record<string, unknown>>(text)).rows;
    },
    drop: async () => {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  };
}
