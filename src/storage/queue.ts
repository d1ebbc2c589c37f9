// The queue: pg-boss on either engine. On a Postgres server pg-boss keeps its own pool, and any number of processes
// take jobs from the same tables (SKIP LOCKED); on PGlite it runs through a small adapter over the embedded database.
// pg-boss stores, hands out, retries and dead-letters; the loop that runs handlers is ours (QueueLoop), so a handler
// holds its slot for as long as it runs: pg-boss's own worker gives a slot up when a job outlives its expiry.
import PgBoss from 'pg-boss';
import type { SqlClient } from './sql.js';

export const QUEUES = {
  qcJob: 'qc-job',
  qcJobDead: 'qc-job-dead',
  webhookDelivery: 'webhook-delivery',
  webhookDeliveryDead: 'webhook-delivery-dead',
  retention: 'retention',
} as const;

/** Dead letters and the daily retention job are rare: their loops ask for jobs every 30 s (a send here wakes them). */
export const RARE_QUEUE = { pollingIntervalSeconds: 30 };

/** Attempts of a queue job whose handler threw (a store error, say) before it is dead-lettered: the first and 2 retries. */
export const QUEUE_RETRY_LIMIT = 2;

export interface QueueOptions {
  sql: SqlClient;
  /** The Postgres server's URL when `sql` is one (pg-boss then opens its own pool on it). */
  url?: string | null;
  /** pg-boss's tables live in this schema (default `pgboss`). */
  schema?: string;
  /**
   * How long a queue job may stay active before pg-boss's maintenance fails and retries it: a backstop for a
   * process that died holding it (the job records' own leases bring their jobs back much sooner).
   */
  leaseSeconds?: number;
  /** Retries after the first attempt, whether the handler threw or its worker died. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** How often expired jobs are looked for (pg-boss maintenance). */
  maintenanceIntervalSeconds?: number;
  /** How often an idle loop asks for jobs (a job sent by this process wakes its loop at once). */
  pollingIntervalSeconds?: number;
  /** Runs cron schedules (retention): pg-boss sends each scheduled job once, whichever processes run schedules. */
  schedule?: boolean;
}

export interface QueuedJob<T> {
  id: string;
  data: T;
  /** 0 on the first attempt. */
  retryCount: number;
}

/** The queue's schema for a deployment: beside PREFLIGHT_DATABASE_SCHEMA when one is set, else `pgboss`. */
export function queueSchema(env: NodeJS.ProcessEnv): string {
  const schema = env.PREFLIGHT_DATABASE_SCHEMA?.trim();
  return schema ? `${schema.slice(0, 56)}_queue` : 'pgboss';
}

/** pg-boss's `db` over the embedded engine: parameterless text may hold several statements, so it goes to exec. */
export function pgBossDb(sql: SqlClient): PgBoss.Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (!values || values.length === 0) {
        if (sql.kind === 'pglite') {
          const results = await (sql as SqlClient & { db: { exec(t: string): Promise<{ rows: unknown[] }[]> } }).db.exec(text);
          return { rows: results.at(-1)?.rows ?? [] };
        }
        await sql.exec(text);
        return { rows: [] };
      }
      return { rows: await sql.query(text, values) };
    },
  };
}

/**
 * Runs a queue's handler for up to `concurrency` jobs at once: fetches as many as it has free slots, completes a job
 * whose handler returned and fails (retries, then dead-letters) one whose handler threw.
 */
export class QueueLoop<T> {
  private readonly running = new Set<Promise<void>>();
  private stopping = false;
  private wakeUp: (() => void) | null = null;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly boss: PgBoss,
    readonly name: string,
    private readonly concurrency: number,
    private readonly handler: (job: QueuedJob<T>) => Promise<unknown>,
    private readonly pollMs: number,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** Asks for jobs now (one was just sent, or a slot came free). */
  wake(): void {
    this.wakeUp?.();
  }

