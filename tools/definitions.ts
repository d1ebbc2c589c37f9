// One definition per agent tool: input and output schemas (zod) and a thin call onto a service operation.
import { z } from 'zod';
import { ReceiptSchema, type Receipt } from '../engine/receipt.js';
import { UPLOAD_READINESS, uploadReadiness, type Report } from '../engine/report.js';
import { GATES } from '../engine/gates/index.js';
import { FlagSchema, GateSummarySchema, SeveritySchema } from '../engine/report-schema.js';
import { costBasis } from '../src/billing/cost-basis.js';
import { npoPipelineHandoff, pipelineRecipes } from '../src/public/documents.js';
import { CreateJobInputSchema, JobOptionsSchema, SidecarInputSchema, type CreateJobInput } from '../src/schemas/create-job.js';
import { EstimateInputSchema, EstimateOutputSchema, type EstimateInput, type EstimateOutput } from '../src/schemas/estimate.js';
import { freeObject, nullable } from '../src/schemas/portable.js';
import { ArtifactSchema, CostEstimateSchema, JobEventSchema, JobStatusSchema, MediaIngressSchema, QcJobSchema, SidecarIngressSchema, VerdictSchema, type ListJobsQuery, type QcJob } from '../src/schemas/job.js';
import { ServiceError } from '../src/errors.js';
import type { Artifact, JobEvent, OpContext, Principal } from '../src/service.js';
import type { ReceiptCheck } from '../src/receipts.js';
import { ReceiptCoverageSchema, SignatureChecksSchema } from '../src/schemas/verify-receipt.js';
import { CreateUploadInputSchema, type CreateUploadInput, type Upload } from '../src/uploads.js';
import { TOOL_CATALOGUE } from '../src/tool-catalogue.js';

type MaybePromise<T> = T | Promise<T>;

/** What qc_verify_receipt reports (the REST public verifier answers the same fields). */
export type ToolVerification = Pick<ReceiptCheck, 'valid' | 'checked' | 'authentic' | 'schemaKnown' | 'hashMatches' | 'uploadReady' | 'verdict' | 'reason' | 'signatures' | 'keyId'> & {
  coverage?: ReceiptCheck['coverage'] | null;
};

/** What qc_verify_receipt passes on: the file (or its hash) and, for another issuer's receipt, its key document. */
export interface ReceiptVerifyOptions {
  fileSha256?: string;
  filePath?: string;
  publicKeys?: unknown;
}

/**
 * The operations the tools call: PreflightService in local mode, RemoteBackend (tools/remote.ts, the REST API) in
 * remote mode. Reads are synchronous in process and asynchronous over HTTP, so callers always await.
 */
export interface ToolBackend {
  createJob(principal: Principal, input: CreateJobInput, ctx: OpContext, opts: { waitMs?: number }): Promise<{ job: QcJob; replay: boolean }>;
  estimate(principal: Principal, input: EstimateInput): MaybePromise<EstimateOutput>;
  getJob(principal: Principal, jobId: string): MaybePromise<QcJob & { stage: string | null }>;
  listJobs(principal: Principal, query: ListJobsQuery): MaybePromise<QcJob[]>;
  getReport(principal: Principal, jobId: string): MaybePromise<Report>;
  getReceipt(principal: Principal, jobId: string): MaybePromise<Receipt>;
  getMarkerCsv(principal: Principal, jobId: string): MaybePromise<string>;
  getEvents(principal: Principal, jobId: string): MaybePromise<JobEvent[]>;
  getArtifacts(principal: Principal, jobId: string): MaybePromise<Artifact[]>;
  getArtifactContent(principal: Principal, jobId: string, file: string): MaybePromise<{ content: string; contentType: string }>;
  verifyReceipt(receipt: unknown, opts: ReceiptVerifyOptions): Promise<ToolVerification>;
  createUpload(principal: Principal, input: CreateUploadInput): Promise<{ upload: Upload }>;
}

export interface ToolEnv {
  service: ToolBackend;
  principal: Principal;
  /** How long a run tool waits before returning a still-running job to poll (stays inside a client's 60 s timeout). */
  runWaitMs: number;
  /** The caller is on the machine the tools run on (stdio), so file paths name its files; false over HTTP. */
  localFiles: boolean;
}

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  input: I;
  output: O;
  run(env: ToolEnv, args: z.infer<I>, ctx: OpContext): Promise<z.infer<O>> | z.infer<O>;
  /** An output that is a failure for the caller (a check whose media could not be checked), as the error text to return. */
  failureOf?(out: z.infer<O>): string | null;
}

const define = <I extends z.ZodObject, O extends z.ZodObject>(def: ToolDefinition<I, O>): ToolDefinition<I, O> => def;

