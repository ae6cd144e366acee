import { SERIES_COUNTS_BACKFILL } from '../replica-state.ts';
import type { Migration } from './migrations.ts';

/**
 * PostgreSQL schema: the same tables, columns and index names as migrations/sqlite.ts (see the
 * index rationale there). Differences, and why:
 * - Times are BIGINT ms since the epoch (not timestamptz) so both dialects order, compare and
 *   return exactly the same numbers.
 * - Ids and the idempotency key are `COLLATE "C"`: byte order, like SQLite's BINARY. Under a
 *   linguistic collation (en_US…) '-' and '_' sort differently and case is folded at first level,
 *   so ties in created_at would be ordered differently from SQLite — and the row-value cursor
 *   `(created_at, id) < ($1, $2)` compares in that same collation. "C" is also cheaper.
 * - `labels` and `run_ids` are jsonb (validated, small, may be queried later, e.g. by tag);
 *   report/summary/plan/result/config are `json`, which keeps the text exactly as sent. jsonb
 *   would reorder keys and reject U+0000 and lone surrogates inside strings (fio job names are
 *   user input): the upload would fail on PostgreSQL only. Nothing queries inside them.
 * - Raw bytes are BYTEA (TOASTed out of line automatically when large).
 * - Append-only is enforced by a trigger function that raises on UPDATE/DELETE/TRUNCATE.
 */
