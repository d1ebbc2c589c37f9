// Upgrade without loss: on the first start over a data dir written by the lowdb store, everything in its db.json
// (keys, jobs, idempotency keys, ledger, uploads, webhooks, deliveries, abuse events, spend alerts, gate verdicts)
// and every job's events.jsonl go into the database in one transaction; files go to the object store when it is
// not the data dir itself. Only then is db.json renamed to a backup, so a failed import changes nothing and the next
// start tries again.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { StoreFile, storePath } from '../store/file.js';
import type { StoreData } from '../store/db.js';
import { inTransaction, type Database } from './database.js';
import { LocalObjectStore, type ObjectStore } from './object-store.js';

export interface ImportResult {
  backup: string;
  counts: Record<string, number>;
}

const BATCH = 500;

async function inBatches<T>(records: readonly T[], insert: (batch: readonly T[]) => Promise<void>): Promise<void> {
  for (let i = 0; i < records.length; i += BATCH) await insert(records.slice(i, i + BATCH));
}

function readEvents(home: string, jobId: string): { event_type: string; created_at?: string }[] {
  const path = join(home, 'jobs', jobId, 'events.jsonl');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        const event = JSON.parse(line) as { event_type?: unknown };
        return typeof event.event_type === 'string' ? [event as { event_type: string }] : [];
      } catch {
        return []; // a line cut short by a crash: the rest of the job's events still count
      }
    });
}

/** Files of jobs/<id>/ and uploads/<id>/ copied into an object store that is not the data dir. */
async function copyFiles(home: string, objects: ObjectStore, folder: 'jobs' | 'uploads'): Promise<number> {
  const root = join(home, folder);
  if (!existsSync(root)) return 0;
  let copied = 0;
  for (const id of readdirSync(root)) {
    const dir = join(root, id);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isFile() || entry.name.endsWith('.tmp') || entry.name.endsWith('.part')) continue;
      await objects.put(`${folder}/${id}/${entry.name}`, readFileSync(join(dir, entry.name)));
      copied++;
    }
  }
  return copied;
}

const sameRoot = (objects: ObjectStore, home: string) => objects instanceof LocalObjectStore && objects.root === home;

/** Imports `home`'s db.json when there is one; null when there is nothing to import. */
export async function importLowdb(home: string, db: Database, objects: ObjectStore, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Promise<ImportResult | null> {
  const path = storePath(home);
  if (!existsSync(path)) return null;
  // The same checks the lowdb store made: a damaged file is refused with what to do, never half imported.
  const data = (await new StoreFile(path, join(home, 'jobs')).read()) as unknown as StoreData | null;
  if (!data) return null;
  const sourceSha256 = createHash('sha256').update(readFileSync(path)).digest('hex');
  const counts: Record<string, number> = {};
  await inTransaction(db, async (tx) => {
    // A start that imported this very file and stopped before renaming it must not import it twice.
    const done = await tx.sql.query<{ counts: Record<string, number> }>('SELECT counts FROM store_imports WHERE source_sha256 = $1', [sourceSha256]);
    if (done[0]) {
      Object.assign(counts, done[0].counts);
      return;
    }
    await inBatches(data.apiKeys, (b) => tx.keys.insertMany(b));
    await inBatches(data.jobs, (b) => tx.jobs.insertMany(b));
    await tx.jobs.insertIdempotency(data.idempotency);
    let events = 0;
    for (const job of data.jobs) {
      for (const event of readEvents(home, job.jobId)) {
        await tx.jobs.appendEvent(job.jobId, event);
        events++;
      }
    }
    await inBatches(data.usage, (b) => tx.usage.appendMany(b));
    await inBatches(data.uploads, (b) => tx.uploads.insertMany(b));
    await inBatches(data.webhooks, (b) => tx.webhooks.insertEndpoints(b));
    await inBatches(data.deliveries, (b) => tx.webhooks.insertDeliveries(b));
    await inBatches(data.abuseEvents, (b) => tx.abuseEvents.insertMany(b));
    await inBatches(data.spendAlerts, (b) => tx.spendAlerts.insertMany(b));
    await inBatches(data.gateVerdicts, (b) => tx.gateVerdicts.insertMany(b));
    Object.assign(counts, {
      apiKeys: data.apiKeys.length,
      jobs: data.jobs.length,
      idempotency: data.idempotency.length,
      events,
      usage: data.usage.length,
      uploads: data.uploads.length,
      webhooks: data.webhooks.length,
      deliveries: data.deliveries.length,
      abuseEvents: data.abuseEvents.length,
      spendAlerts: data.spendAlerts.length,
      gateVerdicts: data.gateVerdicts.length,
    });
    await tx.sql.query('INSERT INTO store_imports (source_sha256, source_path, counts) VALUES ($1, $2, $3::jsonb)', [sourceSha256, path, JSON.stringify(counts)]);
  });
  // The embedded engine has no autovacuum: fresh statistics let the planner use the indexes on what was just loaded.
  await db.sql.exec('ANALYZE');
  if (!sameRoot(objects, home)) counts.objects = (await copyFiles(home, objects, 'jobs')) + (await copyFiles(home, objects, 'uploads'));
  const backup = `${path}.imported-${new Date().toISOString().replace(/[:.]/g, '-')}.bak`;
  renameSync(path, backup);
  const summary = Object.entries(counts)
    .map(([name, n]) => `${n} ${name}`)
    .join(', ');
  log(`preflight: imported the old store ${path} into the ${db.sql.kind === 'pglite' ? 'embedded' : 'Postgres'} database (${summary}); the old file is kept as ${backup}`);
  return { backup, counts };
}
