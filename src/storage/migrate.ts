// Applies the versioned migrations not yet recorded, each in its own transaction, under an advisory lock so that
// processes starting together on one Postgres server apply each version once.
import { MIGRATIONS, type Migration } from './migrations/index.js';
import type { SqlClient } from './sql.js';

/** Arbitrary, fixed: the advisory lock key Preflight's migrations take. */
const MIGRATION_LOCK = 7_215_001;

export async function migrate(sql: SqlClient, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  return sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set((await tx.query<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => r.version));
    const applied: number[] = [];
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(m.version)) continue;
      for (const statement of splitStatements(m.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}

/** Migration text holds plain DDL (no functions or quoted semicolons), so splitting on `;` is exact. */
function splitStatements(text: string): string[] {
  return text
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
}
