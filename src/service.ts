// The service: every capability is one operation `op(principal, input, ctx)`; the MCP and REST doors only translate.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../engine/canonical-json.js';
import { EngineError } from '../engine/errors.js';
import { incompleteCheckReason as incompleteReason } from '../engine/delivery-requirements.js';
import { DEFAULT_ISSUER, sha256File, type Receipt } from '../engine/receipt.js';
import type { ReceiptKeyDocument } from '../engine/receipt-ed25519.js';
import { coverageOf, type Report } from '../engine/report.js';
import { costGuardrailBlockedError, estimateCost } from './billing/estimate.js';
import { checkFile, pricedReport, type FileCheck, type PricingOptions } from './check-file.js';
import { billingPeriodOf, meterJob, usageAllowance, usageLimitError, type UsageEntry } from './billing/ledger.js';
import type { Plan } from './billing/plans.js';
import { accountOf, accountPlan } from './accounts/workspace-account.js';
import { RESERVED_WORKSPACES } from './accounts/ids.js';
import { meteredMinutes } from './billing/minutes.js';
import { ServiceError } from './errors.js';
import { newId, resolveMedia, type ResolvedMedia } from './ingress/media.js';
import { artifactByFile, artifactByKind } from './jobs/artifact-table.js';
import { jobArtifactFiles } from './jobs/artifacts.js';
import { reusableCheck, reusedReportHtml, type StoredCheck } from './jobs/reuse.js';
import { reuseKey } from './reuse-key.js';
import { probe } from '../engine/probe.js';
import type { Signals } from '../engine/types.js';
import { toQcJob, type JobRecord, type JobRequest, type JobUrls } from './jobs/record.js';
import type { CreateJobInput } from './schemas/create-job.js';
import { GateVerdictInputSchema, type GateVerdictInput } from './schemas/gate-verdict.js';
import { parseInput } from './accounts/parse-input.js';
import type { EstimateInput, EstimateOutput } from './schemas/estimate.js';
import type { Artifact, JobEvent, JobStatus, ListJobsQuery, QcJob } from './schemas/job.js';
import { loadSidecars, type SidecarInput } from './sidecars/index.js';
import type { EngineSidecars } from '../engine/sidecars/index.js';
import type { MediaInfo } from '../engine/types.js';
import { receiptKeyDocument } from './receipt-keys.js';
import { checkReceipt, issueReceipt, RUN_FULL_PROFILE, type ReceiptCheck } from './receipts.js';
import { loadSigningKey } from './signing-key.js';
import { assertDeliveryUrl } from './webhooks/url-policy.js';
import { acquireDataDirLock, type DataDirLock } from './store/lock.js';
import { openStorage, type Storage } from './storage/index.js';
import { inTransaction, type Database } from './storage/database.js';
import type { ObjectStore } from './storage/object-store.js';
import { newJobRecord } from './jobs/new-record.js';
import { JOB_ATTEMPTS } from './storage/repositories/jobs.js';
import { storeUploadBody, uploadedMediaFile } from './uploads-storage.js';
import {
  assertPutAllowed,
  discardBody,
  newUploadRecord,
  publicUpload,
  type CreateUploadInput,
  type Upload,
  type UploadStored,
} from './uploads.js';
import type { Readable } from 'node:stream';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import { assertFetchableUrl, assertPublicUrlHost, fetchText, fetchToTempFile, policyFromEnv } from './ingress/remote.js';

export interface Principal {
  workspaceId: string;
  scopes: string[];
  operator: boolean;
  /** The workspace's plan (default free) and approved overage spend: limits apply to non-operator principals. */
  planId?: string | null;
  overageCapCents?: number | null;
  /** Custom plan economics of the workspace's key, when it has them. */
  includedMinutes?: number | null;
  planPriceCents?: number | null;
  /** The key the caller authenticated with and its owner, recorded on what it creates (uploads, webhooks). */
  keyId?: string | null;
  ownerEmail?: string | null;
}

/** The implicit principal of the local MCP mode and the CLI. */
export const LOCAL_PRINCIPAL: Principal = { workspaceId: RESERVED_WORKSPACES.local, scopes: ['*'], operator: true };

export interface OpContext {
  signal?: AbortSignal;
  /** 0..100 and what is happening. */
  progress?: (pct: number, message: string) => void;
}

/** Account rules of `preflight serve`: abuse limits, usage refusals and spend alerts (src/accounts). */
export interface AccountHooks {
  checkAbuseLimits(principal: Principal, input: { durationSeconds?: number; sizeBytes?: number; activeJobs: number }): Promise<void>;
  recordUsageRefusal(principal: Principal, error: ServiceError): Promise<unknown>;
  afterUsage(principal: Principal, change: { minutesBefore: number; minutesAfter: number; billingPeriod: string }): Promise<unknown>;
}

/** Where a job's completion is posted, and the secret (sealed) that signs it. */
export interface JobCallback {
  url: string;
  sealedSecret: string;
}

/** Receives finished jobs (the webhook service). */
export interface JobEventSink {
  enqueueJobEvent(job: QcJob & { workspaceId: string }, callback: JobCallback | null): Promise<unknown>;
  /** Seals a job's callback secret for storage, bound to the job. */
  sealCallbackSecret(jobId: string, secret: string): string;
}

export type { Artifact, JobEvent } from './schemas/job.js';

export interface ServiceOptions {
  home: string;
  env?: NodeJS.ProcessEnv;
  /** Largest decoded inline media accepted, bytes. */
  inlineMaxBytes?: number;
  urls?: JobUrls;
}

// Base64 of this stays under the 10 MiB message cap of MCP stdio, with room for the rest of the call.
const DEFAULT_INLINE_MAX_BYTES = 6 * 1024 * 1024;

export const LOCAL_URLS: JobUrls = {
  status: (id) => `preflight://jobs/${id}`,
  report: (id) => `preflight://jobs/${id}/report`,
  artifact: (id, file) => `preflight://jobs/${id}/artifacts/${file}`,
};

/** Job URLs on the REST door. */
export function restUrls(base: string): JobUrls {
  return {
    status: (id) => `${base}/v1/qc/jobs/${id}`,
    report: (id) => `${base}/v1/qc/jobs/${id}/report`,
    artifact: (id, file) => `${base}/v1/qc/jobs/${id}/${artifactByFile(file)?.restPath ?? `artifacts/${file}`}`,
  };
}

const REMOTE_SIDECARS = [
  ['manifest_url', 'manifest'],
  ['transcript_url', 'transcript'],
  ['watchlist_url', 'watchlist'],
  ['expected_script_url', 'expected_script'],
  ['chunk_sidecars_url', 'chunk_sidecars'],
] as const;

const SIDECAR_PATH_FIELDS = ['manifest_path', 'transcript_path', 'watchlist_path', 'expected_script_path', 'sidecar_dir'] as const;
const INLINE_FIELDS = [
  'media_base64', 'video_base64', 'audio_base64', 'data_url',
  'manifest_json', 'manifest_base64', 'transcript_text', 'transcript_json', 'transcript_base64', 'watchlist_json', 'watchlist_base64',
  'expected_script_text', 'expected_script_json', 'expected_script_base64', 'chunk_sidecars_json', 'chunk_sidecars_base64',
] as const;

const now = () => new Date().toISOString();

/** What a later job reuses of an earlier one's stored check. */
const REUSE_FILES = [artifactByKind('report_json').file, artifactByKind('receipt').file, artifactByKind('report_html').file];

/**
 * What `GET /v1/qc/jobs?source_url=` compares: the SHA-256 of the media URL a job was created from, so the URL itself
 * (a signed URL carries secrets) is never stored.
 */
function sourceUrlKey(url: string): string {
  let normalised = url;
  try {
    normalised = new URL(url).href;
  } catch {
    /* compared as given */
  }
  return createHash('sha256').update(normalised).digest('hex');
}

