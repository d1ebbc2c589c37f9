// Scale-out on a real Postgres server: one `preflight serve --no-worker` and two `preflight worker` processes (child
// processes of the built CLI), each with a data dir of its own, sharing only the database and an S3-protocol object
// store (s3rver). Eight async jobs over HTTP; both workers take jobs; one worker is killed (-9) mid-job and its job
// still completes on the other; no job is lost or run twice; the usage ledger matches the jobs; one webhook per job.
// The plan's active-job limit holds across the workers. Then: a store write that fails (the database drops the connection) fails its own job or request with a clear error
// while the processes serve the others; and SIGTERM hands a running job back to the queue.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/storage/database.js';
import type { JobRecord } from '../src/jobs/record.js';
import { startWorker, type RunningWorker } from './helpers/cluster.js';
import * as fx from './helpers/fixtures.js';
import { api, uploadFile } from './helpers/http-client.js';
import { startS3rver, type RunningS3 } from './helpers/s3rver.js';
import { startServe, type RunningServer } from './helpers/serve.js';
import { POSTGRES_HINT, POSTGRES_URL, postgresEngine, type Engine } from './helpers/storage-engines.js';
import { sleep, until } from './helpers/wait.js';

const OPERATOR_KEY = 'prv_scale_out_operator_key_0123456789abcdef';
const JOBS = 8;
const finished = (j: JobRecord | null) => j !== null && (j.status === 'completed' || j.status === 'failed');

