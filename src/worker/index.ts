// The queue worker: queued jobs and webhook deliveries go to pg-boss (on the embedded database or the Postgres
// server), and a worker takes them, up to its concurrency at once. `preflight worker` runs one; `preflight serve` runs
// the same one in-process unless --no-worker (then it only enqueues); `preflight mcp` starts one when a job is queued.
import type { PreflightService } from '../service.js';
import { JobQueue, QUEUES, RARE_QUEUE, queueSchema } from '../storage/queue.js';
import { retentionDays, scheduleRetention } from '../storage/retention.js';
import type { WebhookService } from '../webhooks/index.js';
import { queueDelivery, queueOverdueDeliveries, workDeliveries } from './deliveries.js';

export { defaultConcurrency, parseConcurrency } from './concurrency.js';

export interface WorkerOptions {
  service: PreflightService;
  /** Deliveries are sent by this worker too when given (serve and worker have webhooks; mcp has none). */
  webhooks?: WebhookService | null;
  env: NodeJS.ProcessEnv;
  /** Queued jobs run here at once, at most; deliveries get as many slots (at least 2). */
  concurrency: number;
  /** false: hand jobs to the queue only (serve --no-worker); workers elsewhere take them. */
  work?: boolean;
  /** Runs the daily retention job (docs/deploy.md "Retention"); default true, false for `preflight mcp`. */
  retention?: boolean;
}

/** Pending deliveries overdue by this much lost their queue job (a crash between insert and send): queued again. */
const OVERDUE_DELIVERY_MS = 60_000;

interface JobData {
  jobId: string;
}

const log = (line: string) => process.stderr.write(`preflight worker: ${line}\n`);

export class QueueWorker {
  private readonly timers: NodeJS.Timeout[] = [];
  private stopped: Promise<void> | null = null;

  private constructor(
    readonly queue: JobQueue,
    private readonly opts: WorkerOptions,
  ) {}

  static async start(opts: WorkerOptions): Promise<QueueWorker> {
    const { service, webhooks, env } = opts;
    const work = opts.work ?? true;
    const url = service.records.sql.kind === 'postgres' ? (env.PREFLIGHT_DATABASE_URL?.trim() ?? null) : null;
    const queue = await JobQueue.start({ sql: service.records.sql, url, schema: queueSchema(env), schedule: work && (opts.retention ?? true) });
    const worker = new QueueWorker(queue, opts);
    service.attachQueue((jobId) => queue.sendOnce<JobData>(QUEUES.qcJob, { jobId }, jobId));
    try {
      if (work) await worker.startWorking();
      else webhooks?.attachQueue((deliveryId) => queueDelivery(queue, deliveryId));
    } catch (err) {
      await worker.stop(0);
      throw err;
    }
    return worker;
  }

  private async startWorking(): Promise<void> {
    const { service, webhooks, env, concurrency } = this.opts;
    const queue = this.queue;
    queue.work<JobData>(QUEUES.qcJob, concurrency, async ({ data }) => ({ ran: (await service.runQueued(data.jobId)) !== null }));
    queue.work<JobData>(QUEUES.qcJobDead, 1, async ({ data }) => ({ failed: await service.abandonJob(data.jobId) }), RARE_QUEUE);
    if (webhooks) workDeliveries(queue, webhooks, Math.max(2, concurrency));
    if (this.opts.retention ?? true) await scheduleRetention(queue, service.records, service.objectStore, retentionDays(env));

    // Jobs queued while no queue was there (an older data dir, a process without one, a failed send) are queued now;
    // one waiting queue job per record, so this never runs a job twice.
    for (const jobId of await service.records.jobs.queuedIds()) await queue.sendOnce<JobData>(QUEUES.qcJob, { jobId }, jobId);
    if (webhooks) await queueOverdueDeliveries(queue, webhooks, new Date());
    // A job whose worker died (kill -9, a lost machine) comes back when its lease runs out.
    this.every(Math.max(1000, Math.floor(service.leaseMs / 2)), () => service.recoverJobs());
    if (webhooks) this.every(OVERDUE_DELIVERY_MS, () => queueOverdueDeliveries(queue, webhooks, new Date(Date.now() - OVERDUE_DELIVERY_MS)));
  }

  private every(ms: number, task: () => Promise<unknown>): void {
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      task()
        .catch((err: Error) => log(err.message))
        .finally(() => (busy = false));
    }, ms);
    timer.unref();
    this.timers.push(timer);
  }

  /**
   * Stops taking jobs and lets the running ones finish for up to `graceMs`; the ones still running then are handed
   * back (queued again, for another worker or the next start). Then the queue closes. Safe to call twice.
   */
  stop(graceMs = 30_000): Promise<void> {
    this.stopped ??= this.stopNow(graceMs);
    return this.stopped;
  }

  private async stopNow(graceMs: number): Promise<void> {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    const finished = this.queue.stopWorking();
    let timer: NodeJS.Timeout | undefined;
    const inTime = await Promise.race([finished.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), graceMs)))]);
    clearTimeout(timer);
    if (!inTime) {
      log('handing the jobs still running back to the queue');
      await this.opts.service.handBack();
      await finished;
    }
    await this.queue.stop(0);
    this.opts.service.attachQueue(null);
    this.opts.webhooks?.attachQueue(null);
  }
}

/**
 * A worker started when the first job is queued, or at once when queued jobs are waiting: `preflight mcp` pays for
 * the queue only when it is used. Its start queues every waiting job, the one that started it included. It runs no
 * retention: a local data dir is its user's to clear.
 */
export function workerOnDemand(opts: Omit<WorkerOptions, 'work' | 'retention'>): { stop(graceMs?: number): Promise<void> } {
  let started: Promise<QueueWorker> | null = null;
  const start = () =>
    (started ??= QueueWorker.start({ ...opts, work: true, retention: false }).catch((err: Error) => {
      started = null;
      throw err;
    }));
  opts.service.attachQueue(() => start());
  opts.service.records.jobs
    .queuedIds(1)
    .then((ids) => (ids.length ? start() : null))
    .catch((err: Error) => log(`could not start: ${err.message}`));
  return {
    async stop(graceMs) {
      const worker = await started?.catch(() => null);
      await worker?.stop(graceMs);
    },
  };
}
