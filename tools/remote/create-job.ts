// createJob in remote mode. A local file is uploaded first; local sidecar files are sent inline.
//
// How the job runs on the server: `POST /v1/qc/jobs` runs the check inside the request unless `process_async` queues
// it for the server's queue worker. Queued is the default here whenever the queue keeps everything the request asks
// for (an upload and the options below): the job then survives this process and slow networks, and is polled every
// second for progress until the run wait ends. Inline media or sidecars cannot be queued, so those requests run
// inside a held-open request instead (see runHeld).
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { costGuardrailBlockedError } from '../../src/billing/estimate.js';
import { ServiceError } from '../../src/errors.js';
import type { CreateJobInput } from '../../src/schemas/create-job.js';
import type { EstimateInput, EstimateOutput } from '../../src/schemas/estimate.js';
import type { QcJob } from '../../src/schemas/job.js';
import type { OpContext } from '../../src/service.js';
import { cancelledError, type RemoteApi } from './api.js';
import { RunProgress } from './progress.js';
import { inlineLocalSidecars } from './sidecars.js';
import { uploadLocalFile } from './upload.js';

export const POLL_INTERVAL_MS = 1000;
const LOOKUP_INTERVAL_MS = 250;

type RemoteJob = QcJob & { stage?: string | null };

export interface CreatedJob {
  job: QcJob;
  replay: boolean;
}

/** What the server's queue records of a request; other options (cost economics, inline content) would be lost. */
const KEPT_BY_QUEUE = new Set(['upload_id', 'size_bytes', 'profile', 'checks', 'plan_id', 'idempotency_key', 'duration_seconds', 'callback_url', 'callback_secret', 'process_async']);

const ESTIMATE_FIELDS = ['duration_seconds', 'profile', 'checks', 'plan_id', 'plan_price_cents', 'included_minutes', 'ai_review_seconds', 'cost_guardrail'] as const;

const isFinished = (job: RemoteJob) => job.status === 'completed' || job.status === 'failed';

function queueKeepsAll(body: Record<string, unknown>): boolean {
  return body.upload_id !== undefined && Object.entries(body).every(([field, value]) => value === undefined || KEPT_BY_QUEUE.has(field));
}

async function pause(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await sleep(ms, undefined, { signal, ref: false });
  } catch {
    throw cancelledError();
  }
}

/** Refuses unknown checks or a guardrail block before any bytes are sent: the create would only say so after the upload. */
async function precheckOptions(api: RemoteApi, options: Partial<Record<(typeof ESTIMATE_FIELDS)[number], unknown>>, signal?: AbortSignal): Promise<void> {
  const input = Object.fromEntries(ESTIMATE_FIELDS.filter((f) => options[f] !== undefined).map((f) => [f, options[f]])) as EstimateInput;
  let estimate: EstimateOutput;
  try {
    estimate = (await api.json<EstimateOutput>('POST', '/v1/qc/estimate', { body: input, signal })).body;
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'insufficient_scope') return;
    throw err;
  }
  if (estimate.action === 'blocked') throw costGuardrailBlockedError(estimate);
}

/**
 * The job an idempotency key already names, or null. The lookup is a create without media: the server answers a
 * known key with its job (200) before it looks at anything else, and refuses an unknown one for want of media
 * (missing_media), so the lookup can never start a job.
 */
async function findByIdempotencyKey(api: RemoteApi, key: string, signal?: AbortSignal): Promise<RemoteJob | null> {
  const { body } = await api.json<{ jobs: RemoteJob[] }>('GET', '/v1/qc/jobs', { query: { idempotency_key: key, limit: 1 }, signal });
  return body.jobs[0] ?? null;
}

/** The job's current state; null while the server cannot be reached, so a network blip does not end the wait. */
async function pollJob(api: RemoteApi, jobId: string, signal?: AbortSignal): Promise<RemoteJob | null> {
  try {
    return (await api.json<RemoteJob>('GET', `/v1/qc/jobs/${encodeURIComponent(jobId)}`, { signal })).body;
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'remote_unreachable') return null;
    throw err;
  }
}

async function runQueued(api: RemoteApi, body: Record<string, unknown>, signal: AbortSignal | undefined, progress: RunProgress, deadline: number): Promise<CreatedJob> {
  const { status, body: created } = await api.json<RemoteJob>('POST', '/v1/qc/jobs', { body: { ...body, process_async: true }, signal });
  if (status === 200) return { job: created, replay: true };
  let job = created;
  while (!isFinished(job) && Date.now() < deadline) {
    await pause(Math.min(POLL_INTERVAL_MS, deadline - Date.now()), signal);
    job = (await pollJob(api, job.jobId, signal)) ?? job;
    progress.job(job);
  }
  return { job, replay: false };
}