const jobId = z.object({ job_id: z.string().min(1).describe('The job_id returned by qc_run_local_file or qc_run_video.') });

const RunOutputSchema = z.object({
  job_id: z.string(),
  status: JobStatusSchema,
  verdict: VerdictSchema.nullable(),
  progress_pct: z.number().int(),
  status_url: z.string(),
  report_url: z.string(),
  minutes_metered: z.number().int(),
  media_ingress: MediaIngressSchema.nullable(),
  sidecar_ingress: SidecarIngressSchema.nullable(),
  cost_estimate: CostEstimateSchema,
  failure_reason: nullable(z.string(), 'the job has not failed'),
  idempotent_replay: z.boolean(),
  reused_from: nullable(z.string(), 'checked afresh').describe('The earlier job whose report an unchanged re-check reused (no decode).'),
  summary: z.string().describe('One line for the user.'),
  next_step: z.string().describe('What to call next.'),
});

/** A completed check that did not run its whole profile is a repair step: it never says upload-ready. */
function completedSummary(job: z.infer<typeof QcJobSchema>): { summary: string; next: string } {
  const metered = `${job.minutesMetered} checked minute${job.minutesMetered === 1 ? '' : 's'} metered`;
  const report = `Call qc_get_report with job_id ${job.jobId} and show every BLOCK and WATCH flag with its timestamp.`;
  const gap = job.verdict === 'BLOCK' ? null : job.coverage?.reason;
  if (!gap) return { summary: `${job.verdict}: ${UPLOAD_READINESS[job.verdict!]} (${metered})`, next: report };
  return {
    summary: `${job.verdict} on the gates that ran, but not upload-ready and no receipt: ${gap} (${metered}).`,
    next: `${report} Then run the full profile (no narrowed checks) on the final file, free for the same file within the month, and publish only on that run's receipt.`,
  };
}

function runOutput(job: z.infer<typeof QcJobSchema>, replay: boolean): z.infer<typeof RunOutputSchema> {
  const completed = job.status === 'completed' ? completedSummary(job) : null;
  const next =
    completed?.next ??
    (job.status === 'failed'
      ? 'Fix the input named in failure_reason and run the check again.'
      : `The check is ${job.status}; poll qc_get_job with job_id ${job.jobId} until completed, then call qc_get_report.`);
  const summary = completed?.summary ?? (job.status === 'failed' ? `Check failed: ${job.failureReason}` : `Check ${job.status} (${job.progressPct} %).`);
  return {
    job_id: job.jobId,
    status: job.status,
    verdict: job.verdict,
    progress_pct: job.progressPct,
    status_url: job.statusUrl,
    report_url: job.reportUrl,
    minutes_metered: job.minutesMetered,
    media_ingress: job.mediaIngress,
    sidecar_ingress: job.sidecarIngress,
    cost_estimate: job.costEstimate,
    failure_reason: job.failureReason,
    idempotent_replay: replay,
    reused_from: job.reusedFrom ?? null,
    summary,
    next_step: next,
  };
}

/** The media could not be checked (unreadable, not media): the reason, and where the recorded job is. */
function failedRun(out: z.infer<typeof RunOutputSchema>): string | null {
  return out.status === 'failed' ? `${out.failure_reason} (job ${out.job_id} is recorded as failed; qc_get_job shows it)` : null;
}

const TRANSCRIPT_GATES = new Set(GATES.filter((g) => g.area === 'transcript').map((g) => g.id));

