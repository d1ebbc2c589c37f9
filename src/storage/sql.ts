// One SQL client over two engines: PGlite (Postgres in WASM, persisted in a folder) by default, a Postgres server
// through a `pg` pool when a URL is given. Every repository is written once against this interface.
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import pg from 'pg';
import { ServiceError } from '../errors.js';
import { pgliteTemplate } from './pglite-template.js';
import { unpackGzippedUstar } from './ustar.js';

export type Row = Record<string, unknown>;
export type EngineKind = 'pglite' | 'postgres';

export interface SqlRunner {
  query<T extends Row = Row>(text: string, params?: unknown[]): Promise<T[]>;
}

export interface SqlClient extends SqlRunner {
  readonly kind: EngineKind;
  /** Parameterless, possibly multi-statement text (migrations). */
  exec(text: string): Promise<void>;
  /** Runs `work` in one transaction on one connection; rolled back when it throws. */
  transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface OpenSqlOptions {
  /** postgres://… for a Postgres server; otherwise the embedded engine in `dir` (memory when `dir` is null). */
  url?: string | null;
  dir?: string | null;
  /** Postgres only: the schema every statement runs in (tests use one per run). */
  schema?: string;
  /** Postgres only: pool size. */
  maxConnections?: number;
}

/**
 * Postgres stores no NUL character in text or JSON: a request that carries one is refused as bad input (400) before
 * any statement runs, rather than failing inside the database as a server error.
 */
function refuseNul(params: unknown[]): unknown[] {
  for (const p of params) {
    if (typeof p === 'string' && (p.includes('\u0000') || p.includes('\\u0000'))) {
      throw new ServiceError('invalid_input', 'Text may not contain the NUL character (U+0000).', {}, 400);
    }
  }
  return params;
}

class PgliteClient implements SqlClient {
  readonly kind = 'pglite' as const;
  constructor(readonly db: PGlite) {}

  async query<T extends Row>(text: string, params: unknown[] = []): Promise<T[]> {
    return (await this.db.query<T>(text, refuseNul(params))).rows;
  }

  async exec(text: string): Promise<void> {
    await this.db.exec(text);
  }

  transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T> {
    return this.db.transaction((tx: Transaction) =>
      work({ query: async <R extends Row>(text: string, params: unknown[] = []) => (await tx.query<R>(text, refuseNul(params))).rows }),
    );
  }

  async close(): Promise<void> {
    if (!this.db.closed) await this.db.close();
  }
}

/** Connection failures and server shutdowns (SQLSTATE classes 08 and 57P), as opposed to a statement's own error. */
function connectionLost(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string') return /Connection terminated|connection timeout/i.test((err as Error)?.message ?? '');
  return code.startsWith('08') || code.startsWith('57P') || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN'].includes(code);
}

/**
 * A lost connection fails the one request that met it with a clear 503; the pool opens a new connection for the
 * next, so the process keeps serving.
 */
function unavailable(err: unknown): unknown {
  if (!connectionLost(err)) return err;
  const reason = (err as Error).message;
  return new ServiceError(
    'store_unavailable',
    `The database could not be reached (${reason}); this request changed nothing it did not finish. Retry; if it keeps failing, check the database server and PREFLIGHT_DATABASE_URL.`,
    { reason },
    503,
  );
}

class PostgresClient implements SqlClient {
  readonly kind = 'postgres' as const;
  constructor(readonly pool: pg.Pool) {}

  async query<T extends Row>(text: string, params: unknown[] = []): Promise<T[]> {
    try {
      return (await this.pool.query<T>(text, refuseNul(params))).rows;
    } catch (err) {
      throw unavailable(err);
    }
  }

  async exec(text: string): Promise<void> {
    try {
      await this.pool.query(text);
    } catch (err) {
      throw unavailable(err);
    }
  }

  async transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T> {
    try {
      return await this.inTransaction(work);
    } catch (err) {
      throw unavailable(err);
    }
  }