/** Identifies a create request for its idempotency key: the hash of its canonical JSON. */
const requestFingerprint = (input: CreateJobInput): string => createHash('sha256').update(canonicalJson(input)).digest('hex');

type PlanFields = Pick<CreateJobInput, 'plan_id' | 'plan_price_cents' | 'included_minutes'>;

/** A workspace's plan (custom economics applied) and its approved overage spend. */
interface Economics {
  plan: Plan;
  overageCapCents: number | null;
}

/** The estimate fields that price a request on `economics`. */
const pricedAs = ({ plan }: Economics): PlanFields => ({ plan_id: plan.id, plan_price_cents: plan.priceCents, included_minutes: plan.includedMinutes });

type RunInput = Pick<CreateJobInput, 'profile' | 'checks' | 'ai_review_seconds' | 'cost_guardrail' | 'reuse'> & {
  sidecars?: EngineSidecars;
  economics: Economics;
  /** The media's hash when limits apply, so a free re-check is known before the run. */
  sha256: string | null;
};

/** A fresh check, or an earlier job's stored report reused (no signals: nothing was decoded). */
type JobCheck = Pick<FileCheck, 'report' | 'media' | 'mediaMinutes' | 'metered' | 'estimate' | 'at'> & { signals: Signals | null; reusedFrom?: StoredCheck };

function sidecarFields(input: CreateJobInput): SidecarInput {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    if (v !== undefined && (k.startsWith('manifest_') || k.startsWith('transcript_') || k.startsWith('watchlist_') || k.startsWith('expected_script_') || k.startsWith('chunk_sidecar') || k === 'sidecar_dir')) out[k] = v;
  }
  return out as SidecarInput;
}

/** How long a worker holds a running job before another may take it; renewed while the job runs. */
const DEFAULT_LEASE_MS = 60_000;

/** PREFLIGHT_JOB_LEASE_SECONDS, 5 to 3600 (default 60). */
export function jobLeaseMs(env: NodeJS.ProcessEnv): number {
  const raw = env.PREFLIGHT_JOB_LEASE_SECONDS?.trim();
  if (!raw) return DEFAULT_LEASE_MS;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 5 || seconds > 3600) throw new Error(`PREFLIGHT_JOB_LEASE_SECONDS must be 5 to 3600, got ${JSON.stringify(raw)}`);
  return Math.round(seconds * 1000);
}

export class PreflightService {
  /**
   * Jobs running in this process: the live record (progress is kept here, not written), how to stop it, and whether it
   * came from the queue (then it can be handed back).
   */
  private readonly running = new Map<string, { promise: Promise<void>; abort: AbortController; record: JobRecord; queued: boolean }>();
  /** Queued jobs this process has taken (a worker or a drain). */
  private readonly claimed = new Set<string>();
  /** Queued jobs being stopped to be handed back to the queue (the process is stopping). */
  private readonly handingBack = new Set<string>();
  /** Jobs whose lease this process could not renew: another worker took them over, their result is not ours. */
  private readonly leaseLost = new Set<string>();
  /** Set when this process stops taking jobs: queued jobs it has not started yet go back. */
  private stopping = false;
  /** Who holds this process's leases on running jobs. */
  readonly workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  /** How long this process holds a running job without renewing it (PREFLIGHT_JOB_LEASE_SECONDS). */
  readonly leaseMs: number;
  private leaseTimer: NodeJS.Timeout | null = null;
  /** Minutes each running check was allowed after its probe, until it is metered. */
  private readonly reserved = new Map<string, { workspaceId: string; minutes: number }>();
  private closed = false;
  /** Set while an HTTP door serves this service: signed upload URLs point at it. */
  private publicBaseUrl: string | null = null;
  /** Set by `preflight serve`: finished jobs are announced to webhooks and callback URLs. */
  private webhooks: JobEventSink | null = null;
  /** Who receipts say signed them: the server's public URL (where its keys are published), else `preflight`. */
  private issuer = DEFAULT_ISSUER;

  private readonly db: Database;
  private readonly objects: ObjectStore;

  private constructor(
    private readonly storage: Storage,
    private readonly lock: DataDirLock,
    private readonly opts: Required<Pick<ServiceOptions, 'home' | 'inlineMaxBytes' | 'urls'>> & { env: NodeJS.ProcessEnv },
  ) {
    this.db = storage.db;
    this.objects = storage.objects;
    this.leaseMs = jobLeaseMs(opts.env);
  }

  /**
   * Opens the data dir: its lock, the database (embedded in PREFLIGHT_HOME/db, or PREFLIGHT_DATABASE_URL) with an
   * older db.json imported on first start, and the object store.
   */
  static async open(options: ServiceOptions): Promise<PreflightService> {
    const env = options.env ?? process.env;
    const lock = acquireDataDirLock(options.home);
    let storage: Storage | null = null;
    try {
      storage = await openStorage(options.home, env);
      const service = new PreflightService(storage, lock, {
        home: options.home,
        env,
        inlineMaxBytes: options.inlineMaxBytes ?? DEFAULT_INLINE_MAX_BYTES,
        urls: options.urls ?? LOCAL_URLS,
      });
      await service.recoverJobs({ startup: true });
      service.startLeaseRenewal();
      return service;
    } catch (err) {
      await storage?.db.close().catch(() => {});
      lock.release();
      throw err;
    }
  }

  /**
   * Stops running checks (queued jobs go back to the queue, a synchronous job fails: its caller is gone), closes the
   * store, releases the data dir.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.handBack();
    this.closed = true;
    for (const run of this.running.values()) run.abort.abort();
    await Promise.allSettled([...this.running.values()].map((r) => r.promise));
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    await this.db.close().catch(() => {});
    this.lock.release();
  }

  /** One embedded process owns its database; a Postgres server is shared by many processes. */
  get embedded(): boolean {
    return this.db.sql.kind === 'pglite';
  }

  /**
   * The jobs this process runs keep their lease while they run; a dead process's leases run out. A job whose lease was
   * taken over (this process stalled past it) is stopped here: the worker that has it now runs it.
   */
  private startLeaseRenewal(): void {
    this.leaseTimer = setInterval(() => {
      for (const [jobId, run] of this.running) {
        this.db.jobs
          .renewLease(jobId, this.workerId, this.leaseMs)
          .then((held) => {
            // Not held because it just finished here (finishing lets go of the lease) is no take-over.
            if (held || !this.running.has(jobId) || run.record.status !== 'running') return;
            process.stderr.write(`preflight: job ${jobId} was taken over by another worker after this one's lease ran out; stopping it here\n`);
            this.leaseLost.add(jobId);
            run.abort.abort();
          })
          .catch((err: Error) => process.stderr.write(`preflight: could not renew the lease of ${jobId}: ${err.message}\n`));
      }
    }, Math.max(1000, Math.floor(this.leaseMs / 3)));
    this.leaseTimer.unref();
  }

  private accounts: AccountHooks | null = null;
  /** Limit refusals raised on the real media, so a synchronous create can answer with their status (413/429). */
  private readonly limitRefusals = new Map<string, ServiceError>();

  attachAccounts(hooks: AccountHooks | null): void {
    this.accounts = hooks;
  }

  private activeJobs(workspaceId: string): Promise<number> {
    return this.db.jobs.countActive(workspaceId);
  }

  attachWebhooks(sink: JobEventSink | null): void {
    this.webhooks = sink;
  }

  private announce(record: JobRecord): void {
    if (!this.webhooks) return;
    this.webhooks
      .enqueueJobEvent(
        { ...toQcJob(record, this.opts.urls), workspaceId: record.workspaceId },
        record.callbackUrl && record.callbackSecretSealed ? { url: record.callbackUrl, sealedSecret: record.callbackSecretSealed } : null,
      )
      .catch((err: Error) => process.stderr.write(`preflight: could not queue the job event for ${record.jobId}: ${err.message}\n`));
  }

