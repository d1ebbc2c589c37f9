// Retention: reports, artifacts, events and uploaded media older than a configurable age are removed by a scheduled
// job. Kept for good: job records (status, verdict, minutes), the usage ledger, and each job's signed receipt, so
// a receipt stays verifiable and a bill explainable after its report is gone.
import type { Database } from './database.js';
import type { ObjectStore } from './object-store.js';
import { QUEUES, RARE_QUEUE, type JobQueue } from './queue.js';

export const DEFAULT_RETENTION_DAYS = 90;
const MAX_RETENTION_DAYS = 3650;
const RECEIPT_FILE = 'receipt.json';
/** Daily, at an odd minute so that many deployments do not all run at once. */
export const RETENTION_CRON = '17 3 * * *';

export interface RetentionResult {
  jobs: number;
  objects: number;
  events: number;
  uploads: number;
}

/** PREFLIGHT_RETENTION_DAYS: whole days, 1 to 3650; 90 when unset. */
export function retentionDays(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.PREFLIGHT_RETENTION_DAYS?.trim();
  if (!raw) return DEFAULT_RETENTION_DAYS;
  const days = Number(raw);
  if (!Number.isInteger(days) || days < 1 || days > MAX_RETENTION_DAYS) {
    throw new Error(`PREFLIGHT_RETENTION_DAYS must be a whole number of days from 1 to ${MAX_RETENTION_DAYS}, got ${JSON.stringify(raw)}`);
  }
  return days;
}

export async function runRetention(db: Database, objects: ObjectStore, opts: { maxAgeDays: number; now?: Date; batch?: number }): Promise<RetentionResult> {
  const cutoff = new Date((opts.now ?? new Date()).getTime() - opts.maxAgeDays * 86_400_000);
  const batch = opts.batch ?? 500;
  const result: RetentionResult = { jobs: 0, objects: 0, events: 0, uploads: 0 };
  for (;;) {
    const jobs = await db.jobs.finishedBefore(cutoff, batch);
    for (const job of jobs) {
      for await (const object of objects.list(`jobs/${job.jobId}/`)) {
        if (object.key.endsWith(`/${RECEIPT_FILE}`)) continue;
        await objects.delete(object.key);
        result.objects++;
      }
      await db.jobs.markObjectsRemoved(
        job.jobId,
        job.artifacts.filter((a) => a.file === RECEIPT_FILE),
      );
      result.jobs++;
    }
    if (jobs.length < batch) break;
  }
  result.events = await db.jobs.deleteEventsBefore(cutoff);
  for (;;) {
    const uploads = await db.uploads.createdBefore(cutoff, batch);
    for (const upload of uploads) {
      result.objects += await objects.deletePrefix(`uploads/${upload.uploadId}/`);
      await db.uploads.delete(upload.uploadId);
      result.uploads++;
    }
    if (uploads.length < batch) break;
  }
  return result;
}

/** Runs retention daily through the queue: whichever worker takes the day's job runs it, once. */
export async function scheduleRetention(queue: JobQueue, db: Database, objects: ObjectStore, maxAgeDays: number): Promise<void> {
  await queue.boss.schedule(QUEUES.retention, RETENTION_CRON, {});
  queue.work(QUEUES.retention, 1, async () => {
    const removed = await runRetention(db, objects, { maxAgeDays });
    process.stderr.write(
      `preflight: retention (${maxAgeDays} days): removed the objects of ${removed.jobs} job(s), ${removed.objects} object(s), ${removed.events} event(s), ${removed.uploads} upload(s)\n`,
    );
    return removed;
  }, RARE_QUEUE);
}