  private async inTransaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T> {
    const conn = await this.pool.connect();
    // A connection lost while checked out emits 'error' on it: the failing query reports it, nothing else should.
    const ignore = () => {};
    conn.on('error', ignore);
    let broken: Error | undefined;
    try {
      await conn.query('BEGIN');
      const result = await work({ query: async <R extends Row>(text: string, params: unknown[] = []) => (await conn.query<R>(text, refuseNul(params))).rows });
      await conn.query('COMMIT');
      return result;
    } catch (err) {
      if (connectionLost(err)) broken = err as Error;
      else await conn.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      conn.off('error', ignore);
      // A broken connection is closed, not returned to the pool.
      conn.release(broken);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export async function openSql(options: OpenSqlOptions): Promise<SqlClient> {
  if (options.url) {
    const schema = options.schema;
    if (schema !== undefined && !SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name ${JSON.stringify(schema)}`);
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.maxConnections ?? 10,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    // An idle connection the server drops must not crash the process; the next query reconnects.
    pool.on('error', (err) => process.stderr.write(`preflight: database connection lost: ${err.message}\n`));
    const client = new PostgresClient(pool);
    if (schema) await client.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    return client;
  }
  return new PgliteClient(await openPglite(options.dir ?? null));
}

/**
 * Postgres zeroes its shared buffers at start, and PGlite's default of 128 MB made that the largest cost of an open
 * (~0.4 s of CPU) and left 128 MB resident in every process holding a database. With 16 MB the store's reads and
 * writes at 100k jobs measured the same (docs/deploy.md).
 */
export const PGLITE_SHARED_BUFFERS = '16MB';
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`];

/** WAL in 1 MB segments, not 16: a new data dir (and the build's template) then carries a few MB of WAL, not 16. */
const PGLITE_INITDB_PARAMS = ['--wal-segsize=1'];

/**
 * The store lives in the `postgres` database and never creates another, so a database initialised afresh drops the two
 * template databases initdb makes: half of its data dir, and of the build's template that every new data dir unpacks.
 */
async function dropTemplateDatabases(db: PGlite): Promise<void> {
  for (const name of ['template0', 'template1']) {
    await db.exec(`ALTER DATABASE ${name} IS_TEMPLATE false`);
    await db.exec(`DROP DATABASE ${name}`);
  }
}

/**
 * Opens the embedded engine in `dir` (memory when null). A new database is loaded from the build's template when there
 * is one for this PGlite (a new data dir unpacked with Node's own calls, memory through PGlite); should that fail, it
 * is initialised afresh.
 */
async function openPglite(dir: string | null): Promise<PGlite> {
  if (dir) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const isNew = !dir || !existsSync(join(dir, 'PG_VERSION'));
  const template = isNew ? pgliteTemplate() : null;
  const clear = () => {
    if (dir) for (const entry of readdirSync(dir)) rmSync(join(dir, entry), { recursive: true, force: true });
  };
  if (template && dir) {
    try {
      unpackGzippedUstar(template, dir);
      return await PGlite.create(dir, { startParams: PGLITE_START_PARAMS });
    } catch (err) {
      process.stderr.write(`preflight: the embedded database template could not be unpacked and opened (${(err as Error).message}); loading it through PGlite\n`);
      clear();
    }
  }
  if (template) {
    try {
      return await PGlite.create(dir ?? undefined, { loadDataDir: new Blob([new Uint8Array(template)]), startParams: PGLITE_START_PARAMS });
    } catch (err) {
      process.stderr.write(`preflight: the embedded database template could not be loaded (${(err as Error).message}); initialising afresh\n`);
      clear();
    }
  }
  const db = await PGlite.create(dir ?? undefined, { startParams: PGLITE_START_PARAMS, initDbStartParams: PGLITE_INITDB_PARAMS });
  if (isNew) await dropTemplateDatabases(db);
  return db;
}