  /**
   * Called by an HTTP door serving this service, with the base URL clients reach it at. `issuer` is the public URL
   * the operator gave (`--public-url`): receipts then name it, and verifiers find its keys there.
   */
  attachHttp(baseUrl: string | null, opts: { restUrls?: boolean; issuer?: string } = {}): void {
    this.publicBaseUrl = baseUrl ? baseUrl.replace(/\/+$/, '') : null;
    if (opts.restUrls && this.publicBaseUrl) this.opts.urls = restUrls(this.publicBaseUrl);
    this.issuer = baseUrl && opts.issuer ? opts.issuer.replace(/\/+$/, '') : DEFAULT_ISSUER;
  }

  // ------------------------------------------------------------------ start-up

  /**
   * Jobs whose worker died: a queued job with attempts left goes back to the queue, any other fails as `interrupted`
   * (docs/deploy.md). At the start of an embedded process every job left running had its worker die (one process owns
   * the database); on a shared server, and later on, only jobs whose lease ran out did. Workers call this every half
   * lease, so a job whose worker was killed runs again within about a lease and a half.
   */
  async recoverJobs(opts: { startup?: boolean } = {}): Promise<{ requeued: number; failed: number }> {
    const { requeued, failed } = await this.db.jobs.recover({ everyRunning: Boolean(opts.startup) && this.embedded });
    for (const j of requeued) {
      await this.event(j.jobId, { event_type: 'job.requeued', detail: `its worker stopped during attempt ${j.attempts ?? 1} of ${JOB_ATTEMPTS}` });
      await this.handToQueue(j.jobId);
    }
    for (const j of failed) {
      await this.event(j.jobId, { event_type: 'job.failed', detail: 'interrupted: the process stopped while the job was running' });
      this.announce(j);
    }
    return { requeued: requeued.length, failed: failed.length };
  }

  /**
   * The queue gave up on a job (its attempts all threw, e.g. the store was unreachable): it fails as `interrupted`,
   * unless a live worker holds it or it finished. True when it was failed here.
   */
  async abandonJob(jobId: string): Promise<boolean> {
    const failed = await this.db.jobs.failAbandoned(jobId);
    if (!failed) return false;
    await this.event(jobId, { event_type: 'job.failed', detail: 'interrupted: the queue gave up on the job after its retries' });
    this.announce(failed);
    return true;
  }

  /**
   * Stops taking queued jobs and hands back the ones running here: their checks stop, their records go back to
   * queued (the attempt is not counted) and to the queue, for another worker or the next start.
   */
  async handBack(): Promise<void> {
    this.stopping = true;
    const runs = [...this.running].filter(([, run]) => run.queued);
    for (const [jobId, run] of runs) {
      this.handingBack.add(jobId);
      run.abort.abort();
    }
    await Promise.allSettled(runs.map(([, run]) => run.promise));
  }

  private async giveBack(record: JobRecord): Promise<void> {
    try {
      if (!(await this.db.jobs.release(record.jobId, this.workerId))) return;
      await this.event(record.jobId, { event_type: 'job.handed_back', detail: 'the worker stopped before the job ended; queued again' });
      await this.handToQueue(record.jobId);
    } catch (err) {
      // Left running under a lease that is no longer renewed: it comes back when the lease runs out.
      process.stderr.write(`preflight: could not hand job ${record.jobId} back to the queue: ${(err as Error).message}\n`);
    }
  }

  private async handToQueue(jobId: string): Promise<void> {
    await this.jobQueued?.(jobId).catch((err: Error) => process.stderr.write(`preflight: could not queue job ${jobId}: ${err.message} (it is queued again at the next worker start)\n`));
  }

  // ------------------------------------------------------------------ access

  /** The job as stored, or as it runs in this process (its progress lives in memory). */
  private async record(principal: Principal, jobId: string): Promise<JobRecord> {
    const job = this.running.get(jobId)?.record ?? (await this.db.jobs.get(jobId));
    if (!job || (!principal.operator && job.workspaceId !== principal.workspaceId)) {
      throw new ServiceError('job_not_found', `No job ${jobId}.`, { jobId }, 404);
    }
    return job;
  }

  /** A job's events are written in the order they happen, one after another (a stage event is not awaited). */
  private readonly eventChains = new Map<string, Promise<void>>();

  private event(jobId: string, e: Omit<JobEvent, 'created_at'>): Promise<void> {
    const line = { ...e, created_at: now() };
    const next = (this.eventChains.get(jobId) ?? Promise.resolve()).catch(() => {}).then(() => this.db.jobs.appendEvent(jobId, line));
    this.eventChains.set(jobId, next);
    void next.catch(() => {}).finally(() => {
      if (this.eventChains.get(jobId) === next) this.eventChains.delete(jobId);
    });
    return next;
  }

  private jobFile(jobId: string, file: string): string {
    return `jobs/${jobId}/${file}`;
  }

  private async readJobFile(jobId: string, file: string): Promise<string | null> {
    return (await this.objects.get(this.jobFile(jobId, file)))?.toString('utf8') ?? null;
  }

  // ------------------------------------------------------------------ operations

  /** Priced on the caller's workspace economics (see `economics`). */
  async estimate(principal: Principal, input: EstimateInput): Promise<EstimateOutput> {
    return estimateCost({ ...input, ...pricedAs(await this.economics(principal, input)) });
  }

  async getJob(principal: Principal, jobId: string): Promise<QcJob & { stage: string | null }> {
    const r = await this.record(principal, jobId);
    return { ...toQcJob(r, this.opts.urls), stage: r.stage };
  }

  async listJobs(principal: Principal, query: ListJobsQuery): Promise<QcJob[]> {
    const limit = Math.min(100, Math.max(1, query.limit ?? 20));
    const source = query.source_url === undefined ? undefined : sourceUrlKey(query.source_url);
    let jobId: string | undefined;
    if (query.idempotency_key !== undefined) {
      const hit = await this.db.jobs.findIdempotent(principal.workspaceId, query.idempotency_key);
      if (!hit) return [];
      jobId = hit.jobId;
    }
    const jobs = await this.db.jobs.list({
      workspaceId: principal.operator ? undefined : principal.workspaceId,
      status: query.status || undefined,
      sourceUrlSha256: source,
      jobId,
      limit,
    });
    return jobs.map((j) => toQcJob(this.running.get(j.jobId)?.record ?? j, this.opts.urls));
  }

  private async completed(principal: Principal, jobId: string, what: string): Promise<JobRecord> {
    const r = await this.record(principal, jobId);
    if (r.status === 'failed') throw new ServiceError('job_failed', `Job ${jobId} failed (${r.failureReason}); it has no ${what}.`, { jobId }, 409);
    if (r.status !== 'completed') {
      throw new ServiceError('job_not_completed', `Job ${jobId} is ${r.status} (${r.progressPct} %); poll it until completed, then fetch the ${what}.`, { jobId, status: r.status }, 409);
    }
    return r;
  }

  async getReport(principal: Principal, jobId: string): Promise<Report> {
    await this.completed(principal, jobId, 'report');
    return JSON.parse((await this.readJobFile(jobId, 'report.json')) ?? 'null') as Report;
  }

  /**
   * The receipt of a completed job. A job whose check did not run its whole delivery profile (a narrowed repair
   * check, an errored gate) has none: 409 receipt_incomplete_check. Receipts stored before that rule are held to it too.
   */
  async getReceipt(principal: Principal, jobId: string): Promise<Receipt> {
    await this.completed(principal, jobId, 'receipt');
    const report = JSON.parse((await this.readJobFile(jobId, 'report.json')) ?? 'null') as Report | null;
    const stored = await this.readJobFile(jobId, 'receipt.json');
    const receipt = stored === null ? null : (JSON.parse(stored) as Receipt);
    const coverage = report ? coverageOf(report) : null;
    if (receipt && coverage?.complete) return receipt;
    const why = (coverage && incompleteReason(coverage)) ?? RUN_FULL_PROFILE;
    throw new ServiceError(
      'receipt_incomplete_check',
      `Job ${jobId} has no receipt: ${why}. Re-running the full profile on the same file is free within the month.`,
      { jobId, coverage },
      409,
    );
  }

