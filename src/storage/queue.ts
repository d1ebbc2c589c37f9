// The queue: pg-boss on either engine. On a Postgres server pg-boss keeps its own pool, and any number of processes
// claim from the same tables (SKIP LOCKED); on PGlite it runs through a small adapter over the embedded database.
// A job a worker holds longer than its lease (expireInSeconds) is failed by pg-boss's maintenance and retried, up to
// retryLimit; a job out of retries goes to the queue's dead-letter queue.
import PgBoss from 'pg-boss';
import type { SqlClient } from './sql.js';

export const QUEUES = {
  qcJob: 'qc-job',
  qcJobDead: 'qc-job-dead',
  webhookDelivery: 'webhook-delivery',
  webhookDeliveryDead: 'webhook-delivery-dead',
  retention: 'retention',
} as const;

export interface QueueOptions {
  sql: SqlClient;
  /** The Postgres server's URL when `sql` is one (pg-boss then opens its own pool on it). */
  url?: string | null;
  /** pg-boss's tables live in this schema (default `pgboss`). */
  schema?: string;
  /** How long a worker may hold a job before it is taken back and retried. */
  leaseSeconds?: number;
  /** Retries after the first attempt, whether the handler threw or its worker died. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** How often expired leases are looked for (pg-boss maintenance). */
  maintenanceIntervalSeconds?: number;
  pollingIntervalSeconds?: number;
  /** Runs cron schedules (retention); one process per deployment is enough, more is harmless. */
  schedule?: boolean;
}

export interface QueuedJob<T> {
  id: string;
  data: T;
  /** 0 on the first attempt. */
  retryCount: number;
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

export class JobQueue {
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
    await queue.createQueues();
    return queue;
  }

  private async createQueues(): Promise<void> {
    const lease = { expireInSeconds: this.options.leaseSeconds ?? 15 * 60, retryLimit: this.options.retryLimit ?? 2, retryDelay: this.options.retryDelaySeconds ?? 5 };
    for (const [name, dead] of [
      [QUEUES.qcJob, QUEUES.qcJobDead],
      [QUEUES.webhookDelivery, QUEUES.webhookDeliveryDead],
    ] as const) {
      if (!(await this.boss.getQueue(dead))) await this.boss.createQueue(dead, { name: dead });
      if (!(await this.boss.getQueue(name))) await this.boss.createQueue(name, { name, deadLetter: dead, ...lease });
    }
    if (!(await this.boss.getQueue(QUEUES.retention))) await this.boss.createQueue(QUEUES.retention, { name: QUEUES.retention, retryLimit: 1, expireInSeconds: 3600 });
  }

  /** Queues a job; resolves with the queue's id for it. */
  async send<T extends object>(name: string, data: T): Promise<string> {
    const id = await this.boss.send(name, data);
    if (!id) throw new Error(`the queue ${name} refused the job`);
    return id;
  }

  /**
   * Runs `handler` for jobs of `name`, up to `concurrency` at once in this process. A handler that throws fails the
   * attempt (retried, then dead-lettered); one that returns completes it.
   */
  async work<T>(name: string, concurrency: number, handler: (job: QueuedJob<T>) => Promise<unknown>): Promise<void> {
    const pollingIntervalSeconds = this.options.pollingIntervalSeconds ?? 2;
    for (let i = 0; i < Math.max(1, concurrency); i++) {
      await this.boss.work<T>(name, { batchSize: 1, pollingIntervalSeconds, includeMetadata: true }, async ([job]) => {
        if (job) return handler({ id: job.id, data: job.data, retryCount: job.retryCount });
      });
    }
  }

  /** Stops taking jobs; waits up to `timeoutMs` for running handlers, whose jobs otherwise go back after their lease. */
  async stop(timeoutMs = 30_000): Promise<void> {
    await this.boss.stop({ graceful: true, wait: true, timeout: timeoutMs, close: true });
  }
}
