// Jobs: the record as the service knows it, its idempotency key, and its events. A claim is one conditional UPDATE,
// so of two workers handed the same job only one runs it.
import { ServiceError } from '../../errors.js';
import type { JobRecord } from '../../jobs/record.js';
import type { SqlClient, SqlRunner } from '../sql.js';

export interface JobEventRow {
  event_type: string;
  created_at: string;
  [field: string]: unknown;
}

export interface ListJobsFilter {
  /** Omitted: every workspace (operator). */
  workspaceId?: string;
  status?: string;
  sourceUrlSha256?: string;
  jobId?: string;
  limit: number;
}

export interface IdempotencyHit {
  jobId: string;
  requestSha256: string | null;
}

const ACTIVE = ['queued', 'running'];

/** Runs of a queued job in all: the first, and two more when its worker died (kill -9, a lost machine). */
export const JOB_ATTEMPTS = 3;

/** The attempts a record has used (0 before its first claim; older records have none). */
const ATTEMPTS = `COALESCE((doc->>'attempts')::int, 0)`;

async function failInterrupted(tx: SqlRunner, at: Date, where: string, params: unknown[]): Promise<JobRecord[]> {
  const rows = await tx.query<{ doc: JobRecord }>(
    `UPDATE jobs SET status = 'failed', completed_at = $1, claimed_by = NULL, lease_until = NULL,
       doc = doc || jsonb_build_object('status', 'failed', 'failureReason', 'interrupted', 'minutesMetered', 0, 'completedAt', $2::text, 'stage', NULL, 'request', NULL)
     WHERE ${where} RETURNING doc`,
    [at, at.toISOString(), ...params],
  );
  return rows.map((r) => r.doc);
}

function columns(r: JobRecord): unknown[] {
  return [r.jobId, r.workspaceId, r.status, r.createdAt, r.completedAt, r.sourceUrlSha256 ?? null, JSON.stringify(r)];
}

async function write(tx: SqlRunner, r: JobRecord): Promise<void> {
  await tx.query(
    `UPDATE jobs SET workspace_id = $2, status = $3, created_at = $4, completed_at = $5, source_url_sha256 = $6, doc = $7::jsonb WHERE job_id = $1`,
    columns(r),
  );
}

export class JobsRepository {
  constructor(private readonly sql: SqlClient) {}

  /**
   * Records a new job, and its idempotency key in the same transaction. When the key is already taken the job is not
   * created and the earlier job's id is returned instead.
   */
  async create(
    record: JobRecord,
    idempotency?: { key: string; requestSha256: string | null } | null,
    lease?: { workerId: string; leaseMs: number },
  ): Promise<{ created: boolean; jobId: string }> {
    return this.sql.transaction(async (tx) => {
      if (idempotency) {
        const taken = await tx.query<{ job_id: string }>(
          `INSERT INTO idempotency (workspace_id, key, job_id, request_sha256) VALUES ($1, $2, $3, $4)
           ON CONFLICT (workspace_id, key) DO NOTHING RETURNING job_id`,
          [record.workspaceId, idempotency.key, record.jobId, idempotency.requestSha256],
        );
        if (taken.length === 0) {
          const [hit] = await tx.query<{ job_id: string }>('SELECT job_id FROM idempotency WHERE workspace_id = $1 AND key = $2', [record.workspaceId, idempotency.key]);
          return { created: false, jobId: hit!.job_id };
        }
      }
      await tx.query(
        `INSERT INTO jobs (job_id, workspace_id, status, created_at, completed_at, source_url_sha256, doc, claimed_by, lease_until)
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9)`,
        [...columns(record), lease?.workerId ?? null, lease ? new Date(Date.now() + lease.leaseMs) : null],
      );
      return { created: true, jobId: record.jobId };
    });
  }