  async getMarkerCsv(principal: Principal, jobId: string): Promise<string> {
    await this.completed(principal, jobId, 'marker CSV');
    return (await this.readJobFile(jobId, 'markers.csv')) ?? '';
  }

  async getEvents(principal: Principal, jobId: string): Promise<JobEvent[]> {
    await this.record(principal, jobId);
    return (await this.db.jobs.events(jobId)) as JobEvent[];
  }

  async getArtifacts(principal: Principal, jobId: string): Promise<Artifact[]> {
    const r = await this.record(principal, jobId);
    return r.artifacts.map((a) => ({
      artifact_type: a.artifact_type,
      url: this.opts.urls.artifact(jobId, a.file),
      content_type: a.contentType,
      bytes: a.bytes,
      created_at: a.createdAt,
    }));
  }

  async getArtifactContent(principal: Principal, jobId: string, file: string): Promise<{ content: string; contentType: string }> {
    const r = await this.record(principal, jobId);
    const artifact = r.artifacts.find((a) => a.file === file);
    const content = artifact ? await this.readJobFile(jobId, artifact.file) : null;
    if (!artifact || content === null) throw new ServiceError('artifact_not_found', `Job ${jobId} has no artifact ${file}.`, { jobId, file }, 404);
    return { content, contentType: artifact.contentType };
  }

  /**
   * Verifies a receipt as its issuer would, with this data dir's HMAC secret and public keys (read, never created),
   * or with the key document the caller gives for another issuer's receipt. It never fetches anything.
   */
  verifyReceipt(receipt: unknown, opts: { fileSha256?: unknown; filePath?: string; publicKeys?: unknown } = {}): Promise<ReceiptCheck> {
    return checkReceipt(receipt, { ...opts, home: this.opts.home, env: this.opts.env, ownIssuer: this.issuer, issuerSide: true });
  }

  /** The receipt public keys this issuer publishes (JWKS); creates the signing key on first use. */
  receiptKeys(): ReceiptKeyDocument {
    return receiptKeyDocument({ home: this.opts.home, env: this.opts.env });
  }

  signingKeySource(): 'env' | 'file' {
    return loadSigningKey({ env: this.opts.env, home: this.opts.home }).source;
  }

  /** The database, for the other services of this process (accounts, webhooks) that keep their records beside the jobs. */
  get records(): Database {
    return this.db;
  }

  /** The object store reports, artifacts and uploads live in. */
  get objectStore(): ObjectStore {
    return this.objects;
  }

  /**
   * Records a client's own gate verdict beside ours. It never changes the job's verdict or receipt: a claim of PASS on
   * a BLOCK job is kept as a disagreeing claim.
   */
  async importGateVerdict(principal: Principal, jobId: string, input: GateVerdictInput) {
    const job = await this.record(principal, jobId);
    const body = parseInput(GateVerdictInputSchema, input, 'invalid_gate_verdict', 'gate verdict');
    const claimsPass = body.verdict !== 'BLOCK';
    const ours = job.verdict;
    const record = {
      importId: newId('gvi'),
      jobId,
      workspaceId: job.workspaceId,
      claimedVerdict: body.verdict,
      blocked: body.blocked ?? [],
      skipped: body.skipped ?? [],
      perCheck: body.per_check ?? {},
      ourVerdict: ours,
      disagrees: ours !== null && (claimsPass ? ours === 'BLOCK' : ours !== 'BLOCK'),
      createdAt: now(),
    };
    await this.db.gateVerdicts.insert(record);
    await this.event(jobId, { event_type: 'gate_verdict.imported', detail: `client claims ${body.verdict}; our verdict ${ours ?? 'pending'}` });
    return {
      ...record,
      verdict: ours,
      note: 'Recorded as a client claim. The job verdict and its receipt are always Preflight\'s own and are not changed by an import.',
    };
  }

  // ------------------------------------------------------------------ uploads

  async createUpload(principal: Principal, input: CreateUploadInput): Promise<{ upload: Upload; token: string }> {
    if (!this.publicBaseUrl) {
      throw new ServiceError(
        'uploads_unavailable',
        'Upload URLs need an HTTP door in this process: start the server with `preflight mcp --upload-port <port>` (or use `preflight serve`). For a file on this machine call qc_run_local_file with its path instead.',
        {},
        503,
      );
    }
    if (this.accounts && !principal.operator) {
      await this.accounts.checkAbuseLimits(principal, { sizeBytes: input.size_bytes, activeJobs: 0 });
    }
    const { record, token } = newUploadRecord(principal, input);
    record.storageMode = this.objects.mode;
    await this.db.uploads.insert(record);
    return { upload: publicUpload(record, this.publicBaseUrl, token), token };
  }

  async getUpload(principal: Principal, uploadId: string): Promise<Upload & { bytesReceived: number | null; sha256: string | null }> {
    const record = await this.db.uploads.get(uploadId);
    if (!record || !(principal.operator || record.workspaceId === principal.workspaceId)) throw new ServiceError('upload_not_found', `No upload ${uploadId}.`, { uploadId }, 404);
    return { ...publicUpload(record, this.publicBaseUrl ?? ''), bytesReceived: record.bytesReceived, sha256: record.sha256 };
  }

  /** The signed PUT: the token is the authorisation; the body streams to the object store with the reserved size as its cap. */
  async storeUploadContent(uploadId: string, token: string | undefined, body: Readable): Promise<UploadStored> {
    const found = (await this.db.uploads.get(uploadId)) ?? undefined;
    try {
      assertPutAllowed(found, token);
    } catch (err) {
      await discardBody(body);
      throw err;
    }
    const stored = await storeUploadBody(this.objects, uploadId, body, found.sizeBytes);
    const record = await this.db.uploads.update(uploadId, (u) => {
      u.status = 'uploaded';
      u.bytesReceived = stored.bytes;
      u.sha256 = stored.sha256;
      u.storageMode = this.objects.mode;
      if (this.objects.mode === 'object_storage') {
        u.objectKey = stored.key;
        u.objectUrl = this.objects.url(stored.key);
      }
    });
    if (!record) throw new ServiceError('upload_not_found', `No upload ${uploadId}.`, { uploadId }, 404);
    return {
      uploadId,
      status: 'uploaded',
      storageMode: record.storageMode,
      bytesReceived: stored.bytes,
      sha256: stored.sha256,
      ...(record.objectKey ? { objectKey: record.objectKey } : {}),
      ...(record.objectUrl ? { objectUrl: record.objectUrl } : {}),
    };
  }

  /** The caller's upload with its bytes stored: its ingress and the hash taken when the bytes arrived. */
  private async uploadedRecord(principal: Principal, uploadId: string): Promise<Pick<ResolvedMedia, 'ingress' | 'sha256'>> {
    const record = await this.db.uploads.get(uploadId);
    if (!record || !(principal.operator || record.workspaceId === principal.workspaceId)) throw new ServiceError('upload_not_found', `No upload ${uploadId}.`, { uploadId }, 404);
    if (record.status !== 'uploaded') {
      throw new ServiceError('upload_not_uploaded', `Upload ${uploadId} has no content yet: PUT the bytes to its signed URL first.`, { uploadId }, 409);
    }
    return {
      ingress: { mode: 'signed_upload', contentType: record.contentType, bytes: record.bytesReceived, ephemeral: false, storageMode: record.storageMode },
      sha256: record.sha256,
    };
  }