export const TOOLS = [
  define({
    name: 'qc_run_local_file',
    input: z
      .object({ file_path: z.string().min(1).describe('Absolute path of the media file to check.') })
      .extend(JobOptionsSchema.omit({ callback_url: true }).shape)
      .extend(SidecarInputSchema.pick({ manifest_path: true, transcript_path: true, watchlist_path: true, expected_script_path: true, sidecar_dir: true }).shape),
    output: RunOutputSchema,
    async run(env, args, ctx) {
      const { job, replay } = await env.service.createJob(env.principal, args, ctx, { waitMs: env.runWaitMs });
      return runOutput(job, replay);
    },
    failureOf: failedRun,
  }),
  define({
    name: 'qc_run_video',
    input: CreateJobInputSchema.omit({ file_path: true, manifest_path: true, transcript_path: true, watchlist_path: true, expected_script_path: true, sidecar_dir: true }).extend({
      youtube_url: z.string().optional().describe('A video platform URL (same as platform_video_url); needs yt-dlp.'),
    }),
    output: RunOutputSchema,
    async run(env, args, ctx) {
      const { youtube_url, ...rest } = args;
      const input = { ...rest, platform_video_url: rest.platform_video_url ?? youtube_url };
      const { job, replay } = await env.service.createJob(env.principal, input, ctx, { waitMs: env.runWaitMs });
      return runOutput(job, replay);
    },
    failureOf: failedRun,
  }),
  define({
    name: 'qc_estimate_cost',
    input: EstimateInputSchema,
    output: EstimateOutputSchema,
    run: (env, args) => env.service.estimate(env.principal, args),
  }),
  define({
    name: 'qc_get_job',
    input: jobId,
    output: z.object({
      status: JobStatusSchema,
      stage: nullable(z.string(), 'not running'),
      progress_pct: z.number().int(),
      verdict: VerdictSchema.nullable(),
      minutes_metered: z.number().int(),
      media_ingress: MediaIngressSchema.nullable(),
      failure_reason: nullable(z.string(), 'the job has not failed'),
      job: QcJobSchema,
    }),
    async run(env, args) {
      const job = await env.service.getJob(env.principal, args.job_id);
      const { stage, ...qcJob } = job;
      return {
        status: job.status,
        stage,
        progress_pct: job.progressPct,
        verdict: job.verdict,
        minutes_metered: job.minutesMetered,
        media_ingress: job.mediaIngress,
        failure_reason: job.failureReason,
        job: qcJob,
      };
    },
  }),
  define({
    name: 'qc_get_report',
    input: jobId,
    output: z.object({
      verdict: VerdictSchema,
      flags: z.array(FlagSchema),
      timestamps: z.array(z.object({ timestamp: z.string(), start: z.number(), end: z.number(), gate: z.string(), severity: SeveritySchema, summary: z.string() })),
      transcript_evidence: z.array(FlagSchema),
      share_url: z.string(),
      gates: z.array(GateSummarySchema.omit({ flagCount: true })),
      upload_ready: z.boolean().describe('No BLOCK flag and the whole delivery profile checked; a narrowed (checks) run never is.'),
      upload_readiness: z.string().describe('One sentence on upload-readiness, saying what to do next.'),
      schema_version: z.string(),
    }),
    async run(env, args) {
      const report = await env.service.getReport(env.principal, args.job_id);
      const artifacts = await env.service.getArtifacts(env.principal, args.job_id);
      const share = artifacts.find((a) => a.artifact_type === 'report_html') ?? artifacts.find((a) => a.artifact_type === 'report_json');
      const readiness = uploadReadiness(report);
      return {
        verdict: report.verdict,
        flags: report.flags,
        timestamps: report.flags.map((f) => ({ timestamp: f.timestamp, start: f.start, end: f.end, gate: f.gate, severity: f.severity, summary: f.summary })),
        transcript_evidence: report.flags.filter((f) => TRANSCRIPT_GATES.has(f.gate)),
        share_url: share?.url ?? '',
        gates: report.gates.map((g) => ({ gate: g.gate, status: g.status, ...(g.reason ? { reason: g.reason } : {}), measurements: g.measurements })),
        upload_ready: readiness.ready,
        upload_readiness: readiness.sentence,
        schema_version: report.schemaVersion,
      };
    },
  }),
  define({
    name: 'qc_get_receipt',
    input: jobId,
    output: z.object({
      verdict: z.enum(['PASS', 'BLOCK']),
      sha256: z.string(),
      profile: z.string(),
      gates: z.array(z.string()),
      blocked: z.array(z.string()),
      signature: z.string(),
      summary: z.string(),
      receipt: ReceiptSchema,
    }),
    async run(env, args) {
      const receipt = await env.service.getReceipt(env.principal, args.job_id);
      return {
        verdict: receipt.verdict,
        sha256: receipt.sha256,
        profile: receipt.profile,
        gates: receipt.gates,
        blocked: receipt.blocked,
        signature: receipt.signature,
        summary: receipt.summary ?? '',
        receipt,
      };
    },
  }),
  define({
    name: 'qc_verify_receipt',
    input: z.object({
      // Not a zod record: that would silently drop an own `__proto__` key, which the verifier must see to refuse it.
      receipt: z
        .unknown()
        .refine((v) => typeof v === 'object' && v !== null && !Array.isArray(v), 'receipt must be a JSON object')
        .meta({ type: 'object', additionalProperties: true, description: 'The receipt JSON object, as qc_get_receipt returned it.' }),
      file_path: z
        .string()
        .optional()
        .describe('A file on the machine that runs this server, hashed and compared with the receipt sha256; its media also fixes which gates the profile requires (not over HTTP: give sha256).'),
      sha256: z.string().regex(/^\s*[0-9a-fA-F]{64}\s*$/, 'sha256 must be 64 hexadecimal characters').optional().describe('The sha256 of the file to publish, if you computed it.'),
      public_keys: freeObject()
        .optional()
        .describe("The issuer's key document (JWKS) for a receipt from another issuer: only its keys are then trusted."),
    }),
    output: z.object({
      valid: z.boolean(),
      checked: z.boolean().describe('false: no key could check the receipt; reason says what is needed.'),
      authentic: z.boolean(),
      schema_known: z.boolean(),
      hash_matches: nullable(z.boolean(), 'no file or sha256 was given'),
      upload_ready: z.boolean().describe('valid, verdict PASS and the whole profile covered: the only condition to publish on.'),
      verdict: nullable(z.string(), 'the signature is not authentic'),
      reason: nullable(z.string(), 'the receipt is valid'),
      signatures: SignatureChecksSchema,
      key_id: nullable(z.string(), 'no Ed25519 signature was checked'),
      coverage: nullable(ReceiptCoverageSchema, 'the receipt could not be read'),
    }),
    async run(env, args) {
      if (args.file_path && !env.localFiles) {
        throw new ServiceError('local_paths_not_accepted', 'file_path names a file on the server, which is not accepted over HTTP: give the file’s sha256 instead.', {}, 400);
      }
      const r = await env.service.verifyReceipt(args.receipt, { fileSha256: args.sha256, filePath: args.file_path, publicKeys: args.public_keys });
      return {
        valid: r.valid,
        checked: r.checked,
        authentic: r.authentic,
        schema_known: r.schemaKnown,
        hash_matches: r.hashMatches,
        upload_ready: r.uploadReady,
        verdict: r.verdict ?? null,
        reason: r.reason,
        signatures: r.signatures,
        key_id: r.keyId,
        coverage: r.coverage ?? null,
      };
    },
  }),
  define({
    name: 'qc_get_events',
    input: jobId,
    output: z.object({
      events: z.array(JobEventSchema),
    }),
    run: async (env, args) => ({ events: await env.service.getEvents(env.principal, args.job_id) }),
  }),
  define({
    name: 'qc_get_artifacts',
    input: jobId,
    output: z.object({ artifacts: z.array(ArtifactSchema) }),
    run: async (env, args) => ({ artifacts: await env.service.getArtifacts(env.principal, args.job_id) }),
  }),
  define({
    name: 'qc_get_marker_csv',
    input: jobId,
    output: z.object({ csv: z.string(), rows: z.number().int() }),
    async run(env, args) {
      const csv = await env.service.getMarkerCsv(env.principal, args.job_id);
      return { csv, rows: Math.max(0, csv.split('\r\n').filter(Boolean).length - 1) };
    },
  }),
  define({
    name: 'qc_list_jobs',
    input: z.object({
      limit: z.number().int().min(1).max(100).optional().describe('How many jobs, newest first (default 20).'),
      status: JobStatusSchema.optional().describe('Only jobs in this status.'),
    }),
    output: z.object({ jobs: z.array(QcJobSchema) }),
    run: async (env, args) => ({ jobs: await env.service.listJobs(env.principal, args) }),
  }),
  define({
    name: 'qc_create_upload_url',
    input: CreateUploadInputSchema,
    output: z.object({ upload_id: z.string(), signed_put_url: z.string(), expires_at: z.string(), hint: z.string() }),
    async run(env, args) {
      const { upload } = await env.service.createUpload(env.principal, args);
      return {
        upload_id: upload.uploadId,
        signed_put_url: upload.signedPutUrl,
        expires_at: upload.expiresAt,
        hint: `PUT the file's bytes to signed_put_url (at most ${args.size_bytes} bytes, before ${upload.expiresAt}), then call qc_run_video with upload_id ${upload.uploadId}.`,
      };
    },
  }),
  define({
    name: 'qc_get_cost_basis',
    input: z.object({}),
    output: z.object({ cost_basis: freeObject().describe('The cost-basis document (as /cost-basis.json).') }),
    run: () => ({ cost_basis: costBasis() as unknown as Record<string, unknown> }),
  }),
  define({
    name: 'qc_get_pipeline_recipes',
    input: z.object({}),
    output: z.object({ recipes: freeObject().describe('The recipes document (as /pipeline-recipes.json).') }),
    run: () => ({ recipes: pipelineRecipes() as unknown as Record<string, unknown> }),
  }),
  define({
    name: 'qc_get_npo_pipeline_handoff',
    input: z.object({}),
    output: z.object({ handoff: freeObject().describe('The handoff document (as /npo-pipeline-handoff.json).') }),
    run: () => ({ handoff: npoPipelineHandoff() as unknown as Record<string, unknown> }),
  }),
] as const;

// Every catalogued tool has exactly one definition, and nothing else is registered.
const defined = new Set<string>(TOOLS.map((t) => t.name));
for (const info of TOOL_CATALOGUE) if (!defined.has(info.name)) throw new Error(`tool ${info.name} has no definition`);
if (defined.size !== TOOL_CATALOGUE.length) throw new Error('a tool definition is missing from the catalogue');