/**
 * Runs the check inside the create request. Closing that request cancels the job on the server, so it is held open:
 * meanwhile the job is found through its idempotency key and polled for progress; at the deadline the running job is
 * returned and the request stays open in the background for as long as this process runs.
 */
async function runHeld(api: RemoteApi, body: Record<string, unknown>, signal: AbortSignal | undefined, progress: RunProgress, deadline: number): Promise<CreatedJob> {
  const key = typeof body.idempotency_key === 'string' ? body.idempotency_key : `mcp-remote-${randomUUID()}`;
  const held = new AbortController();
  const cancel = () => held.abort();
  signal?.addEventListener('abort', cancel, { once: true });
  const answer = api.postHeld<RemoteJob>('/v1/qc/jobs', { ...body, idempotency_key: key }, held.signal).then(
    (res) => ({ res }),
    (error: unknown) => ({ error }),
  );
  try {
    let job: RemoteJob | null = null;
    for (;;) {
      // Until the job is found there is nothing to hand back, so the lookups go on past the deadline.
      const wait = Math.min(POLL_INTERVAL_MS, Math.max(job ? 0 : LOOKUP_INTERVAL_MS, deadline - Date.now()));
      const settled = await Promise.race([answer, sleep(wait, null, { ref: false })]);
      if (settled && 'error' in settled) throw settled.error;
      if (settled) {
        progress.job(settled.res.body);
        return { job: settled.res.body, replay: settled.res.status === 200 };
      }
      if (job && Date.now() >= deadline) {
        reportBackgroundFailure(answer, job.jobId);
        return { job, replay: false };
      }
      job = job ? ((await pollJob(api, job.jobId, signal)) ?? job) : await findByIdempotencyKey(api, key, signal).catch(() => null);
      if (job) progress.job(job);
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

function reportBackgroundFailure(answer: Promise<{ error: unknown } | { res: unknown }>, jobId: string): void {
  void answer.then((settled) => {
    if (!('error' in settled)) return;
    const err = settled.error as { code?: string; message?: string };
    process.stderr.write(`preflight mcp: the request running job ${jobId} ended early (${err.code ?? 'error'}: ${err.message ?? String(err)})\n`);
  });
}

export async function createRemoteJob(api: RemoteApi, input: CreateJobInput, ctx: OpContext, waitMs: number | undefined): Promise<CreatedJob> {
  const deadline = Date.now() + (waitMs ?? Number.POSITIVE_INFINITY);
  const progress = new RunProgress(ctx.progress);
  const { file_path, manifest_path, transcript_path, watchlist_path, expected_script_path, sidecar_dir, ...options } = input;
  const sidecars = await inlineLocalSidecars({ manifest_path, transcript_path, watchlist_path, expected_script_path, sidecar_dir });
  if (options.process_async && Object.keys(sidecars).length) {
    throw new ServiceError(
      'async_sidecars_unsupported',
      'process_async cannot carry sidecar files in remote mode (the server queue keeps no inline sidecars): run without process_async; the call waits a while, then returns the job to poll.',
      {},
      400,
    );
  }
  if (options.idempotency_key) {
    const earlier = await findByIdempotencyKey(api, options.idempotency_key, ctx.signal);
    if (earlier) return { job: earlier, replay: true };
  }
  let body: Record<string, unknown> = { ...options, ...sidecars };
  if (file_path !== undefined) {
    await precheckOptions(api, options, ctx.signal);
    const uploaded = await uploadLocalFile(api, file_path, { signal: ctx.signal, onProgress: (sent, total) => progress.upload(sent, total) });
    body = { ...body, upload_id: uploaded.uploadId, size_bytes: uploaded.sizeBytes };
  }
  if (options.process_async) {
    const { status, body: job } = await api.json<RemoteJob>('POST', '/v1/qc/jobs', { body, signal: ctx.signal });
    await progress.delivered();
    return { job, replay: status === 200 };
  }
  const run = queueKeepsAll(body) ? runQueued : runHeld;
  const created = await run(api, body, ctx.signal, progress, deadline);
  await progress.delivered();
  return created;
}
