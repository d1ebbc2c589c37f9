// The service core on real files: jobs, queue and drain, failures, crash recovery, ingress clean-up, isolation, metering.
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../src/errors.js';
import { QcJobSchema } from '../src/schemas/job.js';
import { LOCAL_PRINCIPAL, PreflightService, type Principal } from '../src/service.js';
import { databaseOptions, openDatabase, type Database } from '../src/storage/database.js';
import * as fx from './helpers/fixtures.js';
import { jobRecord } from './helpers/storage-records.js';
import { POSTGRES_HINT, POSTGRES_URL } from './helpers/storage-engines.js';

const open: PreflightService[] = [];
const env = { PREFLIGHT_SIGNING_KEY: 'service-test-signing-key-0123' } as NodeJS.ProcessEnv;

/** The engine the running suite stores on: embedded by default, the Postgres server for the second run. */
let postgresUrl: string | null = null;
const schemas = new Set<string>();

/** A data dir's environment: on Postgres, a schema of its own (named after the data dir), so tests never share records. */
function envFor(home: string): NodeJS.ProcessEnv {
  if (!postgresUrl) return env;
  const schema = `pf_svc_${createHash('sha256').update(home).digest('hex').slice(0, 16)}`;
  schemas.add(schema);
  return { ...env, PREFLIGHT_DATABASE_URL: postgresUrl, PREFLIGHT_DATABASE_SCHEMA: schema };
}

async function dropSchemas(): Promise<void> {
  if (!postgresUrl || schemas.size === 0) return;
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    schemas.clear();
    await client.end();
  }
}