  private async uploadedMedia(principal: Principal, uploadId: string): Promise<ResolvedMedia> {
    const upload = await this.uploadedRecord(principal, uploadId);
    const file = await uploadedMediaFile(this.objects, uploadId);
    return { ...upload, path: file.path, cleanup: file.cleanup };
  }

  private async jobMedia(principal: Principal, input: CreateJobInput, ctx: OpContext): Promise<ResolvedMedia> {
    if (input.signed_url) {
      const { signed_url, ...rest } = input;
      const others = ['file_path', 'media_base64', 'video_base64', 'audio_base64', 'data_url', 'platform_video_url', 'upload_id'].filter((f) => rest[f as keyof typeof rest]);
      if (others.length) throw new ServiceError('ambiguous_media', `Give one media source, not signed_url and ${others.join(' and ')}.`, {}, 400);
      const file = await fetchToTempFile(signed_url, policyFromEnv(this.opts.env), { signal: ctx.signal, filenameHint: input.filename });
      return {
        path: file.path,
        ingress: { mode: 'remote_url', contentType: file.contentType, bytes: file.bytes, ephemeral: true, storageMode: 'host_temp_storage' },
        sha256: file.sha256,
        cleanup: file.cleanup,
      };
    }
    if (input.upload_id) {
      const { upload_id, ...rest } = input;
      const others = ['file_path', 'media_base64', 'video_base64', 'audio_base64', 'data_url', 'platform_video_url', 'signed_url'].filter((f) => rest[f as keyof typeof rest]);
      if (others.length) throw new ServiceError('ambiguous_media', `Give one media source, not upload_id and ${others.join(' and ')}.`, {}, 400);
      return await this.uploadedMedia(principal, upload_id);
    }
    // yt-dlp fetches the platform URL itself: at least its host must not be loopback, private or metadata.
    if (input.platform_video_url) assertPublicUrlHost(input.platform_video_url, policyFromEnv(this.opts.env));
    return resolveMedia(input, { inlineMaxBytes: this.opts.inlineMaxBytes, signal: ctx.signal });
  }

  /**
   * Fetches sidecar URLs (HTTPS, public addresses only, size and time caps) into their inline forms; the URLs and the
   * fetched contents are never stored or shown.
   */
  private async fetchRemoteSidecars(input: CreateJobInput, ctx: OpContext): Promise<{ inline: SidecarInput; fetched: string[] }> {
    const urls = input as Record<string, unknown>;
    const inline: Record<string, unknown> = {};
    const fetched: string[] = [];
    const policy = policyFromEnv(this.opts.env);
    for (const [field, target] of REMOTE_SIDECARS) {
      const url = urls[field];
      if (typeof url !== 'string' || !url) continue;
      const { text } = await fetchText(url, policy, { signal: ctx.signal });
      inline[`${target}_base64`] = Buffer.from(text, 'utf8').toString('base64');
      const name = basename(new URL(url).pathname);
      if (name && target !== 'chunk_sidecars') inline[`${target}_filename`] = name;
      fetched.push(field);
    }
    return { inline: inline as SidecarInput, fetched };
  }

  // ------------------------------------------------------------------ create, run, drain

  /**
   * Creates a job. Sync mode starts the check now and waits up to `waitMs` (default: until done); the run goes on in
   * this process if the wait ends first and the caller polls. Async mode queues it for a worker (or a drain).
   */
  async createJob(principal: Principal, input: CreateJobInput, ctx: OpContext = {}, opts: { waitMs?: number } = {}): Promise<{ job: QcJob; replay: boolean; queued: boolean }> {
    if (this.closed) throw new ServiceError('service_closed', 'The service is shutting down.', {}, 503);
    const replayed = await this.idempotentReplay(principal, input);
    if (replayed) return { job: replayed, replay: true, queued: false };
    if (input.callback_url !== undefined || input.callback_secret !== undefined) {
      if (!this.webhooks) throw new ServiceError('callback_unavailable', 'callback_url needs the HTTP server (`preflight serve`), which delivers callbacks; poll the job instead.', {}, 501);
      if (input.callback_url === undefined || input.callback_secret === undefined) {
        throw new ServiceError(
          'callback_secret_required',
          'callback_url and callback_secret go together: the completion POST is signed with the callback_secret you choose (24 to 256 characters), so your receiver can verify it (docs/webhooks.md).',
          {},
          400,
        );
      }
      assertDeliveryUrl(input.callback_url, this.opts.env);
    }
    const economics = await this.economics(principal, input);
    const estimate = estimateCost({ ...input, ...pricedAs(economics) });
    if (estimate.action === 'blocked') throw costGuardrailBlockedError(estimate);
    if (this.accounts && !principal.operator) {
      await this.accounts.checkAbuseLimits(principal, {
        durationSeconds: input.duration_seconds,
        sizeBytes: (input as { size_bytes?: number }).size_bytes,
        activeJobs: await this.activeJobs(principal.workspaceId),
      });
    }
    // Before the media is probed only the declared duration is known (1 minute when none is declared); the run checks
    // the allowance again on the measured one.
    const declaredMinutes = input.duration_seconds === undefined ? 1 : estimate.minutes;
    if (input.process_async) return { job: await this.queue(principal, input, estimate.cost_estimate, economics, declaredMinutes), replay: false, queued: true };

    const media = await this.jobMedia(principal, input, ctx);
    let sidecars;
    let sha256: string | null;
    try {
      sha256 = await this.mediaHashForLimits(principal, media);
      await this.assertUsageAllowed(principal, economics, await this.chargeableMinutes(principal.workspaceId, sha256, declaredMinutes));
      const remote = await this.fetchRemoteSidecars(input, ctx);
      sidecars = await loadSidecars({ ...sidecarFields(input), ...remote.inline });
      if (remote.fetched.length && sidecars.ingress) sidecars.ingress = { ...sidecars.ingress, mode: 'remote_https_sidecars', ephemeral: true, neverExposes: [...sidecars.ingress.neverExposes, 'sidecar URLs'] };
    } catch (err) {
      media.cleanup();
      throw err;
    }
    let record: JobRecord;
    try {
      const created = await this.newRecord(principal, input, estimate.cost_estimate, 'running', null, {
        mediaIngress: { ...media.ingress, sha256: null },
        sidecarIngress: sidecars.ingress,
        startedAt: now(),
      });
      if (!created.created) {
        media.cleanup();
        return { job: await this.getJob(principal, created.record.jobId), replay: true, queued: false };
      }
      record = created.record;
    } catch (err) {
      media.cleanup();
      throw err;
    }
    const done = this.start(record, media, { ...input, sidecars: sidecars.sidecars, economics, sha256 }, ctx, principal);
    if (opts.waitMs === undefined) {
      await done;
      const refusal = this.limitRefusals.get(record.jobId);
      this.limitRefusals.delete(record.jobId);
      if (refusal) throw refusal;
    } else await Promise.race([done, new Promise((r) => setTimeout(r, opts.waitMs).unref())]);
    return { job: await this.getJob(principal, record.jobId), replay: false, queued: false };
  }

  /**
   * The job an idempotency key already names in the caller's workspace: returned for the same request, a conflict
   * for a different one (as payment APIs answer), so a reused key never silently stands for another request.
   */
  private async idempotentReplay(principal: Principal, input: CreateJobInput): Promise<QcJob | null> {
    if (!input.idempotency_key) return null;
    const hit = await this.db.jobs.findIdempotent(principal.workspaceId, input.idempotency_key);
    if (!hit) return null;
    if (hit.requestSha256 !== null && hit.requestSha256 !== requestFingerprint(input)) {
      throw new ServiceError(
        'idempotency_conflict',
        `idempotency_key "${input.idempotency_key}" was used for a different request (job ${hit.jobId}); send the same request to get that job, or use a new key.`,
        { idempotencyKey: input.idempotency_key, jobId: hit.jobId },
        409,
      );
    }
    return this.getJob(principal, hit.jobId);
  }

