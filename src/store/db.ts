// Records in lowdb (one JSON file, checked when read, written atomically and owner-only); bulky per-job data in files
// under the data dir.
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { Low, type Adapter } from 'lowdb';
import { ServiceError } from '../errors.js';
import type { UsageEntry } from '../billing/ledger.js';
import type { JobRecord } from '../jobs/record.js';
import type { UploadRecord } from '../uploads.js';
import { StoreFile, storePath } from './file.js';
import { restoreInPlace } from './restore.js';
import type { AbuseEventRecord, ApiKeyRecord, GateVerdictRecord, SpendAlertRecord, WebhookDeliveryRecord, WebhookEndpointRecord } from './records.js';

export interface IdempotencyRecord {
  workspaceId: string;
  key: string;
  jobId: string;
  /** Fingerprint of the request that created the job; absent in stores written before it was kept. */
  requestSha256?: string;
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

/** A change that could not be recorded: the request that made it fails, and memory is put back to what is stored. */
function writeFailed(path: string, reason: string): ServiceError {
  return new ServiceError(
    'store_write_failed',
    `The data store ${path} could not record this change (${reason}); nothing was changed. Retry; if it keeps failing, check the disk and the permissions of the data dir.`,
    { reason },
    503,
  );
}

interface Waiter {
  resolve(): void;
  reject(error: Error): void;
}

export class Store {
  /** The store as last serialised: every change made through update() so far. */
  private memoryText: string;
  /** The store as it is on disk. */
  private durableText: string;
  private waiting: Waiter[] = [];
  private writing = false;

  private constructor(
    readonly home: string,
    private readonly db: Low<StoreData>,
    private readonly file: StoreFile,
  ) {
    this.memoryText = this.durableText = JSON.stringify(db.data);
  }

  /** Opens the data dir's store; a damaged or missing store over existing jobs is refused with what to do. */
  static async open(home: string): Promise<Store> {
    const jobsDir = join(home, 'jobs');
    // Not JSONFilePreset: under NODE_ENV=test it silently keeps data in memory.
    const file = new StoreFile(storePath(home), jobsDir);
    const db = new Low<StoreData>(file as unknown as Adapter<StoreData>, structuredClone(EMPTY));
    await db.read();
    db.data ??= structuredClone(EMPTY);
    mkdirSync(jobsDir, { recursive: true, mode: 0o700 });
    return new Store(home, db, file);
  }

  get data(): StoreData {
    return this.db.data;
  }

  /**
   * Mutate, then write; writes are serialised and atomic. A change that cannot be stored (a value JSON cannot hold,
   * a disk that refuses the write) rejects with store_write_failed and is undone in memory, so it fails its own
   * request and never the next one. Resolves once the change is on disk.
   */
  update(mutate: (data: StoreData) => void): Promise<void> {
    const before = this.memoryText;
    try {
      mutate(this.db.data);
      this.memoryText = JSON.stringify(this.db.data);
    } catch (err) {
      this.restore(before);
      return Promise.reject(err instanceof ServiceError ? err : writeFailed(this.file.path, (err as Error).message));
    }
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      if (!this.writing) void this.writeWaiting();
    });
  }

  /** Best effort: writes what changed in memory (progress) without anyone waiting for it; a failure is logged. */
  persistSoon(): void {
    this.update(() => {}).catch((err: Error) => process.stderr.write(`preflight: ${err.message}\n`));
  }

  /** Writes until nobody waits; each pass writes the latest state for everyone who was waiting when it began. */
  private async writeWaiting(): Promise<void> {
    this.writing = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0);
      const text = this.memoryText;
      try {
        await this.file.writeText(text);
        this.durableText = text;
        for (const waiter of batch) waiter.resolve();
      } catch (err) {
        // Everything not on disk is undone, and everyone who made such a change is told.
        const failed = [...batch, ...this.waiting.splice(0)];
        this.restore(this.durableText);
        const error = writeFailed(this.file.path, (err as NodeJS.ErrnoException).code ?? (err as Error).message);
        for (const waiter of failed) waiter.reject(error);
      }
    }
    this.writing = false;
  }

  private restore(text: string): void {
    restoreInPlace(this.db.data as unknown as Parameters<typeof restoreInPlace>[0], JSON.parse(text));
    this.memoryText = text;
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
