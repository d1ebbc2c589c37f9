// The two engines storage tests run on: PGlite always, the real Postgres server when PREFLIGHT_TEST_DATABASE_URL is
// set (.ci/run sets it). Each Postgres run works in a schema of its own, dropped afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, it } from 'vitest';
import { openDatabase, type Database } from '../../src/storage/database.js';
import type { OpenSqlOptions } from '../../src/storage/sql.js';

export const POSTGRES_URL = process.env.PREFLIGHT_TEST_DATABASE_URL?.trim() || null;
export const POSTGRES_HINT = 'set PREFLIGHT_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test to run on a Postgres server too';

export interface Engine {
  name: 'pglite' | 'postgres';
  /** Options for a fresh, empty database on this engine. */
  fresh(): Promise<OpenSqlOptions>;
  /** A further schema (the queue's) dropped by `cleanup`, named after the last fresh one. */
  extraSchema(suffix: string): string;
  /** Drops every schema `fresh` and `extraSchema` made. */
  cleanup(): Promise<void>;
}

export const pgliteEngine: Engine = {
  name: 'pglite',
  fresh: async () => ({ dir: null }),
  extraSchema: (suffix) => `pgboss_${suffix}`,
  cleanup: async () => {},
};

export function postgresEngine(url: string): Engine {
  const schemas: string[] = [];
  return {
    name: 'postgres',
    fresh: async () => {
      const schema = `pf_test_${process.pid}_${randomBytes(4).toString('hex')}`;
      schemas.push(schema);
      return { url, schema };
    },
    extraSchema: (suffix) => {
      const schema = `${schemas.at(-1) ?? `pf_test_${process.pid}`}_${suffix}`;
      schemas.push(schema);
      return schema;
    },
    cleanup: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        for (const schema of schemas.splice(0)) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * Declares `suite` once per engine: on PGlite always, on Postgres when a URL is set, else reported skipped with the
 * hint in its title.
 */
export function describeEachEngine(title: string, suite: (engine: Engine) => void): void {
  describe(`${title} (pglite)`, () => suite(pgliteEngine));
  const postgres = POSTGRES_URL ? postgresEngine(POSTGRES_URL) : null;
  describe.skipIf(!postgres)(`${title} (postgres)${postgres ? '' : ` (skipped: ${POSTGRES_HINT})`}`, () => {
    if (postgres) suite(postgres);
    else it('needs a Postgres server', () => {});
  });
}

export async function freshDatabase(engine: Engine): Promise<Database> {
  return openDatabase(await engine.fresh());
}