export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'archive',
    sql: `
CREATE TABLE runs (
  id               text COLLATE "C" NOT NULL PRIMARY KEY,
  created_at       bigint NOT NULL,
  idempotency_key  text COLLATE "C" NOT NULL,
  series           text,
  branch           text,
  instance_type    text,
  kind             text CHECK (kind IN ('nvme', 'ebs')),
  raw_sha256       text NOT NULL,
  raw_size         bigint NOT NULL,
  media_type       text NOT NULL,
  file_name        text,
  analysis_version text NOT NULL,
  fio_version      text,
  labels           jsonb NOT NULL,
  summary          json NOT NULL,
  report           json NOT NULL
);
CREATE UNIQUE INDEX runs_idempotency_key ON runs (idempotency_key);
CREATE INDEX runs_created ON runs (created_at, id);
CREATE INDEX runs_series_created ON runs (series, created_at, id);
CREATE INDEX runs_series_branch_created ON runs (series, branch, created_at, id);
CREATE INDEX runs_branch_created ON runs (branch, created_at, id);
CREATE INDEX runs_instance_type_created ON runs (instance_type, created_at, id);
CREATE INDEX runs_kind_created ON runs (kind, created_at, id);

CREATE TABLE run_raw (
  run_id text COLLATE "C" NOT NULL PRIMARY KEY REFERENCES runs (id),
  bytes  bytea NOT NULL
);

CREATE TABLE comparisons (
  id               text COLLATE "C" NOT NULL PRIMARY KEY,
  created_at       bigint NOT NULL,
  title            text,
  run_ids          jsonb NOT NULL,
  price_table_date text NOT NULL,
  analysis_version text NOT NULL,
  plan             json,
  result           json NOT NULL
);

CREATE TABLE tokens (
  id           text COLLATE "C" NOT NULL PRIMARY KEY,
  name         text NOT NULL,
  token_sha256 text COLLATE "C" NOT NULL,
  created_at   bigint NOT NULL,
  revoked_at   bigint,
  last_used_at bigint
);
CREATE UNIQUE INDEX tokens_sha256 ON tokens (token_sha256);
CREATE UNIQUE INDEX tokens_active_name ON tokens (name) WHERE revoked_at IS NULL;
CREATE INDEX tokens_created ON tokens (created_at, id);

CREATE TABLE series_settings (
  series     text NOT NULL PRIMARY KEY,
  config     json NOT NULL,
  updated_at bigint NOT NULL
);

CREATE FUNCTION blockwise_reject_mutation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only (% rejected)', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'restrict_violation';
END
$$;
CREATE TRIGGER runs_append_only BEFORE UPDATE OR DELETE ON runs
  FOR EACH ROW EXECUTE FUNCTION blockwise_reject_mutation();
CREATE TRIGGER runs_no_truncate BEFORE TRUNCATE ON runs
  FOR EACH STATEMENT EXECUTE FUNCTION blockwise_reject_mutation();
CREATE TRIGGER run_raw_append_only BEFORE UPDATE OR DELETE ON run_raw
  FOR EACH ROW EXECUTE FUNCTION blockwise_reject_mutation();
CREATE TRIGGER run_raw_no_truncate BEFORE TRUNCATE ON run_raw
  FOR EACH STATEMENT EXECUTE FUNCTION blockwise_reject_mutation();
CREATE TRIGGER comparisons_append_only BEFORE UPDATE OR DELETE ON comparisons
  FOR EACH ROW EXECUTE FUNCTION blockwise_reject_mutation();
CREATE TRIGGER comparisons_no_truncate BEFORE TRUNCATE ON comparisons
  FOR EACH STATEMENT EXECUTE FUNCTION blockwise_reject_mutation();
`,
  },
  {
    // State that replicas share (issue 12): see sqlite.ts version 2 for pair_key, series_stats
    // and series_branches. PostgreSQL only:
    // - rate_limits: the fixed-window counters every replica charges (one row per limit and
    //   client, reset in place when its window has expired; expired rows are swept in small
    //   batches through rate_limits_expires). UNLOGGED: a counter is worth no WAL write or fsync,
    //   and after a crash or failover the table starts empty, which only resets the windows.
    version: 2,
    name: 'replica-safe state',
    sql: `
ALTER TABLE comparisons ADD COLUMN pair_key text COLLATE "C";
CREATE UNIQUE INDEX comparisons_pair ON comparisons (pair_key, analysis_version);

CREATE TABLE series_branches (
  series text NOT NULL,
  branch text NOT NULL,
  PRIMARY KEY (series, branch)
);

CREATE TABLE series_stats (
  series            text   NOT NULL PRIMARY KEY,
  run_count         bigint NOT NULL,
  branch_count      bigint NOT NULL,
  latest_created_at bigint NOT NULL,
  latest_run_id     text COLLATE "C" NOT NULL
);
CREATE INDEX series_stats_latest ON series_stats (latest_created_at, latest_run_id);

${SERIES_COUNTS_BACKFILL}

CREATE UNLOGGED TABLE rate_limits (
  key        text COLLATE "C" NOT NULL PRIMARY KEY,
  count      bigint NOT NULL,
  expires_at bigint NOT NULL
);
CREATE INDEX rate_limits_expires ON rate_limits (expires_at);
`,
  },
  {
    // Fleet right-sizing plans behind share links: see sqlite.ts version 3. The body is `json`
    // (kept as written), like comparisons' result.
    version: 3,
    name: 'fleet plans',
    sql: `
CREATE TABLE fleet_plans (
  id               text COLLATE "C" NOT NULL PRIMARY KEY,
  created_at       bigint NOT NULL,
  analysis_version text NOT NULL,
  price_date       text NOT NULL,
  body             json NOT NULL
);

CREATE TRIGGER fleet_plans_append_only BEFORE UPDATE OR DELETE ON fleet_plans
  FOR EACH ROW EXECUTE FUNCTION blockwise_reject_mutation();
CREATE TRIGGER fleet_plans_no_truncate BEFORE TRUNCATE ON fleet_plans
  FOR EACH STATEMENT EXECUTE FUNCTION blockwise_reject_mutation();
`,
  },
  {
    // Fleet plans stored compressed, with an idempotency key: see sqlite.ts version 4. Rows stored
    // before keep their `json` body; new rows set body_gzip (bytea) and body_size instead.
    version: 4,
    name: 'fleet plans stored compressed',
    sql: `
ALTER TABLE fleet_plans ALTER COLUMN body DROP NOT NULL;
ALTER TABLE fleet_plans ADD COLUMN idempotency_key text COLLATE "C";
ALTER TABLE fleet_plans ADD COLUMN body_gzip bytea;
ALTER TABLE fleet_plans ADD COLUMN body_size bigint;
-- Already compressed: TOAST stores it out of line without trying to compress it again.
ALTER TABLE fleet_plans ALTER COLUMN body_gzip SET STORAGE EXTERNAL;
ALTER TABLE fleet_plans ADD CONSTRAINT fleet_plans_one_body CHECK ((body IS NULL) <> (body_gzip IS NULL));
ALTER TABLE fleet_plans ADD CONSTRAINT fleet_plans_body_size CHECK ((body_gzip IS NULL) = (body_size IS NULL));
CREATE UNIQUE INDEX fleet_plans_idempotency_key ON fleet_plans (idempotency_key);
`,
  },
];
