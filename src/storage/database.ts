// The database a Preflight process opens at start-up: the engine (PGlite under PREFLIGHT_HOME/db, or the Postgres
// server at PREFLIGHT_DATABASE_URL), migrated to the current schema, with one repository per aggregate.
import { join } from 'node:path';
import { migrate } from './migrate.js';
import { AbuseEventsRepository, GateVerdictsRepository, SpendAlertsRepository } from './repositories/records.js';
import { JobsRepository } from './repositories/jobs.js';
import { KeysRepository } from './repositories/keys.js';
import { UploadsRepository } from './repositories/uploads.js';
import { UsageRepository } from './repositories/usage.js';
import { WebhooksRepository } from './repositories/webhooks.js';
import { openSql, type OpenSqlOptions, type SqlClient } from './sql.js';

export interface Database {
  readonly sql: SqlClient;
  readonly jobs: JobsRepository;
  readonly usage: UsageRepository;
  readonly keys: KeysRepository;
  readonly uploads: UploadsRepository;
  readonly webhooks: WebhooksRepository;
  readonly abuseEvents: AbuseEventsRepository;
  readonly spendAlerts: SpendAlertsRepository;
  readonly gateVerdicts: GateVerdictsRepository;
  close(): Promise<void>;
}

export function repositories(sql: SqlClient): Database {
  return {
    sql,
    jobs: new JobsRepository(sql),
    usage: new UsageRepository(sql),
    keys: new KeysRepository(sql),
    uploads: new UploadsRepository(sql),
    webhooks: new WebhooksRepository(sql),
    abuseEvents: new AbuseEventsRepository(sql),
    spendAlerts: new SpendAlertsRepository(sql),
    gateVerdicts: new GateVerdictsRepository(sql),
    close: () => sql.close(),
  };
}

/**
 * Runs `work` with repositories bound to one transaction: everything it writes is stored together or not at all.
 * (A repository's own transactions run inside this one.)
 */
export function inTransaction<T>(db: Database, work: (tx: Database) => Promise<T>): Promise<T> {
  return db.sql.transaction((runner) => {
    const client: SqlClient = {
      kind: db.sql.kind,
      query: (text, params) => runner.query(text, params),
      exec: async (text) => void (await runner.query(text)),
      transaction: (inner) => inner(runner),
      close: async () => {},
    };
    return work(repositories(client));
  });
}

export const databaseDir = (home: string) => join(home, 'db');

/**
 * Where the database lives for a data dir and an environment: the URL wins (in PREFLIGHT_DATABASE_SCHEMA when set, so
 * several deployments or test runs can share one server), else PGlite in the data dir.
 */
export function databaseOptions(home: string, env: NodeJS.ProcessEnv = process.env): OpenSqlOptions {
  const url = env.PREFLIGHT_DATABASE_URL?.trim();
  const schema = env.PREFLIGHT_DATABASE_SCHEMA?.trim();
  return url ? { url, ...(schema ? { schema } : {}) } : { dir: databaseDir(home) };
}

export async function openDatabase(options: OpenSqlOptions): Promise<Database> {
  const sql = await openSql(options);
  try {
    await migrate(sql);
  } catch (err) {
    await sql.close().catch(() => {});
    throw err;
  }
  return repositories(sql);
}
