import { SERIES_COUNTS_BACKFILL } from '../replica-state.ts';
import type { Migration } from './migrations.ts';

/**
 * SQLite schema. Tables are STRICT (column types enforced, as in PostgreSQL). Times are INTEGER
 * ms since the epoch; JSON is TEXT exactly as serialized; raw uploads are BLOBs.
 *
 * Index choices — every query the store issues is a B-tree SEARCH (or an in-order index walk
 * that stops at LIMIT); the "query plans" tests in sqlite-store.test.ts and postgres-store.test.ts
 * EXPLAIN every statement the store sends, on a few rows and on 20,000:
 * - runs_created (created_at, id): the unfiltered newest-first list; (created_at, id) is also the
 *   keyset cursor, so a page is a range read from the cursor position.
 * - runs_series_created, runs_branch_created, runs_instance_type_created, runs_kind_created:
 *   one per filter, each ending in (created_at, id) so "filter = ? ORDER BY created_at DESC, id
 *   DESC LIMIT n" reads n entries and never sorts. Combined filters use one of them and check
 *   the other columns on the rows read.
 * - runs_series_branch_created (series, branch, created_at, id): CI history of a series on a
 *   branch (listSeriesRuns), the hot query of regression gates.
 * - runs_idempotency_key UNIQUE: decides which of two concurrent identical uploads wins.
 *
 * Raw bytes live in run_raw, not in runs: uploads reach tens of MB, and keeping them out of the
 * runs rows keeps list and point queries on small rows. In runs, `report` (the largest column) is
 * last, so reading the columns before it never walks its overflow pages.
 *
 * Rowid tables on purpose (no WITHOUT ROWID): SQLite advises against WITHOUT ROWID for rows this
 * large, and the TEXT primary key gets its own autoindex either way.
 *
 * Append-only: triggers abort UPDATE and DELETE on runs, run_raw and comparisons, so immutability
 * does not depend on every future code path remembering it (R11). A future migration that must
 * rewrite rows drops and re-creates the trigger in the same transaction.
 */