describe.skipIf(!POSTGRES_URL)(`scale-out on a Postgres server${POSTGRES_URL ? '' : ` (skipped: ${POSTGRES_HINT})`}`, () => {
  let engine: Engine;
  let schema: string;
  let db: Database;
  let s3: RunningS3;
  let env: Record<string, string>;
  let server: RunningServer;
  let workers: RunningWorker[] = [];
  let receiver: Server;
  let receiverUrl: string;
  const delivered: { jobId: string; event: string }[] = [];
  let key: string;
  let media: string;

  let longMedia: string;

  const createJob = async (idempotencyKey: string, uploadId = media) =>
    api(server, 'POST', '/v1/qc/jobs', { key, body: { upload_id: uploadId, process_async: true, reuse: false, idempotency_key: idempotencyKey }, timeoutMs: 30_000 });
  const waitFinished = (jobId: string, timeoutMs = 90_000) =>
    until(`job ${jobId} to finish`, async () => {
      const job = await db.jobs.get(jobId);
      return finished(job) && job;
    }, timeoutMs);
  const eventTypes = async (jobId: string) => (await db.jobs.events(jobId)).map((e) => e.event_type);

  beforeAll(async () => {
    engine = postgresEngine(POSTGRES_URL!);
    const options = await engine.fresh();
    schema = options.schema!;
    engine.extraSchema('queue');
    db = await openDatabase(options);
    s3 = await startS3rver('preflight-scale');
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const payload = JSON.parse(body) as { jobId: string; event: string };
        delivered.push({ jobId: payload.jobId, event: payload.event });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    env = {
      PREFLIGHT_DATABASE_URL: POSTGRES_URL!,
      PREFLIGHT_DATABASE_SCHEMA: schema,
      ...s3.env('scale'),
      PREFLIGHT_OPERATOR_KEY: OPERATOR_KEY,
      PREFLIGHT_SIGNING_KEY: 'scale-out-signing-key-0123456789',
      // A short lease, so a killed worker's job comes back within seconds.
      PREFLIGHT_JOB_LEASE_SECONDS: '5',
      PREFLIGHT_ALLOW_PRIVATE_NETWORKS: '1',
    };
    [server, ...workers] = await Promise.all([
      startServe(env, { args: ['--no-worker'] }),
      startWorker(env, ['--concurrency', '1']),
      startWorker(env, ['--concurrency', '1', '--grace', '0']),
    ]);
    key = (await api(server, 'POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { name: 'scale', workspace_id: 'ws_scale', plan_id: 'network' } })).json.apiKey;
    const hook = await api(server, 'POST', '/v1/webhooks', { key, body: { url: receiverUrl, event_types: ['job.completed', 'job.failed'] } });
    expect(hook.status, hook.text).toBe(201);
    // Two minutes of audio: a check of under a second, cheap beside a video's (OCR). Ten minutes: a check of seconds,
    // for the jobs a test stops while they run (the short check can end between seeing it run and stopping it).
    media = await uploadFile(server, key, await fx.podcastOf(121, 440));
    longMedia = await uploadFile(server, key, await fx.longTone());
  }, 180_000);

  afterAll(async () => {
    server?.proc.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.stop('SIGKILL')));
    receiver?.close();
    await s3?.close();
    await db?.close();
    await engine?.cleanup();
  });

  it('runs 8 async jobs on two workers; one killed mid-job loses no job and none runs twice; the ledger matches', async () => {
    const [first, second] = workers;
    // The first two jobs, one per worker, are the long ones: the first worker is still in one when it is killed.
    const created = [];
    for (let i = 0; i < JOBS; i++) created.push(await createJob(`scale-${i}`, i < 2 ? longMedia : media));
    expect(created.map((c) => c.status)).toEqual(created.map(() => 202));
    const ids = created.map((c) => c.json.jobId as string);

    // The first worker is killed outright while it runs a job.
    const victim = await until('the first worker to run a job', async () => {
      const [row] = await db.sql.query<{ job_id: string }>(`SELECT job_id FROM jobs WHERE status = 'running' AND claimed_by LIKE $1`, [`%:${first!.pid}:%`]);
      return row?.job_id;
    }, 60_000, 50);
    await first!.stop('SIGKILL');
    expect((await db.jobs.get(victim))?.status).toBe('running');

    const jobs = await Promise.all(ids.map((id) => waitFinished(id)));
    // Every job completed once: the victim on its second attempt, on the second worker, after its lease ran out.
    expect(jobs.map((j) => j.status)).toEqual(ids.map(() => 'completed'));
    const again = jobs.find((j) => j.jobId === victim)!;
    expect(again).toMatchObject({ attempts: 2 });
    expect(again.worker).toContain(`:${second!.pid}:`);
    expect(await eventTypes(victim)).toContain('job.requeued');
    expect(jobs.filter((j) => j.worker?.includes(`:${second!.pid}:`)).length).toBeGreaterThan(0);
    for (const id of ids) expect((await eventTypes(id)).filter((t) => t === 'job.completed' || t === 'job.failed'), id).toEqual(['job.completed']);

    // The ledger has one entry per job, and its minutes are the jobs' minutes.
    const ledger = (await db.usage.list()).filter((e) => e.workspaceId === 'ws_scale');
    expect(ledger.map((e) => e.jobId).sort()).toEqual([...ids].sort());
    const listed = await api(server, 'GET', '/v1/qc/jobs?limit=20', { key });
    const minutes = (listed.json.jobs as { jobId: string; minutesMetered: number }[]).filter((j) => ids.includes(j.jobId)).reduce((sum, j) => sum + j.minutesMetered, 0);
    expect(ledger.reduce((sum, e) => sum + e.minutesMetered, 0)).toBe(minutes);

    // The API process reads what a worker on another data dir wrote to the object store.
    const report = await api(server, 'GET', `/v1/qc/jobs/${victim}/report`, { key });
    expect(report.status, report.text).toBe(200);
    expect(report.json.verdict).toBe(again.verdict);

    // One completion webhook per job, sent by a worker.
    await until('a webhook per job', async () => ids.every((id) => delivered.some((d) => d.jobId === id)));
    await sleep(500);
    expect(delivered.filter((d) => ids.includes(d.jobId)).map((d) => `${d.jobId} ${d.event}`).sort()).toEqual(ids.map((id) => `${id} job.completed`).sort());
  }, 240_000);

  it("holds the plan's active-job limit across the workers", async () => {
    const free = (await api(server, 'POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { name: 'free', workspace_id: 'ws_scale_free' } })).json.apiKey;
    const mine = await uploadFile(server, free, await fx.podcastOf(121, 440));
    const body = (i: number) => ({ upload_id: mine, process_async: true, reuse: false, idempotency_key: `free-${i}` });
    // The free plan allows 2 jobs queued or running at a time, counted in the shared database.
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await api(server, 'POST', '/v1/qc/jobs', { key: free, body: body(i) }));
    expect(answers.map((a) => a.status)).toEqual([202, 202, 429]);
    expect(answers[2]!.json.error.code).toBe('active_jobs_limit_exceeded');
    for (const a of answers.slice(0, 2)) expect((await waitFinished(a.json.jobId)).status).toBe('completed');
    expect((await api(server, 'POST', '/v1/qc/jobs', { key: free, body: body(3) })).status).toBe(202);
  }, 120_000);

  it('fails the job or request whose store write lost its connection, with a clear error, and serves the others', async () => {
    // The database drops the connection of the one statement that completes one job, and of the one that stores one
    // request's idempotency key, as a server restart or a network cut would.
    const dropWhen = (name: string, condition: string) => `
      CREATE FUNCTION ${schema}.${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF ${condition} THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF;
        RETURN NEW;
      END $$;`;
    await db.sql.exec(`
      ${dropWhen('drop_on_finish', `NEW.status = 'completed' AND NEW.doc->>'idempotencyKey' = 'drop-on-finish'`)}
      ${dropWhen('drop_on_create', `NEW.key = 'drop-on-create'`)}
      CREATE TRIGGER drop_on_finish BEFORE UPDATE ON ${schema}.jobs FOR EACH ROW EXECUTE FUNCTION ${schema}.drop_on_finish();
      CREATE TRIGGER drop_on_create BEFORE INSERT ON ${schema}.idempotency FOR EACH ROW EXECUTE FUNCTION ${schema}.drop_on_create();`);

    const refused = await createJob('drop-on-create');
    expect(refused.status, `${refused.text}\n${server.stderr()}`).toBe(503);
    expect(refused.json.error).toMatchObject({ code: 'store_unavailable' });
    expect(refused.json.error.message).toMatch(/database could not be reached/);
    expect((await api(server, 'GET', '/v1/qc/jobs?idempotency_key=drop-on-create', { key })).json.jobs).toEqual([]);

    const doomed = await createJob('drop-on-finish');
    const fine = await createJob('after-the-drop');
    expect([doomed.status, fine.status]).toEqual([202, 202]);
    const failedJob = await waitFinished(doomed.json.jobId);
    expect(failedJob.status).toBe('failed');
    expect(failedJob.failureReason).toMatch(/^store_unavailable: The database could not be reached/);
    expect((await db.usage.list()).filter((e) => e.jobId === failedJob.jobId)).toEqual([]);
    // The same worker goes on with the next job.
    expect((await waitFinished(fine.json.jobId)).status).toBe('completed');
    await db.sql.exec(`DROP TRIGGER drop_on_finish ON ${schema}.jobs; DROP TRIGGER drop_on_create ON ${schema}.idempotency`);
  }, 120_000);

  it('hands a running job back to the queue on SIGTERM, and another worker runs it', async () => {
    // One worker left (the first was killed above), started with --grace 0: SIGTERM hands its running job back at once.
    const worker = workers[1]!;
    await workers[0]!.stop('SIGKILL');
    const job = (await createJob('handed-back', longMedia)).json.jobId as string;
    await until('the worker to run the job', async () => (await db.jobs.get(job))?.status === 'running', 60_000, 50).catch((err: Error) => {
      throw new Error(`${err.message}\n${worker.stderr()}`);
    });
    expect(await worker.stop('SIGTERM')).toBe(0);
    expect(await db.jobs.get(job)).toMatchObject({ status: 'queued', attempts: 0 });
    expect(await eventTypes(job)).toContain('job.handed_back');
    const next = await startWorker(env, ['--concurrency', '1']);
    workers.push(next);
    const done = await waitFinished(job);
    expect(done).toMatchObject({ status: 'completed', attempts: 1 });
    expect(done.worker).toContain(`:${next.pid}:`);
  }, 120_000);
});