  /**
   * The plan a request is priced and limited on. A workspace key gets its workspace's own economics whatever it asks
   * for; an operator (and the local door) what it names, else its workspace's. Estimates, job prices, usage limits
   * and ledger entries all come from here.
   */
  private async economics(principal: Principal, requested: PlanFields): Promise<Economics> {
    const account = accountOf(await this.db.keys.list(principal.workspaceId), principal);
    const named = principal.operator && (requested.plan_id !== undefined || requested.plan_price_cents !== undefined || requested.included_minutes !== undefined);
    const terms = named ? { planId: requested.plan_id ?? null, planPriceCents: requested.plan_price_cents ?? null, includedMinutes: requested.included_minutes ?? null } : account;
    return { plan: accountPlan(terms), overageCapCents: account.overageCapCents };
  }

  /** The media's hash when limits apply (a re-check of a file already charged this month is free, even at the cap). */
  private async mediaHashForLimits(principal: Principal, media: ResolvedMedia): Promise<string | null> {
    if (principal.operator) return null;
    return media.sha256 ?? sha256File(media.path);
  }

  /** Minutes a check of `sha256` would charge now: 0 when that file was already charged this month. */
  private async chargeableMinutes(workspaceId: string, sha256: string | null, minutes: number): Promise<number> {
    const at = new Date();
    const entries = sha256 === null ? [] : await this.db.usage.forMedia(workspaceId, billingPeriodOf(at), sha256);
    return meterJob({ workspaceId, sha256, mediaMinutes: minutes, at, entries }).minutesMetered;
  }

  /** Minutes running checks of a workspace have been allowed and not yet metered; `except` is left out. */
  private reservedMinutes(workspaceId: string, except?: string): number {
    let minutes = 0;
    for (const [jobId, r] of this.reserved) if (r.workspaceId === workspaceId && jobId !== except) minutes += r.minutes;
    return minutes;
  }

  /**
   * Refuses minutes the workspace's included minutes and approved overage cap cannot pay for (a zero or omitted cap
   * blocks at the included minutes), counting what its running checks were already allowed. The refusal is stored as
   * an abuse event.
   */
  private async assertUsageAllowed(principal: Principal, economics: Economics, requestedMinutes: number, exceptJob?: string): Promise<void> {
    if (principal.operator) return;
    const { plan, overageCapCents } = economics;
    const used = (await this.db.usage.minutesUsed(principal.workspaceId, billingPeriodOf(new Date()))) + this.reservedMinutes(principal.workspaceId, exceptJob);
    const allowance = usageAllowance({ plan, used, requested: requestedMinutes, overageCapCents });
    if (allowance.allowed) return;
    const error = usageLimitError(allowance, { planId: plan.id, includedMinutes: plan.includedMinutes, minutesUsed: used, requestedMinutes });
    if (this.accounts) await this.accounts.recordUsageRefusal(principal, error);
    throw error;
  }

  private async queue(principal: Principal, input: CreateJobInput, costEstimate: QcJob['costEstimate'], economics: Economics, declaredMinutes: number): Promise<QcJob> {
    const inline = INLINE_FIELDS.filter((f) => input[f] !== undefined);
    if (inline.length) {
      throw new ServiceError('async_inline_unsupported', `process_async jobs cannot carry inline media or sidecars (${inline.join(', ')}); pass file paths.`, { fields: inline }, 400);
    }
    if (!input.file_path && !input.upload_id) throw new ServiceError('missing_media', 'A queued job needs file_path or upload_id.', {}, 400);
    // An upload is not fetched here (its hash was taken when its bytes arrived): the worker that runs the job reads it.
    const upload = input.upload_id ? await this.uploadedRecord(principal, input.upload_id) : null;
    const media = upload ? null : await resolveMedia({ file_path: input.file_path }, { inlineMaxBytes: 0 });
    try {
      const sha256 = principal.operator ? null : upload ? (upload.sha256 ?? null) : await this.mediaHashForLimits(principal, media!);
      await this.assertUsageAllowed(principal, economics, await this.chargeableMinutes(principal.workspaceId, sha256, declaredMinutes));
    } finally {
      media?.cleanup();
    }
    const sidecars: SidecarInput = {};
    for (const f of SIDECAR_PATH_FIELDS) if (input[f]) sidecars[f] = input[f];
    const sidecarUrls: Record<string, string> = {};
    for (const [field] of REMOTE_SIDECARS) {
      const url = (input as Record<string, unknown>)[field];
      if (typeof url === 'string' && url) sidecarUrls[field] = (await assertFetchableUrl(url, policyFromEnv(this.opts.env))).href;
    }
    const { record, created } = await this.newRecord(principal, input, costEstimate, 'queued', {
      sidecarUrls,
      limited: !principal.operator,
      economics: {
        aiReviewSeconds: input.ai_review_seconds,
        costGuardrail: input.cost_guardrail,
        planPriceCents: input.plan_price_cents,
        includedMinutes: input.included_minutes,
      },
      source: input.upload_id ? { kind: 'upload', uploadId: input.upload_id } : { kind: 'local_path', path: media!.path },
      profile: input.profile,
      checks: input.checks,
      reuse: input.reuse,
      planId: input.plan_id,
      sidecars,
    }, { mediaIngress: { ...(upload ?? media!).ingress, sha256: null } });
    if (!created) return this.getJob(principal, record.jobId);
    await this.event(record.jobId, { event_type: 'job.queued' });
    try {
      await this.jobQueued?.(record.jobId);
    } catch (err) {
      // Not handed to the queue, so nobody would run it: it fails now, and the caller is told why.
      await this.fail(record, err).catch(() => {});
      throw err;
    }
    return toQcJob(record, this.opts.urls);
  }

  /**
   * Stores a new job (and its idempotency key, in the same transaction). When a concurrent request took the key first,
   * nothing is created and that request's job is returned with `created: false`.
   */
  private async newRecord(
    principal: Principal,
    input: CreateJobInput,
    costEstimate: QcJob['costEstimate'],
    status: JobStatus,
    request: JobRequest | null,
    extra: Partial<JobRecord> = {},
  ): Promise<{ record: JobRecord; created: boolean }> {
    const record = newJobRecord({
      jobId: newId('job'),
      workspaceId: principal.workspaceId,
      status,
      requestedProfile: input.profile ?? 'auto',
      costEstimate,
      idempotencyKey: input.idempotency_key ?? null,
      request,
      callbackUrl: input.callback_url ?? null,
      sourceUrlSha256: input.signed_url || input.platform_video_url ? sourceUrlKey((input.signed_url || input.platform_video_url)!) : null,
      ...extra,
    });
    if (input.callback_url && input.callback_secret && this.webhooks) record.callbackSecretSealed = this.webhooks.sealCallbackSecret(record.jobId, input.callback_secret);
    const idempotency = input.idempotency_key ? { key: input.idempotency_key, requestSha256: requestFingerprint(input) } : null;
    const lease = status === 'running' ? { workerId: this.workerId, leaseMs: this.leaseMs } : undefined;
    const { created, jobId } = await this.db.jobs.create(record, idempotency, lease);
    if (!created) {
      const earlier = await this.db.jobs.get(jobId);
      if (!earlier) throw new ServiceError('job_not_found', `No job ${jobId}.`, { jobId }, 404);
      return { record: earlier, created: false };
    }
    await this.event(record.jobId, { event_type: 'job.created' });
    return { record, created: true };
  }

  /**
   * Set by the queue (src/worker): a job just queued, or queued again, is handed to it, so any worker sharing the
   * database takes it. Without one, queued jobs wait for `drain` or the next process that has a queue.
   */
  private jobQueued: ((jobId: string) => Promise<unknown>) | null = null;