async function service(home = mkdtempSync(join(tmpdir(), 'preflight-svc-'))): Promise<{ svc: PreflightService; home: string }> {
  const svc = await PreflightService.open({ home, env: envFor(home) });
  open.push(svc);
  return { svc, home };
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** Changes the data dir's database while no service has it open (what a crash or another process left). */
async function withDatabase(home: string, change: (db: Database) => Promise<unknown>): Promise<void> {
  const db = await openDatabase(databaseOptions(home, envFor(home)));
  try {
    await change(db);
  } finally {
    await db.close();
  }
}

/**
 * Where a test is about jobs, queues, workspaces or metering rather than what a check finds, its jobs run one cheap
 * gate: the same job path (probe, decode, report, ledger) without the text gates' OCR.
 */
const CHEAP = 'black_frames';

const alice: Principal = { workspaceId: 'ws_alice', scopes: ['*'], operator: false };
const bob: Principal = { workspaceId: 'ws_bob', scopes: ['*'], operator: false };

/** The whole suite, on the engine `url` names (null: embedded). */
function serviceSuite(url: string | null) {
  beforeAll(() => {
    postgresUrl = url;
  });
  afterAll(async () => {
    await dropSchemas();
    postgresUrl = null;
  });

  it('runs a sync job to completion with the QcJob fields, real stage timings and artifacts on disk', async () => {
    const { svc, home } = await service();
    const { job } = await svc.createJob(alice, { file_path: await fx.cleanShort(), profile: 'generic_creator_video' });
    expect(QcJobSchema.safeParse(job).success).toBe(true);
    expect(job).toMatchObject({ status: 'completed', verdict: 'PASS', progressPct: 100, minutesMetered: 1, profile: 'generic_creator_video', requestedProfile: 'generic_creator_video' });
    expect(job.processingDurationMs).toBeGreaterThan(0);
    const stages = job.observability!.stages.map((s) => s.status);
    expect(stages).toEqual(['probe', 'analyse', 'gates', 'report']);
    const elapsed = job.observability!.stages.map((s) => s.elapsedMs);
    expect([...elapsed].sort((a, b) => a - b)).toEqual(elapsed);
    expect(job.mediaIngress).toMatchObject({ mode: 'local_or_remote_source', storageMode: 'durable_filesystem', ephemeral: false });
    expect(JSON.stringify(job)).not.toContain(home);
    expect(readdirSync(join(home, 'jobs', job.jobId)).sort()).toEqual(['markers-avid.txt', 'markers-premiere.xml', 'markers.csv', 'markers.edl', 'markers.fcpxml', 'receipt.json', 'report.html', 'report.json']);
    expect(await svc.records.jobs.list({ limit: 10 })).toHaveLength(1);
  });

  it('queues process_async jobs and processes them on drain, for their own workspace only', async () => {
    const { svc } = await service();
    const { job } = await svc.createJob(alice, { file_path: await fx.cleanShort(), process_async: true, checks: CHEAP });
    expect(job.status).toBe('queued');
    const bobDrain = await svc.drain(bob, {});
    expect(bobDrain.processed).toBe(0);
    const drained = await svc.drain(alice, { limit: 5 });
    expect(drained.processed).toBe(1);
    expect(drained.jobs[0]).toMatchObject({ jobId: job.jobId, status: 'completed' });
    await expect(svc.createJob(alice, { media_base64: 'AAAA', media_kind: 'video', process_async: true })).rejects.toThrow(/process_async jobs cannot carry inline media/);
  });

  it('keeps workspaces apart: jobs, reports and idempotency keys', async () => {
    const { svc } = await service();
    const file = await fx.cleanShort();
    const { job } = await svc.createJob(alice, { file_path: file, idempotency_key: 'k1', checks: CHEAP });
    await expect(svc.getJob(bob, job.jobId)).rejects.toThrow(/No job/);
    await expect(svc.getReport(bob, job.jobId)).rejects.toThrow(/No job/);
    expect((await svc.listJobs(bob, {}))).toEqual([]);
    const bobs = await svc.createJob(bob, { file_path: file, idempotency_key: 'k1', checks: CHEAP });
    expect(bobs.replay).toBe(false);
    expect(bobs.job.jobId).not.toBe(job.jobId);
    // The same file in another workspace is metered; in the same workspace and month it is free.
    expect(bobs.job.minutesMetered).toBe(1);
    const again = await svc.createJob(alice, { file_path: file, checks: CHEAP });
    expect(again.job.minutesMetered).toBe(0);
  });

  it('refuses a free-tier workspace whose 200 minutes are used up, and lets a re-check through the ledger as free', async () => {
    const home = mkdtempSync(join(tmpdir(), 'preflight-usage-'));
    const { svc } = await service(home);
    const free: Principal = { workspaceId: 'ws_free', scopes: ['*'], operator: false, planId: 'free' };
    const { job } = await svc.createJob(free, { file_path: await fx.cleanShort(), checks: CHEAP });
    expect(job.minutesMetered).toBe(1);
    await svc.close();
    open.pop();
    // 199 more minutes used this month: the plan's 200 included minutes are gone.
    await withDatabase(home, async (db) => {
      const [first] = await db.usage.list();
      await db.usage.append({ ...first!, entryId: 'use_bulk', jobId: 'job_bulk', sha256: 'f'.repeat(64), minutesMetered: 199, mediaMinutes: 199 });
    });
    const { svc: reopened } = await service(home);
    await expect(reopened.createJob(free, { file_path: await fx.letterbox() })).rejects.toMatchObject({
      code: 'usage_limit_exceeded',
      status: 429,
      details: expect.objectContaining({ planId: 'free', includedMinutes: 200, minutesUsed: 200 }),
    });
    // A workspace with an approved overage cap may go on.
    const capped: Principal = { ...free, overageCapCents: 500 };
    await expect(reopened.createJob(capped, { file_path: await fx.letterbox(), checks: CHEAP })).resolves.toMatchObject({ job: { status: 'completed' } });
  });

  it('checks account limits again on the real media, after the probe and before the decode', async () => {
    const { svc } = await service();
    const seen: { durationSeconds?: number; activeJobs: number }[] = [];
    svc.attachAccounts({
      async checkAbuseLimits(_p, input) {
        seen.push(input);
        if ((input.durationSeconds ?? 0) > 5) throw new ServiceError('duration_limit_exceeded', 'Media is longer than this plan allows.', {}, 413);
      },
      recordUsageRefusal: async () => undefined,
      afterUsage: async () => undefined,
    });
    // Declared nothing: the pre-check passes; the probe finds 8 s and the job is refused with 413 before decoding.
    await expect(svc.createJob(alice, { file_path: await fx.clean() })).rejects.toMatchObject({ code: 'duration_limit_exceeded', status: 413 });
    expect(seen.map((s) => s.durationSeconds)).toEqual([undefined, 8]);
    const [job] = (await svc.listJobs(alice, {}));
    expect(job).toMatchObject({ status: 'failed', minutesMetered: 0 });
    expect(job.failureReason).toMatch(/^duration_limit_exceeded/);
    expect(job.observability?.stages.map((s) => s.status)).toEqual(['probe']);
  });

  it('records a failed job with its reason and bills 0 minutes', async () => {
    const { svc } = await service();
    const dir = mkdtempSync(join(tmpdir(), 'preflight-bad-'));
    const text = join(dir, 'notes.mp4');
    writeFileSync(text, 'not media\n'.repeat(100));
    const { job } = await svc.createJob(alice, { file_path: text });
    expect(job).toMatchObject({ status: 'failed', minutesMetered: 0, verdict: null });
    expect(job.failureReason).toMatch(/^unsupported_media: /);
    expect(job.failureReason).not.toContain(dir);
    expect((await svc.getEvents(alice, job.jobId)).map((e) => e.event_type)).toContain('job.failed');
    await expect(svc.getReport(alice, job.jobId)).rejects.toThrow(/failed/);
  });

  it('at start-up, queues again a queued job whose worker died and fails a synchronous one as interrupted', async () => {
    const home = mkdtempSync(join(tmpdir(), 'preflight-crash-'));
    const { svc } = await service(home);
    const { job } = await svc.createJob(alice, { file_path: await fx.cleanShort(), process_async: true });
    await svc.close();
    open.pop();
    // A worker took the queued job and died: its lease ran out (on the embedded engine every job left running counts).
    // A synchronous job was left running too: its caller is gone, so it is not run again.
    await withDatabase(home, async (db) => {
      await db.jobs.claim(job.jobId, 'a-worker-that-crashed', 1_000, new Date(Date.now() - 60_000));
      await db.jobs.create(jobRecord('job_sync_crash', alice.workspaceId, { status: 'running', request: null }), null, { workerId: 'a-worker-that-crashed', leaseMs: -60_000 });
    });
    const { svc: reopened } = await service(home);
    expect(await reopened.getJob(alice, job.jobId)).toMatchObject({ status: 'queued', minutesMetered: 0 });
    expect((await reopened.getEvents(alice, job.jobId)).map((e) => e.event_type)).toContain('job.requeued');
    expect(await reopened.getJob(alice, 'job_sync_crash')).toMatchObject({ status: 'failed', failureReason: 'interrupted', minutesMetered: 0 });
    // The queue gave up on the queued job (a dead letter): it fails as interrupted, once.
    expect(await reopened.abandonJob(job.jobId)).toBe(true);
    expect(await reopened.getJob(alice, job.jobId)).toMatchObject({ status: 'failed', failureReason: 'interrupted' });
    expect(await reopened.abandonJob(job.jobId)).toBe(false);
  });

  it('refuses a second service on the same data dir', async () => {
    const { home } = await service();
    await expect(PreflightService.open({ home, env: envFor(home) })).rejects.toThrow(/already using the data dir/);
  });

  it('decodes inline media to a temp file and always deletes it', async () => {
    const { svc } = await service();
    // Names, not counts: other test files running beside this one make and delete their own ingress files.
    const ingressFiles = () => readdirSync(tmpdir()).filter((f) => f.startsWith('preflight-ingress-'));
    const before = new Set(ingressFiles());
    const b64 = readFileSync(await fx.stillImage()).toString('base64');
    const { job } = await svc.createJob(LOCAL_PRINCIPAL, { data_url: `data:image/png;base64,${b64}` });
    expect(job).toMatchObject({ status: 'completed', mediaIngress: { mode: 'inline_ephemeral', ephemeral: true, storageMode: 'host_temp_storage' } });
    await expect(svc.createJob(LOCAL_PRINCIPAL, { video_base64: 'bm90IGEgdmlkZW8=' })).resolves.toMatchObject({ job: { status: 'failed' } });
    expect(ingressFiles().filter((f) => !before.has(f))).toEqual([]);
  });

  it('fetches platform URLs through yt-dlp when it is on PATH, and says so clearly when it is not', async () => {
    const { svc } = await service();
    const url = 'https://video.example/watch?v=abc';
    const originalPath = process.env.PATH;
    try {
      process.env.PATH = '/nonexistent';
      await expect(svc.createJob(alice, { platform_video_url: url })).rejects.toThrow(/platform_video_url needs yt-dlp, which is not installed/);
      // A stand-in yt-dlp (no network here): honours -o like the real one and writes the media there.
      const bin = mkdtempSync(join(tmpdir(), 'preflight-ytdlp-'));
      const source = await fx.cleanShort();
      writeFileSync(join(bin, 'yt-dlp'), `#!/bin/sh\nwhile [ $# -gt 0 ]; do if [ "$1" = "-o" ]; then out="$2"; fi; shift; done\ncp '${source}' "$(echo "$out" | sed 's/%(ext)s/mp4/')"\n`);
      chmodSync(join(bin, 'yt-dlp'), 0o755);
      process.env.PATH = `${bin}:${originalPath}`;
      const { job } = await svc.createJob(alice, { platform_video_url: url, checks: CHEAP });
      expect(job).toMatchObject({ status: 'completed', verdict: 'PASS', mediaIngress: { mode: 'platform_url', ephemeral: true, storageMode: 'host_temp_storage' } });
      expect(JSON.stringify(job)).not.toContain(url);
    } finally {
      process.env.PATH = originalPath;
    }
  });

  it('returns a running job when the wait ends first, and it completes in the background', async () => {
    const { svc } = await service();
    const { job } = await svc.createJob(alice, { file_path: await fx.verticalShort(), checks: CHEAP }, {}, { waitMs: 1 });
    expect(job.status).toBe('running');
    for (let i = 0; i < 200 && (await svc.getJob(alice, job.jobId)).status === 'running'; i++) await new Promise((r) => setTimeout(r, 100));
    expect((await svc.getJob(alice, job.jobId)).status).toBe('completed');
    expect(existsSync(join(tmpdir()))).toBe(true);
  });
}

describe('service (pglite)', () => serviceSuite(null));
describe.skipIf(!POSTGRES_URL)(`service (postgres)${POSTGRES_URL ? '' : ` (skipped: ${POSTGRES_HINT})`}`, () => serviceSuite(POSTGRES_URL));