  /** Jobs whose handlers are running now. */
  get active(): number {
    return this.running.size;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      const free = this.concurrency - this.running.size;
      let fetched = 0;
      if (free > 0) {
        try {
          const jobs = await this.boss.fetch<T>(this.name, { batchSize: free, includeMetadata: true });
          fetched = jobs.length;
          for (const job of jobs) this.handle({ id: job.id, data: job.data, retryCount: job.retryCount });
        } catch (err) {
          process.stderr.write(`preflight: queue ${this.name}: could not fetch jobs: ${(err as Error).message}\n`);
        }
      }
      // A full batch may mean more are waiting: ask again at once while there are free slots.
      if (this.stopping || (fetched > 0 && fetched === free)) continue;
      await new Promise<void>((resume) => {
        const timer = setTimeout(done, this.pollMs);
        function done() {
          clearTimeout(timer);
          resume();
        }
        this.wakeUp = done;
      });
      this.wakeUp = null;
    }
  }

  private handle(job: QueuedJob<T>): void {
    const run = this.settle(job).catch((err: Error) => {
      // Left active: pg-boss's maintenance takes the job back after its expiry.
      process.stderr.write(`preflight: queue ${this.name}: could not settle job ${job.id}: ${err.message}\n`);
    });
    this.running.add(run);
    void run.finally(() => {
      this.running.delete(run);
      this.wake();
    });
  }

  private async settle(job: QueuedJob<T>): Promise<void> {
    let output: unknown;
    try {
      output = await this.handler(job);
    } catch (err) {
      await this.boss.fail(this.name, job.id, { message: (err as Error)?.message ?? String(err) });
      return;
    }
    await this.boss.complete(this.name, job.id, output && typeof output === 'object' ? (output as object) : undefined);
  }

  /** Stops fetching; resolves when the running handlers have returned. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
    await Promise.allSettled([...this.running]);
  }
}

export class JobQueue {
  private readonly loops: QueueLoop<never>[] = [];

  private constructor(
    readonly boss: PgBoss,
    private readonly options: QueueOptions,
  ) {}

  static async start(options: QueueOptions): Promise<JobQueue> {
    const common = {
      schema: options.schema ?? 'pgboss',
      supervise: true,
      schedule: options.schedule ?? false,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
      // Finished jobs' queue rows are archived after a day and dropped after a week: the records that matter are ours.
      archiveCompletedAfterSeconds: 24 * 3600,
      deleteAfterDays: 7,
    };
    const boss = options.url ? new PgBoss({ ...common, connectionString: options.url, max: 4 }) : new PgBoss({ ...common, db: pgBossDb(options.sql) });
    boss.on('error', (err: Error) => process.stderr.write(`preflight: queue: ${err.message}\n`));
    await boss.start();
    const queue = new JobQueue(boss, options);
    try {
      await queue.createQueuesRacing();
    } catch (err) {
      await boss.stop({ graceful: false, wait: true, close: true }).catch(() => {});
      throw err;
    }
    return queue;
  }

  /**
   * Processes starting together on one server create the queues at once; pg-boss's queue creation (a partition per
   * queue) can deadlock with itself or find a queue half made. The loser tries again and finds the queue there.
   */
  private async createQueuesRacing(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.createQueues();
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (attempt >= 5 || !['40P01', '23505', '42P07', '42710'].includes(code ?? '')) throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 400 * attempt));
      }
    }
  }

  private async createQueues(): Promise<void> {
    const lease = {
      expireInSeconds: this.options.leaseSeconds ?? 15 * 60,
      retryLimit: this.options.retryLimit ?? QUEUE_RETRY_LIMIT,
      retryDelay: this.options.retryDelaySeconds ?? 5,
      // One waiting job per record: sending a job again while one waits for it is a no-op (sendOnce).
      policy: 'short' as const,
    };
    for (const [name, dead] of [
      [QUEUES.qcJob, QUEUES.qcJobDead],
      [QUEUES.webhookDelivery, QUEUES.webhookDeliveryDead],
    ] as const) {
      if (!(await this.boss.getQueue(dead))) await this.boss.createQueue(dead, { name: dead });
      if (!(await this.boss.getQueue(name))) await this.boss.createQueue(name, { name, deadLetter: dead, ...lease });
    }
    if (!(await this.boss.getQueue(QUEUES.retention))) await this.boss.createQueue(QUEUES.retention, { name: QUEUES.retention, retryLimit: 1, expireInSeconds: 3600 });
  }

  /**
   * Queues a job; resolves with the queue's id for it. On the record queues (qc-job, webhook-delivery) use sendOnce:
   * their policy keeps one waiting job per key, and a job without a key has the empty key.
   */
  async send<T extends object>(name: string, data: T, options: { startAfter?: Date } = {}): Promise<string> {
    const id = await this.post(name, data, options);
    if (!id) throw new Error(`the queue ${name} refused the job`);
    return id;
  }

  /**
   * Queues a job for `key` (a record's id) unless one for it is already waiting, which then stands for both: resolves
   * with the new job's id, or null.
   */
  sendOnce<T extends object>(name: string, data: T, key: string, options: { startAfter?: Date } = {}): Promise<string | null> {
    return this.post(name, data, { ...options, singletonKey: key });
  }

  private async post(name: string, data: object, options: { singletonKey?: string; startAfter?: Date }): Promise<string | null> {
    const id = await this.boss.send(name, data, options);
    if (id && !options.startAfter) for (const loop of this.loops) if (loop.name === name) loop.wake();
    return id;
  }

  /**
   * Runs `handler` for jobs of `name`, up to `concurrency` at once in this process. A handler that throws fails the
   * attempt (retried, then dead-lettered); one that returns completes it. An idle loop asks for jobs every
   * `pollingIntervalSeconds` (the queue's default unless given: rare queues ask less often).
   */
  work<T>(name: string, concurrency: number, handler: (job: QueuedJob<T>) => Promise<unknown>, opts: { pollingIntervalSeconds?: number } = {}): QueueLoop<T> {
    const pollSeconds = opts.pollingIntervalSeconds ?? this.options.pollingIntervalSeconds ?? 2;
    const loop = new QueueLoop<T>(this.boss, name, Math.max(1, concurrency), handler, pollSeconds * 1000);
    this.loops.push(loop as unknown as QueueLoop<never>);
    loop.start();
    return loop;
  }

  /** Stops taking jobs; resolves when the handlers running now have returned. The queue stays open for sends. */
  async stopWorking(): Promise<void> {
    await Promise.allSettled(this.loops.map((l) => l.stop()));
  }

  /**
   * Stops taking jobs and waits up to `timeoutMs` for running handlers (a job still running then is left active:
   * pg-boss takes it back after its expiry), then closes the queue.
   */
  async stop(timeoutMs = 30_000): Promise<void> {
    const loops = this.loops.splice(0);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled(loops.map((l) => l.stop())), new Promise<void>((r) => (timer = setTimeout(r, timeoutMs)))]);
    clearTimeout(timer);
    await this.boss.stop({ graceful: false, wait: true, close: true });
  }
}