export const SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'archive',
    sql: `
CREATE TABLE runs (
  id               TEXT    NOT NULL PRIMARY KEY,
  created_at       INTEGER NOT NULL,
  idempotency_key  TEXT    NOT NULL,
  series           TEXT,
  branch           TEXT,
  instance_type    TEXT,
  kind             TEXT    CHECK (kind IN ('nvme', 'ebs')),
  raw_sha256       TEXT    NOT NULL,
  raw_size         INTEGER NOT NULL,
  media_type       TEXT    NOT NULL,
  file_name        TEXT,
  analysis_version TEXT    NOT NULL,
  fio_version      TEXT,
  labels           TEXT    NOT NULL,
  summary          TEXT    NOT NULL,
  report           TEXT    NOT NULL
) STRICT;
CREATE UNIQUE INDEX runs_idempotency_key ON runs (idempotency_key);
CREATE INDEX runs_created ON runs (created_at, id);
CREATE INDEX runs_series_created ON runs (series, created_at, id);
CREATE INDEX runs_series_branch_created ON runs (series, branch, created_at, id);
CREATE INDEX runs_branch_created ON runs (branch, created_at, id);
CREATE INDEX runs_instance_type_created ON runs (instance_type, created_at, id);
CREATE INDEX runs_kind_created ON runs (kind, created_at, id);

CREATE TABLE run_raw (
  run_id TEXT NOT NULL PRIMARY KEY REFERENCES runs (id),
  bytes  BLOB NOT NULL
) STRICT;

CREATE TABLE comparisons (
  id               TEXT    NOT NULL PRIMARY KEY,
  created_at       INTEGER NOT NULL,
  title            TEXT,
  run_ids          TEXT    NOT NULL,
  price_table_date TEXT    NOT NULL,
  analysis_version TEXT    NOT NULL,
  plan             TEXT,
  result           TEXT    NOT NULL
) STRICT;

CREATE TABLE tokens (
  id           TEXT    NOT NULL PRIMARY KEY,
  name         TEXT    NOT NULL,
  token_sha256 TEXT    NOT NULL,
  created_at   INTEGER NOT NULL,
  revoked_at   INTEGER,
  last_used_at INTEGER
) STRICT;
CREATE UNIQUE INDEX tokens_sha256 ON tokens (token_sha256);
-- Partial: names are unique among active tokens only (a revoked name can be reused), and the
-- same index answers "count active tokens" without reading revoked rows.
CREATE UNIQUE INDEX tokens_active_name ON tokens (name) WHERE revoked_at IS NULL;
CREATE INDEX tokens_created ON tokens (created_at, id);

CREATE TABLE series_settings (
  series     TEXT    NOT NULL PRIMARY KEY,
  config     TEXT    NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TRIGGER runs_no_update BEFORE UPDATE ON runs
  BEGIN SELECT RAISE(ABORT, 'runs are append-only'); END;
CREATE TRIGGER runs_no_delete BEFORE DELETE ON runs
  BEGIN SELECT RAISE(ABORT, 'runs are append-only'); END;
CREATE TRIGGER run_raw_no_update BEFORE UPDATE ON run_raw
  BEGIN SELECT RAISE(ABORT, 'run_raw is append-only'); END;
CREATE TRIGGER run_raw_no_delete BEFORE DELETE ON run_raw
  BEGIN SELECT RAISE(ABORT, 'run_raw is append-only'); END;
CREATE TRIGGER comparisons_no_update BEFORE UPDATE ON comparisons
  BEGIN SELECT RAISE(ABORT, 'comparisons are append-only'); END;
CREATE TRIGGER comparisons_no_delete BEFORE DELETE ON comparisons
  BEGIN SELECT RAISE(ABORT, 'comparisons are append-only'); END;
`,
  },
  {
    // State that replicas share (issue 12); same logical schema as postgres.ts version 2, minus
    // rate_limits (SQLite is one process: its counters live in memory).
    // - comparisons.pair_key: the regression gate's [baseline run, run] comparison is made once
    //   (at upload until 2026-11-29, since when its link is first opened); UNIQUE (pair_key, analysis_version) makes that insert-or-return-existing across
    //   processes and lets the read-only GET find it. NULL for every other comparison (NULLs are
    //   distinct, so they never conflict).
    // - series_stats: one row per series (runs, branches, latest run) kept with each insert, so
    //   GET /api/series reads a page of this table in (latest_created_at, latest_run_id) order
    //   instead of grouping the runs table. series_branches records which branches were seen,
    //   so branch_count grows once per new branch (its primary key decides races).
    // The INSERT … SELECTs fill both from runs stored before this migration.
    version: 2,
    name: 'replica-safe state',
    sql: `
ALTER TABLE comparisons ADD COLUMN pair_key TEXT;
CREATE UNIQUE INDEX comparisons_pair ON comparisons (pair_key, analysis_version);

CREATE TABLE series_branches (
  series TEXT NOT NULL,
  branch TEXT NOT NULL,
  PRIMARY KEY (series, branch)
) STRICT;

CREATE TABLE series_stats (
  series            TEXT    NOT NULL PRIMARY KEY,
  run_count         INTEGER NOT NULL,
  branch_count      INTEGER NOT NULL,
  latest_created_at INTEGER NOT NULL,
  latest_run_id     TEXT    NOT NULL
) STRICT;
CREATE INDEX series_stats_latest ON series_stats (latest_created_at, latest_run_id);

${SERIES_COUNTS_BACKFILL}
`,
  },
  {
    // Fleet right-sizing plans behind share links (issue 17): one immutable JSON document per
    // plan, as POST /api/fleet/plans computed it, with the analysis version and the date of the
    // prices it used. Read by primary key only (no listing, so no other index). Append-only like
    // comparisons: a shared link never changes meaning.
    version: 3,
    name: 'fleet plans',
    sql: `
CREATE TABLE fleet_plans (
  id               TEXT    NOT NULL PRIMARY KEY,
  created_at       INTEGER NOT NULL,
  analysis_version TEXT    NOT NULL,
  price_date       TEXT    NOT NULL,
  body             TEXT    NOT NULL
) STRICT;

CREATE TRIGGER fleet_plans_no_update BEFORE UPDATE ON fleet_plans
  BEGIN SELECT RAISE(ABORT, 'fleet_plans are append-only'); END;
CREATE TRIGGER fleet_plans_no_delete BEFORE DELETE ON fleet_plans
  BEGIN SELECT RAISE(ABORT, 'fleet_plans are append-only'); END;
`,
  },
  {
    // Fleet plans bounded and served as stored (issue 24): the plan is stored as its JSON gzip-
    // compressed (body_gzip, body_size: the JSON's bytes), computed in a worker and streamed by
    // GET without parsing; idempotency_key makes the same request one plan across processes
    // (UNIQUE; NULL for rows stored before, which never conflict). Rows stored before keep their
    // JSON in `body`, so `body` becomes nullable: SQLite cannot drop a NOT NULL, so the table is
    // rebuilt (its rows copied as they are; the append-only triggers go with the old table and are
    // created again). Exactly one of body and body_gzip is set.
    version: 4,
    name: 'fleet plans stored compressed',
    sql: `
CREATE TABLE fleet_plans_v4 (
  id               TEXT    NOT NULL PRIMARY KEY,
  created_at       INTEGER NOT NULL,
  analysis_version TEXT    NOT NULL,
  price_date       TEXT    NOT NULL,
  body             TEXT,
  idempotency_key  TEXT,
  body_gzip        BLOB,
  body_size        INTEGER,
  CHECK ((body IS NULL) <> (body_gzip IS NULL)),
  CHECK ((body_gzip IS NULL) = (body_size IS NULL))
) STRICT;
INSERT INTO fleet_plans_v4 (id, created_at, analysis_version, price_date, body)
  SELECT id, created_at, analysis_version, price_date, body FROM fleet_plans;
DROP TABLE fleet_plans;
ALTER TABLE fleet_plans_v4 RENAME TO fleet_plans;
CREATE UNIQUE INDEX fleet_plans_idempotency_key ON fleet_plans (idempotency_key);

CREATE TRIGGER fleet_plans_no_update BEFORE UPDATE ON fleet_plans
  BEGIN SELECT RAISE(ABORT, 'fleet_plans are append-only'); END;
CREATE TRIGGER fleet_plans_no_delete BEFORE DELETE ON fleet_plans
  BEGIN SELECT RAISE(ABORT, 'fleet_plans are append-only'); END;
`,
  },
];
