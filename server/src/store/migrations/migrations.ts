import { createHash } from 'node:crypto';
import { StoreConfigError } from '../run-store.ts';

/**
 * A schema change. Each dialect has its own list (sqlite.ts, postgres.ts) describing the same
 * logical schema — same versions, names, tables, columns and index names (a test compares the two
 * live schemas). Applied migrations are recorded in `schema_migrations` with a checksum of their
 * SQL; never edit one that has shipped, append a new version instead.
 */
export interface Migration {
  version: number;
  name: string;
  /** One or more statements, run in a single transaction with the bookkeeping row. */
  sql: string;
}

export interface AppliedMigration {
  version: number;
  name: string;
  checksum: string;
}

export function migrationChecksum(migration: Migration): string {
  return createHash('sha256').update(migration.sql).digest('hex');
}

/**
 * The migrations still to apply, in order. Refuses to start (StoreConfigError) when the database
 * knows a version this build does not (it was migrated by a newer build: running older code
 * against it could write rows the new schema does not expect) or when an applied migration's SQL
 * differs from ours (someone edited a shipped migration).
 */
export function pendingMigrations(
  known: readonly Migration[],
  applied: readonly AppliedMigration[],
): Migration[] {
  const byVersion = new Map(known.map((migration) => [migration.version, migration]));
  for (const row of applied) {
    const migration = byVersion.get(row.version);
    if (!migration) {
      const newest = Math.max(0, ...known.map((m) => m.version));
      throw new StoreConfigError(
        `database schema has migration ${row.version} (${row.name}), newer than this build knows (up to ${newest}); ` +
          'upgrade Blockwise or point it at another database',
      );
    }
    if (migration.name !== row.name || migrationChecksum(migration) !== row.checksum) {
      throw new StoreConfigError(
        `migration ${row.version} (${row.name}) was applied with different SQL than this build's ` +
          `"${migration.name}"; shipped migrations must not be edited`,
      );
    }
  }
  const done = new Set(applied.map((row) => row.version));
  return known.filter((migration) => !done.has(migration.version)).sort((a, b) => a.version - b.version);
}
