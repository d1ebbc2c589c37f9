// Records in lowdb (one JSON file, atomic writes via steno); bulky per-job data in files under the data dir.
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import type { UsageEntry } from '../billing/ledger.js';
import type { JobRecord } from '../jobs/record.js';
import type { UploadRecord } from '../uploads.js';
import type { AbuseEventRecord, ApiKeyRecord, GateVerdictRecord, SpendAlertRecord, WebhookDeliveryRecord, WebhookEndpointRecord } from './records.js';

export interface IdempotencyRecord {
  workspaceId: string;
  key: string;
  jobId: string;
}

export interface StoreData {
  version: 1;
  jobs: JobRecord[];
  usage: UsageEntry[];
  idempotency: IdempotencyRecord[];
  uploads: UploadRecord[];
  apiKeys: ApiKeyRecord[];
  abuseEvents: AbuseEventRecord[];
  spendAlerts: SpendAlertRecord[];
  webhooks: WebhookEndpointRecord[];
  deliveries: WebhookDeliveryRecord[];
  gateVerdicts: GateVerdictRecord[];
}

const EMPTY: StoreData = {
  version: 1,
  jobs: [],
  usage: [],
  idempotency: [],
  uploads: [],
  apiKeys: [],
  abuseEvents: [],
  spendAlerts: [],
  webhooks: [],
  deliveries: [],
  gateVerdicts: [],
};

export class Store {
  private constructor(
    readonly home: string,
    private readonly db: Low<StoreData>,
  ) {}

  static async open(home: string): Promise<Store> {
    mkdirSync(join(home, 'jobs'), { recursive: true, mode: 0o700 });
    // Not JSONFilePreset: under NODE_ENV=test it silently keeps data in memory.
    const db = new Low<StoreData>(new JSONFile<StoreData>(join(home, 'db.json')), structuredClone(EMPTY));
    await db.read();
    db.data = { ...structuredClone(EMPTY), ...(db.data ?? {}) };
    return new Store(home, db);
  }

  get data(): StoreData {
    return this.db.data;
  }

  /** Mutate, then write; writes are serialised and atomic. */
  async update(mutate: (data: StoreData) => void): Promise<void> {
    mutate(this.db.data);
    await this.db.write();
  }

  uploadDir(uploadId: string): string {
    return join(this.home, 'uploads', uploadId);
  }

  jobDir(jobId: string): string {
    const dir = join(this.home, 'jobs', jobId);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  /** Writes a per-job file atomically (temp file + rename). */
  writeJobFile(jobId: string, name: string, content: string | Buffer): { path: string; bytes: number } {
    const path = join(this.jobDir(jobId), name);
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, content, { mode: 0o600 });
    renameSync(tmp, path);
    return { path, bytes: Buffer.byteLength(content) };
  }

  readJobFile(jobId: string, name: string): string | null {
    const path = join(this.home, 'jobs', jobId, name);
    return existsSync(path) ? readFileSync(path, 'utf8') : null;
  }

  appendJobLine(jobId: string, name: string, line: unknown): void {
    appendFileSync(join(this.jobDir(jobId), name), `${JSON.stringify(line)}\n`, { mode: 0o600 });
  }

  readJobLines<T>(jobId: string, name: string): T[] {
    const text = this.readJobFile(jobId, name);
    if (!text) return [];
    return text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as T);
  }

  jobFiles(jobId: string): string[] {
    const dir = join(this.home, 'jobs', jobId);
    return existsSync(dir) ? readdirSync(dir).filter((f) => !f.endsWith('.tmp')) : [];
  }
}