  /** Many jobs in one statement (the lowdb import and the benchmark's seeding). */
  async insertMany(records: readonly JobRecord[]): Promise<void> {
    if (records.length === 0) return;
    const values: unknown[] = [];
    const rows = records.map((r, i) => {
      values.push(...columns(r));
      const b = i * 7;
      return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}, $${b + 7}::jsonb)`;
    });
    await this.sql.query(
      `INSERT INTO jobs (job_id, workspace_id, status, created_at, completed_at, source_url_sha256, doc) VALUES ${rows.join(', ')} ON CONFLICT (job_id) DO NOTHING`,
      values,
    );
  }

  async get(jobId: string): Promise<JobRecord | null> {
    const [row] = await this.sql.query<{ doc: JobRecord }>('SELECT doc FROM jobs WHERE job_id = $1', [jobId]);
    return row?.doc ?? null;
  }

  /** Replaces the stored record (the service's own copy after it changed it). */
  async save(record: JobRecord): Promise<void> {
    await write(this.sql, record);
  }

  /**
   * Stores a finished (completed or failed) job and lets go of its lease. Only the worker holding the job may: one
   * whose lease ran out and was taken by another worker gets `job_lease_lost`, and nothing it wrote in the same
   * transaction (its ledger entry) is kept.
   */
  async finish(record: JobRecord, workerId: string): Promise<void> {
    const rows = await this.sql.query(
      `UPDATE jobs SET workspace_id = $2, status = $3, created_at = $4, completed_at = $5, source_url_sha256 = $6, doc = $7::jsonb, claimed_by = NULL, lease_until = NULL
       WHERE job_id = $1 AND (claimed_by IS NULL OR claimed_by = $8) RETURNING 1`,
      [...columns(record), workerId],
    );
    if (rows.length !== 1) {
      throw new ServiceError('job_lease_lost', `Job ${record.jobId} was taken over by another worker after this one's lease ran out; its result is theirs.`, { jobId: record.jobId }, 409);
    }
  }

  /** Reads, changes and writes one job under a row lock; null when there is no such job. */
  async update(jobId: string, change: (record: JobRecord) => void): Promise<JobRecord | null> {
    return this.sql.transaction(async (tx) => {
      const [row] = await tx.query<{ doc: JobRecord }>('SELECT doc FROM jobs WHERE job_id = $1 FOR UPDATE', [jobId]);
      if (!row) return null;
      const record = row.doc;
      change(record);
      await write(tx, record);
      return record;
    });
  }

  /** Newest first, like today's list. */
  async list(filter: ListJobsFilter): Promise<JobRecord[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (clause: string, value: unknown) => {
      params.push(value);
      where.push(clause.replace('?', `$${params.length}`));
    };
    if (filter.workspaceId !== undefined) add('workspace_id = ?', filter.workspaceId);
    if (filter.status !== undefined) add('status = ?', filter.status);
    if (filter.sourceUrlSha256 !== undefined) add('source_url_sha256 = ?', filter.sourceUrlSha256);
    if (filter.jobId !== undefined) add('job_id = ?', filter.jobId);
    params.push(Math.max(1, Math.min(1000, filter.limit)));
    const rows = await this.sql.query<{ doc: JobRecord }>(
      `SELECT doc FROM jobs ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map((r) => r.doc);
  }

  /** Queued or running jobs of a workspace (the plan's active-job limit). */
  async countActive(workspaceId: string): Promise<number> {
    const [row] = await this.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs WHERE workspace_id = $1 AND status = ANY($2)', [workspaceId, ACTIVE]);
    return row!.n;
  }

  /** The newest completed jobs of a workspace with this reuse key, newest first (job reuse). */
  async completedWithReuseKey(workspaceId: string, reuseKey: string, except: string, limit = 5): Promise<JobRecord[]> {
    const rows = await this.sql.query<{ doc: JobRecord }>(
      `SELECT doc FROM jobs WHERE workspace_id = $1 AND status = 'completed' AND doc->>'reuseKey' = $2 AND job_id <> $3 ORDER BY seq DESC LIMIT $4`,
      [workspaceId, reuseKey, except, limit],
    );
    return rows.map((r) => r.doc);
  }

  /**
   * Hands a job this worker holds back to the queue (a worker stopping before it ran it to the end): the attempt is not
   * counted.
   */
  async release(jobId: string, workerId: string): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE jobs SET status = 'queued', claimed_by = NULL, lease_until = NULL,
         doc = doc || jsonb_build_object('status', 'queued', 'stage', NULL, 'progressPct', 0, 'attempts', GREATEST(${ATTEMPTS} - 1, 0))
       WHERE job_id = $1 AND claimed_by = $2 AND status = 'running' RETURNING 1`,
      [jobId, workerId],
    );
    return rows.length === 1;
  }

  /** Ids of queued jobs, oldest first: what a worker hands to the queue again when it starts. */
  async queuedIds(limit = 100_000): Promise<string[]> {
    const rows = await this.sql.query<{ job_id: string }>(`SELECT job_id FROM jobs WHERE status = 'queued' ORDER BY seq LIMIT $1`, [limit]);
    return rows.map((r) => r.job_id);
  }

  /** Oldest first (a drain takes them in this order). */
  async listByStatus(status: string, limit = 1000): Promise<JobRecord[]> {
    const rows = await this.sql.query<{ doc: JobRecord }>('SELECT doc FROM jobs WHERE status = $1 ORDER BY seq LIMIT $2', [status, limit]);
    return rows.map((r) => r.doc);
  }

  /**
   * Takes a job for `workerId` until `leaseMs` from now: a queued job, or a running one whose lease ran out (its worker
   * died) and that has attempts left of `maxAttempts`. Null when another worker holds it, it is finished or out of
   * attempts. The only way a job becomes running; each claim counts an attempt and names the worker on the record.
   */
  async claim(jobId: string, workerId: string, leaseMs: number, at = new Date(), maxAttempts = JOB_ATTEMPTS): Promise<JobRecord | null> {
    const [row] = await this.sql.query<{ doc: JobRecord }>(
      `UPDATE jobs SET status = 'running', claimed_by = $2, lease_until = $3,
         doc = doc || jsonb_build_object('status', 'running', 'startedAt', $4::text, 'worker', $2::text, 'attempts', ${ATTEMPTS} + 1)
       WHERE job_id = $1 AND (status = 'queued' OR (status = 'running' AND lease_until < $5 AND ${ATTEMPTS} < $6)) RETURNING doc`,
      [jobId, workerId, new Date(at.getTime() + leaseMs), at.toISOString(), at, maxAttempts],
    );
    return row?.doc ?? null;
  }

  /** Extends the lease of a job this worker still holds; false when it lost it. */
  async renewLease(jobId: string, workerId: string, leaseMs: number): Promise<boolean> {
    const rows = await this.sql.query(`UPDATE jobs SET lease_until = $3 WHERE job_id = $1 AND claimed_by = $2 AND status = 'running' RETURNING job_id`, [
      jobId,
      workerId,
      new Date(Date.now() + leaseMs),
    ]);
    return rows.length === 1;
  }

  /**
   * Jobs whose worker died (their lease ran out; with `everyRunning`, every running job: one embedded process starting
   * up) go back to the queue when they were queued jobs (they keep their request) with attempts left of `maxAttempts`;
   * the others fail as `interrupted`. A synchronous job is never run again: its caller was waiting for it.
   */
  async recover(opts: { everyRunning?: boolean; maxAttempts?: number; at?: Date } = {}): Promise<{ requeued: JobRecord[]; failed: JobRecord[] }> {
    const at = opts.at ?? new Date();
    return this.sql.transaction(async (tx) => {
      const requeued = await tx.query<{ doc: JobRecord }>(
        `UPDATE jobs SET status = 'queued', claimed_by = NULL, lease_until = NULL,
           doc = doc || jsonb_build_object('status', 'queued', 'stage', NULL, 'progressPct', 0)
         WHERE status = 'running' AND ($2 OR lease_until < $1) AND jsonb_typeof(doc->'request') = 'object' AND ${ATTEMPTS} < $3 RETURNING doc`,
        [at, opts.everyRunning ?? false, opts.maxAttempts ?? JOB_ATTEMPTS],
      );
      const failed = await failInterrupted(tx, at, `status = 'running' AND ($3 OR lease_until < $1)`, [opts.everyRunning ?? false]);
      return { requeued: requeued.map((r) => r.doc), failed };
    });
  }

  /**
   * The queue gave up on a job (dead letter): it fails as `interrupted` unless a live worker still holds it (its lease
   * runs) or it finished. Null when it was left alone.
   */
  async failAbandoned(jobId: string, at = new Date()): Promise<JobRecord | null> {
    const [failed] = await failInterrupted(this.sql, at, `job_id = $3 AND (status = 'queued' OR (status = 'running' AND lease_until < $1))`, [jobId]);
    return failed ?? null;
  }

  async findIdempotent(workspaceId: string, key: string): Promise<IdempotencyHit | null> {
    const [row] = await this.sql.query<{ job_id: string; request_sha256: string | null }>(
      'SELECT job_id, request_sha256 FROM idempotency WHERE workspace_id = $1 AND key = $2',
      [workspaceId, key],
    );
    return row ? { jobId: row.job_id, requestSha256: row.request_sha256 } : null;
  }

  /** Idempotency keys as an older store kept them (the lowdb import). */
  async insertIdempotency(rows: readonly { workspaceId: string; key: string; jobId: string; requestSha256?: string | null }[]): Promise<void> {
    for (const r of rows) {
      await this.sql.query('INSERT INTO idempotency (workspace_id, key, job_id, request_sha256) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [
        r.workspaceId,
        r.key,
        r.jobId,
        r.requestSha256 ?? null,
      ]);
    }
  }

  async appendEvent(jobId: string, event: Omit<JobEventRow, 'created_at'> & { created_at?: string }): Promise<void> {
    const createdAt = event.created_at ?? new Date().toISOString();
    await this.sql.query('INSERT INTO job_events (job_id, created_at, event) VALUES ($1, $2, $3::jsonb)', [jobId, createdAt, JSON.stringify({ ...event, created_at: createdAt })]);
  }

  async events(jobId: string): Promise<JobEventRow[]> {
    const rows = await this.sql.query<{ event: JobEventRow }>('SELECT event FROM job_events WHERE job_id = $1 ORDER BY seq', [jobId]);
    return rows.map((r) => r.event);
  }

  /** Jobs finished before `cutoff` whose objects are still kept (retention), oldest first. */
  async finishedBefore(cutoff: Date, limit: number): Promise<JobRecord[]> {
    const rows = await this.sql.query<{ doc: JobRecord }>(
      'SELECT doc FROM jobs WHERE completed_at < $1 AND objects_removed_at IS NULL ORDER BY completed_at LIMIT $2',
      [cutoff, limit],
    );
    return rows.map((r) => r.doc);
  }

  /** The job's objects were removed by retention: its record keeps only the artifacts still stored. */
  async markObjectsRemoved(jobId: string, keptArtifacts: JobRecord['artifacts'], at = new Date()): Promise<void> {
    await this.sql.query(`UPDATE jobs SET objects_removed_at = $2, doc = jsonb_set(doc, '{artifacts}', $3::jsonb) WHERE job_id = $1`, [
      jobId,
      at,
      JSON.stringify(keptArtifacts),
    ]);
  }

  async deleteEventsBefore(cutoff: Date): Promise<number> {
    const rows = await this.sql.query('DELETE FROM job_events WHERE created_at < $1 RETURNING 1', [cutoff]);
    return rows.length;
  }
}