  attachQueue(onQueued: ((jobId: string) => Promise<unknown>) | null): void {
    this.jobQueued = onQueued;
  }

  /** Processes queued jobs of the caller's workspace (all workspaces for operators), oldest first. */
  async drain(principal: Principal, query: { limit?: number }, ctx: OpContext = {}): Promise<{ processed: number; jobs: QcJob[] }> {
    const limit = Math.min(25, Math.max(1, query.limit ?? 10));
    const queued = (await this.db.jobs.listByStatus('queued'))
      .filter((j) => !this.claimed.has(j.jobId) && (principal.operator || j.workspaceId === principal.workspaceId))
      .slice(0, limit);
    const jobs: QcJob[] = [];
    for (const candidate of queued) {
      const record = await this.runQueued(candidate.jobId, ctx);
      if (record) jobs.push(toQcJob(record, this.opts.urls));
    }
    return { processed: jobs.length, jobs };
  }

  /**
   * Claims a queued job (or one whose worker's lease ran out) and runs it here; null when another worker has it or it
   * is finished. The claim is one conditional UPDATE, so of two workers handed the same job one runs it.
   */
  async runQueued(jobId: string, ctx: OpContext = {}): Promise<JobRecord | null> {
    if (this.closed || this.stopping || this.claimed.has(jobId) || this.running.has(jobId)) return null;
    this.claimed.add(jobId);
    try {
      const record = await this.db.jobs.claim(jobId, this.workerId, this.leaseMs);
      if (!record) return null;
      await this.runClaimed(record, ctx);
      return record;
    } finally {
      this.claimed.delete(jobId);
    }
  }

  private async runClaimed(record: JobRecord, ctx: OpContext): Promise<void> {
    const request = record.request;
    let media: ResolvedMedia | null = null;
    try {
      if (!request || request.source.kind === 'platform_url') throw new ServiceError('missing_media', 'The queued job has no media source.', {}, 400);
      // The job runs under the limits of the workspace that queued it (none for an operator's job).
      const owner: Principal = { workspaceId: record.workspaceId, scopes: [], operator: !request.limited };
      media =
        request.source.kind === 'upload'
          ? await this.uploadedMedia({ ...owner, operator: true }, request.source.uploadId)
          : await resolveMedia({ file_path: request.source.path }, { inlineMaxBytes: 0 });
      const remote = await this.fetchRemoteSidecars((request.sidecarUrls ?? {}) as CreateJobInput, ctx);
      const sidecars = await loadSidecars({ ...(request.sidecars ?? {}), ...remote.inline });
      if (remote.fetched.length && sidecars.ingress) {
        sidecars.ingress = { ...sidecars.ingress, mode: 'remote_https_sidecars', ephemeral: true, neverExposes: [...sidecars.ingress.neverExposes, 'sidecar URLs'] };
      }
      record.sidecarIngress = sidecars.ingress;
      const e = request.economics ?? {};
      if (this.stopping) {
        media.cleanup();
        return await this.giveBack(record);
      }
      await this.start(
        record,
        media,
        {
          profile: request.profile as CreateJobInput['profile'],
          checks: request.checks,
          reuse: request.reuse,
          ai_review_seconds: e.aiReviewSeconds,
          cost_guardrail: e.costGuardrail,
          sidecars: sidecars.sidecars,
          economics: await this.economics(owner, { plan_id: request.planId, plan_price_cents: e.planPriceCents, included_minutes: e.includedMinutes }),
          sha256: await this.mediaHashForLimits(owner, media),
        },
        ctx,
        owner,
        true,
      );
    } catch (err) {
      media?.cleanup();
      // start() records its own failure; only a failure before the run started is recorded here.
      if (!(['failed', 'completed'] as JobStatus[]).includes(record.status)) await this.fail(record, err);
    }
  }

  private start(
    record: JobRecord,
    media: ResolvedMedia,
    input: RunInput,
    ctx: OpContext,
    principal: Principal | null,
    queued = false,
  ): Promise<void> {
    const abort = new AbortController();
    const onAbort = () => abort.abort();
    ctx.signal?.addEventListener('abort', onAbort, { once: true });
    const promise = this.run(record, media, input, ctx, abort.signal, principal).finally(() => {
      ctx.signal?.removeEventListener('abort', onAbort);
      media.cleanup();
      this.running.delete(record.jobId);
      this.reserved.delete(record.jobId);
      this.handingBack.delete(record.jobId);
      this.leaseLost.delete(record.jobId);
    });
    this.running.set(record.jobId, { promise, abort, record, queued });
    return promise;
  }

  private async run(
    record: JobRecord,
    media: ResolvedMedia,
    input: RunInput,
    ctx: OpContext,
    signal: AbortSignal,
    principal: Principal | null,
  ): Promise<void> {
    const t0 = Date.now();
    const limited = principal && !principal.operator ? principal : null;
    let lastStage = '';
    try {
      record.status = 'running';
      record.startedAt ??= now();
      await this.event(record.jobId, { event_type: 'job.started' });
      // Progress lives in the live record (what getJob shows while the job runs here); only a new stage is written,
      // as an event.
      const onProgress = (pct: number, stage: string) => {
        ctx.progress?.(pct, stage);
        if (stage !== lastStage) {
          lastStage = stage;
          record.stages.push({ status: stage, progressPct: pct, elapsedMs: Date.now() - t0, at: now() });
          this.event(record.jobId, { event_type: `stage.${stage}`, stage, progress_pct: pct }).catch((err: Error) =>
            process.stderr.write(`preflight: could not record a stage of ${record.jobId}: ${err.message}\n`),
          );
        }
        record.stage = stage;
        record.progressPct = pct;
      };
      const { stored, sha256 } = await this.reusable(record, media, input);
      // The free re-check rule reads this workspace's charges for these bytes this month, known before the check.
      const charged = await this.db.usage.forMedia(record.workspaceId, billingPeriodOf(new Date()), sha256);
      const pricing = {
        profile: input.profile,
        ai_review_seconds: input.ai_review_seconds,
        cost_guardrail: input.cost_guardrail,
        plan: input.economics.plan,
        meter: (mediaMinutes: number, report: Report, at: Date) => meterJob({ workspaceId: record.workspaceId, sha256: report.media.sha256, mediaMinutes, at, entries: charged }),
      };
      // Limits are checked again on the real media, before the decode.
      const afterProbe = limited ? (info: MediaInfo) => this.checkMeasuredMedia(limited, record, info, input) : undefined;
      const check: JobCheck = stored
        ? await this.reuseCheck(record, media, stored, { pricing, afterProbe, onProgress, signal })
        : await checkFile(media.path, { ...pricing, checks: input.checks, sidecars: input.sidecars, signal, afterProbe, onProgress, sha256 });
      const before = await this.db.usage.minutesUsed(record.workspaceId, billingPeriodOf(new Date()));
      await this.finish(record, check, input, t0);
      if (limited && this.accounts) {
        const after = await this.db.usage.minutesUsed(record.workspaceId, billingPeriodOf(new Date()));
        this.accounts.afterUsage(limited, { minutesBefore: before, minutesAfter: after, billingPeriod: billingPeriodOf(new Date()) }).catch(() => {});
      }
    } catch (err) {
      if (this.handingBack.has(record.jobId)) await this.giveBack(record);
      else if (this.leaseLost.has(record.jobId)) return;
      else await this.fail(record, err, t0, [media.path]);
    }
  }

