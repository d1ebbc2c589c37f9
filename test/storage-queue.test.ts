// The queue (pg-boss) on both engines: jobs are worked, a job whose worker died comes back after its lease and is
// retried, a job out of retries is dead-lettered; on a real Postgres server two workers never run a job twice.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../src/storage/database.js';
import { openDatabase } from '../src/storage/database.js';
import { JobQueue, QUEUES } from '../src/storage/queue.js';
import type { OpenSqlOptions } from '../src/storage/sql.js';
import { describeEachEngine, type Engine } from './helpers/storage-engines.js';
import { jobRecord } from './helpers/storage-records.js';
import { sleep, until } from './helpers/wait.js';

describeEachEngine('queue', (engine: Engine) => {
  let db: Database;
  let options: OpenSqlOptions;
  let queueSchema: string;
  const queues: JobQueue[] = [];
  const startQueue = async (over: Partial<Parameters<typeof JobQueue.start>[0]> = {}) => {
    const q = await JobQueue.start({ sql: db.sql, url: options.url ?? null, schema: queueSchema, pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1, leaseSeconds: 2, retryLimit: 1, retryDelaySeconds: 0, ...over });
    queues.push(q);
    return q;
  };

  beforeAll(async () => {
    options = await engine.fresh();
    db = await openDatabase(options);
    queueSchema = engine.extraSchema('queue');
  });
  afterAll(async () => {
    for (const q of queues) await q.stop(2_000).catch(() => {});
    await db?.close();
    await engine.cleanup();
  });

  it('works a sent job to completion', async () => {
    const queue = await startQueue();
    const seen: string[] = [];
    const loop = queue.work<{ jobId: string }>(QUEUES.qcJob, 2, async (job) => {
      seen.push(job.data.jobId);
    });
    const id = await queue.send(QUEUES.qcJob, { jobId: 'job_q1' });
    await until('the job to complete', async () => (await queue.boss.getJobById(QUEUES.qcJob, id))?.state === 'completed');
    expect(seen).toEqual(['job_q1']);
    await loop.stop();
  });

  it('keeps one waiting job per key, and a handler holds its slot for as long as it runs', async () => {
    const queue = await startQueue({ leaseSeconds: 1 });
    const onceId = await queue.sendOnce(QUEUES.qcJob, { jobId: 'job_once' }, 'job_once');
    expect(onceId).toEqual(expect.any(String));
    expect((await queue.boss.getJobById(QUEUES.qcJob, onceId!))?.data).toEqual({ jobId: 'job_once' });
    expect(await queue.sendOnce(QUEUES.qcJob, { jobId: 'job_once' }, 'job_once')).toBeNull();
    await queue.sendOnce(QUEUES.qcJob, { jobId: 'job_other' }, 'job_other');
    // One slot, and a first job that runs past its queue expiry (1 s): the second waits for the slot all the same.
    let running = 0;
    let most = 0;
    const done: string[] = [];
    const loop = queue.work<{ jobId: string }>(QUEUES.qcJob, 1, async (job) => {
      most = Math.max(most, ++running);
      await sleep(done.length === 0 ? 2_500 : 10);
      running--;
      done.push(job.data.jobId);
    });
    await until('both jobs to run', async () => done.includes('job_once') && done.includes('job_other'));
    expect(most).toBe(1);
    await loop.stop();
  });

  it('takes back a job whose worker died after its lease, retries it, and dead-letters one out of retries', async () => {
    const dead = await startQueue();
    const id = await dead.send(QUEUES.qcJob, { jobId: 'job_orphan' });
    // A worker takes the job and never finishes it (as if killed): no complete, no fail.
    const [taken] = await dead.boss.fetch<{ jobId: string }>(QUEUES.qcJob);
    expect(taken?.id).toBe(id);
    expect((await dead.boss.getJobById(QUEUES.qcJob, id))?.state).toBe('active');

    const live = await startQueue();
    const runs: number[] = [];
    const loop = live.work<{ jobId: string }>(QUEUES.qcJob, 1, async (job) => {
      if (job.data.jobId === 'job_orphan') runs.push(job.retryCount);
      if (job.data.jobId === 'job_poison') throw new Error('always fails');
    });
    await until('the orphaned job to be retried and completed', async () => (await live.boss.getJobById(QUEUES.qcJob, id))?.state === 'completed');
    expect(runs).toEqual([1]);

    const poison = await live.send(QUEUES.qcJob, { jobId: 'job_poison' });
    await until('the poison job to fail for good', async () => (await live.boss.getJobById(QUEUES.qcJob, poison))?.state === 'failed');
    expect((await live.boss.getJobById(QUEUES.qcJob, poison))?.retryCount).toBe(1);
    const dlq = await until('the dead letter', async () => (await live.boss.fetch<{ jobId: string }>(QUEUES.qcJobDead))[0]);
    expect(dlq.data.jobId).toBe('job_poison');
    await loop.stop();
  });

  it.skipIf(engine.name !== 'postgres')('two workers (two pg-boss instances, own pools) claim jobs without running one twice', async () => {
    const count = 16;
    for (let i = 0; i < count; i++) await db.jobs.create(jobRecord(`job_two${i}`, 'ws_two'));
    await db.sql.exec('CREATE TABLE runs (job_id text NOT NULL, worker text NOT NULL)');
    const workers = [await startQueue({ leaseSeconds: 60 }), await startQueue({ leaseSeconds: 60 })];
    for (const [w, queue] of workers.entries()) {
      queue.work<{ jobId: string }>(QUEUES.qcJob, 2, async (job) => {
        const record = await db.jobs.claim(job.data.jobId, `worker${w}`, 60_000);
        if (!record) return;
        await db.sql.query('INSERT INTO runs (job_id, worker) VALUES ($1, $2)', [job.data.jobId, `worker${w}`]);
        await sleep(150);
        await db.jobs.update(job.data.jobId, (r) => void (r.status = 'completed'));
      });
    }
    for (let i = 0; i < count; i++) await workers[i % 2]!.sendOnce(QUEUES.qcJob, { jobId: `job_two${i}` }, `job_two${i}`);
    await until('every job to run', async () => (await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM runs'))[0]!.n >= count);
    await sleep(1_000);
    const runs = await db.sql.query<{ job_id: string; worker: string }>('SELECT job_id, worker FROM runs');
    expect(runs).toHaveLength(count);
    expect(new Set(runs.map((r) => r.job_id)).size).toBe(count);
    expect(new Set(runs.map((r) => r.worker))).toEqual(new Set(['worker0', 'worker1']));
    expect(await db.jobs.countActive('ws_two')).toBe(0);
  });
});
