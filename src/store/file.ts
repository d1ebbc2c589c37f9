// The store file on disk: read and checked before anything runs on it, written atomically and readable by the owner
// only (it holds API key hashes and owner emails), whatever the data dir's own mode.
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Adapter } from 'lowdb';
import { ServiceError } from '../errors.js';

export const STORE_FILE = 'db.json';
export const STORE_FILE_MODE = 0o600;

/** Every collection of the store and the field that identifies one of its records. */
export const COLLECTION_IDS = {
  jobs: 'jobId',
  usage: 'entryId',
  idempotency: 'key',
  uploads: 'uploadId',
  apiKeys: 'keyId',
  abuseEvents: 'eventId',
  spendAlerts: 'alertId',
  webhooks: 'webhookId',
  deliveries: 'deliveryId',
  gateVerdicts: 'importId',
} as const;
export type CollectionName = keyof typeof COLLECTION_IDS;
export const COLLECTIONS = Object.keys(COLLECTION_IDS) as CollectionName[];

type Shape = { version: 1 } & { [K in CollectionName]: Record<string, unknown>[] };

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function damaged(path: string, jobsDir: string, problem: string): ServiceError {
  return new ServiceError(
    'store_damaged',
    `The data store ${path} is damaged: ${problem}. Preflight did not start and changed nothing. Restore ${path} from a backup, or move it aside to start with an empty store (the jobs it lists are then forgotten; their folders stay in ${jobsDir}).`,
    { path, problem },
    503,
  );
}

/** The first thing wrong with a parsed store, or null. A collection an older store lacks is not a fault. */
function shapeProblem(data: unknown): string | null {
  if (!isPlainObject(data)) return 'it is not a JSON object';
  if (data.version !== 1) return `its "version" is ${JSON.stringify(data.version) ?? 'missing'}, expected 1`;
  for (const name of COLLECTIONS) {
    const records = data[name];
    if (records === undefined) continue;
    if (!Array.isArray(records)) return `"${name}" is not a list`;
    const id = COLLECTION_IDS[name];
    const bad = records.findIndex((r) => !isPlainObject(r) || typeof r[id] !== 'string');
    if (bad >= 0) return `${name}[${bad}] is not a record with a string "${id}"`;
  }
  return null;
}

function jobFolders(jobsDir: string): number {
  if (!existsSync(jobsDir)) return 0;
  return readdirSync(jobsDir, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name.startsWith('job_')).length;
}

/** lowdb's adapter for the store file: a checked read, an atomic owner-only write. */
export class StoreFile implements Adapter<Shape> {
  private writes = 0;

  constructor(
    readonly path: string,
    private readonly jobsDir: string,
  ) {}

  /** The stored data; null for a new data dir. Throws store_damaged / store_missing rather than start empty over data. */
  async read(): Promise<Shape | null> {
    if (!existsSync(this.path)) {
      const folders = jobFolders(this.jobsDir);
      if (folders > 0) {
        throw new ServiceError(
          'store_missing',
          `The data store ${this.path} is missing, but ${folders} job folder(s) exist in ${this.jobsDir}: Preflight will not start an empty store over them. Restore ${this.path} from a backup; to start empty anyway, move ${this.jobsDir} aside.`,
          { path: this.path, jobFolders: folders },
          503,
        );
      }
      return null;
    }
    if ((statSync(this.path).mode & 0o077) !== 0) chmodSync(this.path, STORE_FILE_MODE);
    const text = readFileSync(this.path, 'utf8');
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      const what = text.trim() === '' ? 'it is empty' : `it is not valid JSON (${(err as Error).message}; truncated?)`;
      throw damaged(this.path, this.jobsDir, what);
    }
    const problem = shapeProblem(data);
    if (problem) throw damaged(this.path, this.jobsDir, problem);
    const stored = data as Partial<Shape>;
    return Object.fromEntries([['version', 1], ...COLLECTIONS.map((name) => [name, stored[name] ?? []])]) as Shape;
  }

  /** Writes the whole store: a new owner-only temp file beside it, then a rename, so a crash never leaves half a file. */
  async write(data: Shape): Promise<void> {
    await this.writeText(JSON.stringify(data));
  }

  async writeText(text: string): Promise<void> {
    const temp = `${this.path}.${process.pid}.${++this.writes}.tmp`;
    try {
      await writeFile(temp, text, { flag: 'wx', mode: STORE_FILE_MODE });
      await rename(temp, this.path);
    } catch (err) {
      rmSync(temp, { force: true });
      throw err;
    }
  }
}

export const storePath = (home: string) => join(home, STORE_FILE);