  /**
   * The probe measured the media: the abuse limits and the usage allowance are checked again on what it really is,
   * whatever was declared, and the minutes it will charge are held for it until it is metered.
   */
  private async checkMeasuredMedia(principal: Principal, record: JobRecord, info: MediaInfo, input: RunInput): Promise<void> {
    if (this.accounts) {
      await this.accounts.checkAbuseLimits(principal, { durationSeconds: info.durationSeconds, sizeBytes: info.sizeBytes, activeJobs: (await this.activeJobs(record.workspaceId)) - 1 });
    }
    const minutes = await this.chargeableMinutes(record.workspaceId, input.sha256, meteredMinutes(info));
    await this.assertUsageAllowed(principal, input.economics, minutes, record.jobId);
    this.reserved.set(record.jobId, { workspaceId: record.workspaceId, minutes });
  }

  /**
   * The reuse key of this job's check (kept on the job for later ones), and the earlier job whose stored report can
   * stand in for it: none when the caller asked for a fresh check (`reuse: false`). The file's hash goes on to the
   * check, so a fresh check does not read the file a second time to hash it.
   */
  private async reusable(record: JobRecord, media: ResolvedMedia, input: RunInput): Promise<{ stored: StoredCheck | null; sha256: string }> {
    const sha256 = input.sha256 ?? media.sha256 ?? (await sha256File(media.path));
    // The file name is in the report and in repair commands, so a renamed copy is checked afresh.
    const key = reuseKey({ sha256, sidecars: input.sidecars, profile: input.profile, checks: input.checks, extra: { fileName: basename(media.path) } });
    record.reuseKey = key;
    if (input.reuse === false) return { stored: null, sha256 };
    const candidates = await this.db.jobs.completedWithReuseKey(record.workspaceId, key, record.jobId);
    const files = new Map<string, string | null>();
    for (const job of candidates) for (const file of REUSE_FILES) files.set(`${job.jobId}/${file}`, await this.readJobFile(job.jobId, file));
    const stored = reusableCheck(candidates.reverse(), { workspaceId: record.workspaceId, key, sha256, except: record.jobId }, (jobId, file) => files.get(`${jobId}/${file}`) ?? null);
    return { stored, sha256 };
  }

  /**
   * The stored report stands in for a decode. The media is still probed: the limits are judged and the minutes metered
   * (by the free re-check rule) on what it really is, and the marker exports need its frame rate.
   */
  private async reuseCheck(
    record: JobRecord,
    media: ResolvedMedia,
    stored: StoredCheck,
    opts: { pricing: PricingOptions; afterProbe?: (info: MediaInfo) => Promise<void>; onProgress: (pct: number, stage: string) => void; signal: AbortSignal },
  ): Promise<JobCheck> {
    opts.onProgress(0, 'probe');
    const info = await probe(media.path, opts.signal);
    await opts.afterProbe?.(info);
    opts.onProgress(50, 'reuse');
    await this.event(record.jobId, { event_type: 'report.reused', detail: stored.jobId });
    const at = new Date();
    const priced = pricedReport({ ...stored.report, createdAt: at.toISOString() }, meteredMinutes(info), { ...opts.pricing, at });
    opts.onProgress(100, 'report');
    return { ...priced, media: info, signals: null, reusedFrom: stored };
  }

  private async finish(record: JobRecord, check: JobCheck, input: RunInput, t0: number): Promise<void> {
    const { report, media: info, signals, mediaMinutes, metered, estimate, at } = check;
    const receipt = this.receiptFor(report, record.jobId);
    const page = check.reusedFrom ? { html: reusedReportHtml(check.reusedFrom, report, receipt) } : { signals: signals! };
    const files = jobArtifactFiles(report, info, page, receipt);
    const artifacts = [];
    for (const { type, file, contentType, content } of files) {
      const { bytes } = await this.objects.put(this.jobFile(record.jobId, file), content, contentType);
      artifacts.push({ artifact_type: type, file, contentType, bytes, createdAt: now() });
    }
    await this.event(record.jobId, { event_type: 'artifacts.written', detail: artifacts.map((a) => a.file).join(', ') });
    await this.event(record.jobId, receipt ? { event_type: 'receipt.signed', detail: receipt.verdict } : { event_type: 'receipt.withheld', detail: incompleteReason(report.coverage) ?? RUN_FULL_PROFILE });
    const entry: UsageEntry = {
      entryId: newId('use'),
      workspaceId: record.workspaceId,
      jobId: record.jobId,
      sha256: report.media.sha256,
      billingPeriod: billingPeriodOf(at),
      minutesMetered: metered.minutesMetered,
      mediaMinutes,
      freeRecheck: metered.freeRecheck,
      planId: input.economics.plan.id,
      createdAt: at.toISOString(),
    };
    const completed = structuredClone(record);
    Object.assign(completed, {
      status: 'completed',
      progressPct: 100,
      stage: null,
      verdict: report.verdict,
      minutesMetered: metered.minutesMetered,
      profile: report.profile,
      requestedProfile: report.requestedProfile,
      completedAt: now(),
      processingDurationMs: Date.now() - t0,
      engine: `preflight ${report.engine.version} (ffmpeg ${report.engine.ffmpeg.version})`,
      costEstimate: estimate.cost_estimate,
      mediaIngress: record.mediaIngress ? { ...record.mediaIngress, sha256: report.media.sha256 } : null,
      artifacts,
      summary: { block: report.summary.block, watch: report.summary.watch },
      coverage: report.coverage,
      reusedFrom: check.reusedFrom?.jobId ?? null,
      request: null,
      sourceRedacted: true,
    } satisfies Partial<JobRecord>);
    // The ledger entry and the completed job are stored together or not at all: a job is never charged twice.
    await inTransaction(this.db, async (tx) => {
      await tx.usage.append(entry);
      await tx.jobs.finish(completed, this.workerId);
    });
    this.reserved.delete(record.jobId);
    Object.assign(record, completed);
    await this.event(record.jobId, { event_type: 'usage.metered', detail: `${metered.minutesMetered} min${metered.freeRecheck ? ' (free re-check)' : ''}` });
    await this.event(record.jobId, { event_type: 'job.completed', detail: report.verdict });
    this.announce(record);
  }

  /** The receipt of a complete check; null for a narrowed or errored one (a repair step has no receipt). */
  private receiptFor(report: Report, jobId: string): Receipt | null {
    try {
      return issueReceipt(report, jobId, { home: this.opts.home, env: this.opts.env, issuer: this.issuer });
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'receipt_incomplete_check') return null;
      throw err;
    }
  }

  /** `serverPaths` (the media's place on this machine) are replaced in the reason: they are never exposed. */
  private async fail(record: JobRecord, err: unknown, t0 = Date.now(), serverPaths: string[] = []): Promise<void> {
    if (err instanceof ServiceError && (err.status === 413 || err.status === 429)) this.limitRefusals.set(record.jobId, err);
    let reason =
      err instanceof EngineError || err instanceof ServiceError ? `${err.code}: ${err.message}` : `internal_error: ${(err as Error).message ?? String(err)}`;
    for (const path of serverPaths.filter(Boolean)) reason = reason.split(path).join('the media');
    const failed: JobRecord = {
      ...structuredClone(record),
      status: 'failed',
      failureReason: reason,
      minutesMetered: 0,
      stage: null,
      completedAt: now(),
      processingDurationMs: Date.now() - t0,
      request: null,
    };
    try {
      await this.db.jobs.finish(failed, this.workerId);
      Object.assign(record, failed);
    } catch (storeErr) {
      // Another worker took the job over after this one's lease ran out: the job's outcome is theirs to record.
      if (storeErr instanceof ServiceError && storeErr.code === 'job_lease_lost') return;
      // The job keeps its last stored state (a restart marks a job left running as interrupted); the caller is told.
      process.stderr.write(`preflight: could not record the failure of job ${record.jobId}: ${(storeErr as Error).message}\n`);
      throw storeErr;
    }
    await this.event(record.jobId, { event_type: 'job.failed', detail: reason });
    this.announce(record);
  }
}
