/**
 * The PostgreSQL store against a real server. Each store under test gets its own freshly
 * created schema (bw_test_<random>, via search_path on the pool's connections), dropped after
 * the file, so parallel runs and other databases' users never collide.
 *
 * BLOCKWISE_TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/test) names the server. When
 * it cannot be reached the suite is skipped with the reason — unless BLOCKWISE_REQUIRE_PG=1
 * (CI), where an unreachable server fails the suite.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PG_URL, probePg, readOnlyPgUrl } from '../testing/pg-archive.ts';
import { openStore } from './open-store.ts';
import { faultOf, isUnavailable, openPostgresStore } from './postgres-store.ts';
import { StoreConfigError, StoreUnavailableError } from './run-store.ts';
import { describeRunStoreContract } from './run-store.contract.ts';
import { openSqliteStore } from './sqlite-store.ts';
import { runInput } from './testing/run-inputs.ts';
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

const REQUIRE_PG = process.env.BLOCKWISE_REQUIRE_PG === '1';
/** The URL without its password, for messages. */
const shownUrl = PG_URL.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');

// Store classification does not need a server.
describe('PostgreSQL store: failure classification', () => {
  it.each([
    [{ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' }, 'unreachable'],
    [{ code: 'ECONNRESET', message: 'read ECONNRESET' }, 'unreachable'],
    [{ code: '57P01', message: 'terminating connection due to administrator command' }, 'unreachable'],
    [{ code: '57P03', message: 'the database system is starting up' }, 'unreachable'],
    [{ code: '57P04', message: 'database dropped' }, 'unreachable'],
    [{ code: '3D000', message: 'database "nope" does not exist' }, 'unreachable'],
    [{ code: '28P01', message: 'password authentication failed for user "bw"' }, 'unreachable'],
    [{ code: '57014', message: 'canceling statement due to statement timeout' }, 'busy'],
    [{ code: '55P03', message: 'canceling statement due to lock timeout' }, 'busy'],
    [{ code: '08006', message: 'connection failure' }, 'unreachable'],
    [{ code: '53300', message: 'too many connections' }, 'busy'],
    [{ code: '53100', message: 'could not extend file: No space left on device' }, 'disk_full'],
    [{ code: '25006', message: 'cannot execute INSERT in a read-only transaction' }, 'read_only'],
    [{ code: '58030', message: 'could not write to file: Input/output error' }, 'io_error'],
    [{ code: '40P01', message: 'deadlock detected' }, 'busy'],
    [new Error('Connection terminated unexpectedly'), 'unreachable'],
    [new Error('timeout exceeded when trying to connect'), 'unreachable'],
    // A store closed under a running server (shutting down): a 503, not a 500.
    [new Error('Cannot use a pool after calling end on the pool'), 'closed'],
    [{ code: '23505', message: 'duplicate key value violates unique constraint' }, null],
    [{ code: '42P01', message: 'relation "runs" does not exist' }, null],
    [{ code: '22P05', message: 'unsupported Unicode escape sequence' }, null],
    [{ code: '25P02', message: 'current transaction is aborted' }, null],
    [new TypeError('x is not a function'), null],
    ['a string', null],
  ])('%j → fault %s', (error, expected) => {
    expect(faultOf(error)).toBe(expected);
    expect(isUnavailable(error)).toBe(expected !== null);
  });

  it('refuses a schema name that is not a plain identifier, and a schema given twice', async () => {
    await expect(
      openPostgresStore({ url: PG_URL, schema: 'public; DROP TABLE runs' }),
    ).rejects.toBeInstanceOf(StoreConfigError);
    await expect(
      openPostgresStore({ url: `${PG_URL}?options=-c%20search_path%3Dx`, schema: 'y' }),
    ).rejects.toBeInstanceOf(StoreConfigError);
  });

  it('an unreachable server (connection refused) is StoreUnavailableError at start-up', async () => {
    await expect(
      openPostgresStore({ url: 'postgres://postgres@127.0.0.1:1/test', connectionTimeoutMs: 2000 }),
    ).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('a server that accepts and never answers: the connection timeout fires → StoreUnavailableError', async () => {
    // What bounds start-up against a black hole is connectionTimeoutMs, not the OS's TCP timeout:
    // a listener that takes the connection and stays silent, and the store's own timer ending it.
    const held: net.Socket[] = [];
    const blackHole = net.createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    const { port } = blackHole.address() as net.AddressInfo;
    try {
      const error = await openPostgresStore({
        url: `postgres://postgres@127.0.0.1:${port}/test`,
        connectionTimeoutMs: 200,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      const cause = (error as Error).cause as Error | undefined;
      expect(`${(error as Error).message} ${cause?.message ?? ''}`).toMatch(/timeout/i);
      expect(held.length).toBeGreaterThan(0);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => blackHole.close(resolve));
    }
  });
});

const reachable = await probePg();

if (!reachable.ok && REQUIRE_PG) {
  describe('PostgreSQL store', () => {
    it('needs a reachable PostgreSQL server (BLOCKWISE_REQUIRE_PG=1)', () => {
      expect.fail(`PostgreSQL at ${shownUrl} is unreachable: ${reachable.reason}`);
    });
  });
} else if (!reachable.ok) {
  const reason = `PostgreSQL at ${shownUrl} is unreachable (${reachable.reason}); set BLOCKWISE_TEST_PG_URL, or BLOCKWISE_REQUIRE_PG=1 to fail instead`;
  console.warn(`[postgres-store.test] skipped: ${reason}`);
  describe.skip(`PostgreSQL store — skipped: ${reason}`, () => {
    it('runs the RunStore contract against PostgreSQL', () => {});
  });
} else {
  const admin = new pg.Pool({ connectionString: PG_URL, max: 3 });
  admin.on('error', () => {});
  const schemas: string[] = [];

  async function freshSchema(): Promise<string> {
    const schema = `bw_test_${randomBytes(8).toString('hex')}`;
    await admin.query(`CREATE SCHEMA ${schema}`);
    schemas.push(schema);
    return schema;
  }

  /** One statement in `schema`, on a connection of its own, outside the store. */
  async function sqlIn(schema: string, text: string): Promise<Record<string, unknown>[]> {
    const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
    await client.connect();
    try {
      return (await client.query<Record<string, unknown>>(text)).rows;
    } finally {
      await client.end();
    }
  }

  afterAll(async () => {
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  describeRunStoreContract('PostgreSQL', async ({ now }) => {
    const schema = await freshSchema();
    // The manual clock drives the rate-limit windows too (in service they follow the database's).
    const store = await openPostgresStore({ url: PG_URL, schema, now, rateLimitNow: now });
    return {
      store,
      reopen: () => openPostgresStore({ url: PG_URL, schema, now, rateLimitNow: now }),
      sql: (text) => sqlIn(schema, text),
    };
  });

  describe('PostgreSQL store: replicas and outages', () => {
    it('replicas starting together apply each migration exactly once (advisory lock)', async () => {
      const schema = await freshSchema();
      const stores = await Promise.all(
        Array.from({ length: 6 }, () => openPostgresStore({ url: PG_URL, schema, poolMax: 2 })),
      );
      const rows = await sqlIn(schema, 'SELECT version, name FROM schema_migrations ORDER BY version');
      expect(rows).toEqual([
        { version: 1, name: 'archive' },
        { version: 2, name: 'replica-safe state' },
        { version: 3, name: 'fleet plans' },
        { version: 4, name: 'fleet plans stored compressed' },
      ]);
      const { run } = await (stores[0] ?? expect.fail('no store')).insertRun(runInput());
      for (const store of stores) expect((await store.getRun(run.id))?.id).toBe(run.id);
      await Promise.all(stores.map((store) => store.close()));
    });

    it('keeps working after its connections were killed (database restart, failover)', async () => {
      const schema = await freshSchema();
      const applicationName = `bw_test_${randomBytes(4).toString('hex')}`;
      const connectionErrors: Error[] = [];
      const store = await openPostgresStore({
        url: PG_URL,
        schema,
        applicationName,
        onConnectionError: (error) => connectionErrors.push(error),
      });
      const { run } = await store.insertRun(runInput());
      await Promise.all([store.ping(), store.ping(), store.getRun(run.id)]); // several pooled connections

      const killed = await admin.query(
        'SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE application_name = $1',
        [applicationName],
      );
      expect(killed.rowCount).toBeGreaterThan(0);

      // While the pool notices, a request may fail — but only as StoreUnavailableError (a 503).
      const deadline = Date.now() + 5000;
      for (;;) {
        try {
          await store.ping();
          break;
        } catch (error) {
          expect(error).toBeInstanceOf(StoreUnavailableError);
          if (Date.now() > deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      expect(await store.getRun(run.id)).toMatchObject({ id: run.id });
      expect((await store.insertRun(runInput())).created).toBe(true);
      expect(connectionErrors.length).toBeGreaterThan(0);
      await store.close();
    });

    it("rate-limit windows follow the database's clock: replicas with skewed clocks share one window", async () => {
      const schema = await freshSchema();
      const onTime = await openPostgresStore({ url: PG_URL, schema });
      // A replica whose clock is an hour ahead: it dates its rows by it, not the windows.
      const ahead = await openPostgresStore({ url: PG_URL, schema, now: () => Date.now() + 3_600_000 });
      try {
        expect((await onTime.hitRateLimit('uploads:ip:skew', 1, 60_000)).count).toBe(1);
        // With its own clock, the replica ahead saw the window as expired and restarted it (count 1).
        const second = await ahead.hitRateLimit('uploads:ip:skew', 1, 60_000);
        expect(second.count).toBe(2);
        expect(second.resetInMs).toBeGreaterThan(0);
        expect(second.resetInMs).toBeLessThanOrEqual(60_000);
        expect(await ahead.hitRateLimit('uploads:ip:skew', 0, 60_000)).toMatchObject({ count: 2 });
        expect(await onTime.hitRateLimit('uploads:ip:skew', 0, 60_000)).toMatchObject({ count: 2 });
      } finally {
        await onTime.close();
        await ahead.close();
      }
    });

    it('reading a rate-limit window on a read-only database writes nothing (no sweep)', async () => {
      const schema = await freshSchema();
      const writable = await openPostgresStore({ url: PG_URL, schema });
      await writable.hitRateLimit('uploads:ip:ro', 3, 60_000);
      await writable.close();
      const readOnly = await openPostgresStore({ url: readOnlyPgUrl(schema) });
      try {
        // The first hit of a store used to sweep expired windows (a DELETE) even to read one.
        expect(await readOnly.hitRateLimit('uploads:ip:ro', 0, 60_000)).toMatchObject({ count: 3 });
        await expect(readOnly.hitRateLimit('uploads:ip:ro', 1, 60_000)).rejects.toMatchObject({
          fault: 'read_only',
        });
      } finally {
        await readOnly.close();
      }
    });

    it('openStore takes a postgres:// URL, search_path included', async () => {
      const schema = await freshSchema();
      const store = await openStore(`${PG_URL}?options=-c%20search_path%3D${schema}`);
      expect(store.dialect).toBe('postgres');
      const { run } = await store.insertRun(runInput());
      expect(await sqlIn(schema, `SELECT id FROM runs`)).toEqual([{ id: run.id }]);
      await store.close();
    });
  });

  describe('PostgreSQL store: one logical schema with SQLite', () => {
    it('has the same tables, columns and index names as the SQLite schema', async () => {
      const schema = await freshSchema();
      const store = await openPostgresStore({ url: PG_URL, schema });
      await store.close();
      const dir = mkdtempSync(join(tmpdir(), 'blockwise-schema-'));
      const path = join(dir, 'schema.db');
      await (await openSqliteStore({ path })).close();

      const pgColumns = await sqlIn(
        schema,
        `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = '${schema}'`,
      );
      const pgIndexes = await sqlIn(
        schema,
        `SELECT indexname FROM pg_indexes WHERE schemaname = '${schema}'`,
      );
      const db = new Database(path, { readonly: true });
      const sqliteTables = db
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        .all() as Array<{ name: string }>;
      const sqliteColumns = sqliteTables.flatMap(({ name }) =>
        (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(name) as Array<{ name: string }>).map(
          (column) => `${name}.${column.name}`,
        ),
      );
      const sqliteIndexes = (
        db
          .prepare(
            "SELECT name FROM sqlite_schema WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex_%'",
          )
          .all() as Array<{ name: string }>
      ).map((row) => row.name);
      db.close();
      rmSync(dir, { recursive: true, force: true });

      // rate_limits is PostgreSQL's alone: SQLite serves one process, whose counters stay in memory.
      const pgOnly = (name: string) => name.startsWith('rate_limits');
      expect(
        pgColumns
          .map((row) => `${String(row.table_name)}.${String(row.column_name)}`)
          .filter((name) => !pgOnly(name))
          .sort(),
      ).toEqual(sqliteColumns.sort());
      // PostgreSQL names primary-key indexes itself (<table>_pkey); SQLite's are autoindexes.
      expect(
        pgIndexes
          .map((row) => String(row.indexname))
          .filter((name) => !name.endsWith('_pkey') && !pgOnly(name))
          .sort(),
      ).toEqual(sqliteIndexes.sort());
    });
  });

  interface PlanNode {
    type: string;
    relation?: string;
    index?: string;
    indexCond?: string;
  }

  /** EXPLAIN (FORMAT JSON) of one statement, flattened to its plan nodes. */
  async function explain(client: pg.Client, sql: string, params: readonly unknown[]): Promise<PlanNode[]> {
    const result = await client.query<{ 'QUERY PLAN': Array<{ Plan: Record<string, unknown> }> }>(
      `EXPLAIN (FORMAT JSON) ${sql}`,
      [...params],
    );
    const nodes: PlanNode[] = [];
    const walk = (node: Record<string, unknown>) => {
      nodes.push({
        type: String(node['Node Type']),
        ...(node['Relation Name'] ? { relation: String(node['Relation Name']) } : {}),
        ...(node['Index Name'] ? { index: String(node['Index Name']) } : {}),
        ...(node['Index Cond'] ? { indexCond: String(node['Index Cond']) } : {}),
      });
      for (const child of (node.Plans as Array<Record<string, unknown>> | undefined) ?? []) walk(child);
    };
    const root = result.rows[0]?.['QUERY PLAN'][0];
    if (root) walk(root.Plan);
    return nodes;
  }

  const describeNode = (node: PlanNode) =>
    `${node.type}${node.index ? ` using ${node.index}` : ''}${node.relation ? ` on ${node.relation}` : ''}`;
  const isScanOrSort = (node: PlanNode) => /^(Seq Scan|Sort|Incremental Sort)$/.test(node.type);

  async function recordEveryStatement(schema: string) {
    const recorder = queryRecorder();
    const store = await openPostgresStore({ url: PG_URL, schema, onQuery: recorder.observe });
    await exerciseEveryQuery(store);
    await store.close();
    const statements = [...recorder.statements.values()].filter((statement) => hasPlan(statement.sql));
    expect(statements.filter((s) => LIST_STATEMENT.test(s.sql))).toHaveLength(LIST_STATEMENT_VARIANTS);
    expect(statements.length).toBeGreaterThan(LIST_STATEMENT_VARIANTS + 15);
    return statements;
  }

  describe('PostgreSQL store: query plans (P8)', () => {
    it('every statement the store issues has an index path: no Seq Scan, no Sort (enable_seqscan/enable_sort off)', async () => {
      const schema = await freshSchema();
      const statements = await recordEveryStatement(schema);
      // Tables this small make a sequential scan the planner's cheapest choice; switching seq
      // scans and sorts off (they still happen when nothing else is possible, at a huge cost)
      // asks instead: is there an index path for this query, in this order?
      const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
      await client.connect();
      const evidence: string[] = [];
      const violations: string[] = [];
      try {
        await client.query('ANALYZE');
        await client.query('SET enable_seqscan = off');
        await client.query('SET enable_sort = off');
        for (const { sql, params } of statements) {
          const nodes = await explain(client, sql, params);
          const exemption = PLAN_EXEMPTIONS.find((e) => e.pattern.test(sql));
          evidence.push(`${nodes.map(describeNode).join(' > ')}${exemption ? '  [exempt]' : ''}  ⇐ ${sql}`);
          if (exemption) continue;
          for (const node of nodes.filter(isScanOrSort)) violations.push(`${describeNode(node)} ⇐ ${sql}`);
        }
      } finally {
        await client.end();
      }
      if (process.env.BLOCKWISE_PRINT_PLANS) console.log(evidence.join('\n'));
      expect(violations).toEqual([]);
    });

    it('with 20,000 runs and statistics the planner itself seeks the filter index (default settings)', async () => {
      const schema = await freshSchema();
      const statements = (await recordEveryStatement(schema)).filter((s) => /\bFROM runs\b/.test(s.sql));
      await sqlIn(schema, bulkRunsSql(20_000));
      await sqlIn(schema, 'ANALYZE runs');
      const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
      await client.connect();
      const evidence: string[] = [];
      const violations: string[] = [];
      try {
        for (const { sql, params } of statements) {
          const nodes = await explain(client, sql, params);
          evidence.push(`${nodes.map(describeNode).join(' > ')}  ⇐ ${sql}`);
          for (const node of nodes.filter(isScanOrSort)) violations.push(`${describeNode(node)} ⇐ ${sql}`);
          // kind has two values: for `kind = $1` alone, walking runs_created in order and
          // skipping the other kind reads ≈ 2 × limit entries, which the planner rightly prefers
          // (it switches to runs_kind_created when one kind is rare). Any selective filter must
          // be an index condition.
          const filters = filterColumns(sql);
          const selective = filters.some((column) => column !== 'kind');
          const seeks = nodes.some((node) =>
            filters.some((column) => node.indexCond?.includes(`(${column} = `)),
          );
          if (selective && !seeks) violations.push(`no index seek on ${filters.join('/')} ⇐ ${sql}`);
        }
      } finally {
        await client.end();
      }
      if (process.env.BLOCKWISE_PRINT_PLANS) console.log(evidence.join('\n'));
      expect(violations).toEqual([]);
    });
  });
}
