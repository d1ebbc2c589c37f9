// One definition per agent tool: input and output schemas (zod) and a thin call onto a service operation.
import { z } from 'zod';
import { ReceiptSchema, type Receipt, type ReceiptVerification } from '../engine/receipt.js';
import { isUploadReady, UPLOAD_READINESS, type Report } from '../engine/report.js';
import { costBasis } from '../src/billing/cost-basis.js';
import { npoPipelineHandoff, pipelineRecipes } from '../src/public/documents.js';
import { CreateJobInputSchema, JobOptionsSchema, SidecarInputSchema, type CreateJobInput } from '../src/schemas/create-job.js';
import { EstimateInputSchema, EstimateOutputSchema, type EstimateInput, type EstimateOutput } from '../src/schemas/estimate.js';
import { CostEstimateSchema, JobStatusSchema, MediaIngressSchema, QcJobSchema, SidecarIngressSchema, VerdictSchema, type ListJobsQuery, type QcJob } from '../src/schemas/job.js';
import type { Artifact, JobEvent, OpContext, Principal } from '../src/service.js';
import { CreateUploadInputSchema, type CreateUploadInput, type Upload } from '../src/uploads.js';
import { TOOL_CATALOGUE } from '../src/tool-catalogue.js';

type MaybePromise<T> = T | Promise<T>;

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
  verifyReceipt(receipt: unknown, opts: { fileSha256?: string; filePath?: string }): Promise<Omit<ReceiptVerification, 'signed'>>;
  createUpload(principal: Principal, input: CreateUploadInput): Promise<{ upload: Upload }>;
}

export interface ToolEnv {
  service: ToolBackend;
  principal: Principal;
  /** How long a run tool waits before returning a still-running job to poll (stays inside a client's 60 s timeout). */
  runWaitMs: number;
}

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  input: I;
  output: O;
  run(env: ToolEnv, args: z.infer<I>, ctx: OpContext): Promise<z.infer<O>> | z.infer<O>;
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
  failure_reason: z.string().nullable(),
  idempotent_replay: z.boolean(),
  summary: z.string().describe('One line for the user.'),
  next_step: z.string().describe('What to call next.'),
});

function runOutput(job: z.infer<typeof QcJobSchema>, replay: boolean): z.infer<typeof RunOutputSchema> {
  const next =
    job.status === 'completed'
      ? `Call qc_get_report with job_id ${job.jobId} and show every BLOCK and WATCH flag with its timestamp.`
      : job.status === 'failed'
        ? 'Fix the input named in failure_reason and run the check again.'
        : `The check is ${job.status}; poll qc_get_job with job_id ${job.jobId} until completed, then call qc_get_report.`;
  const summary =
    job.status === 'completed'
      ? `${job.verdict}: ${UPLOAD_READINESS[job.verdict!]} (${job.minutesMetered} checked minute${job.minutesMetered === 1 ? '' : 's'} metered)`
      : job.status === 'failed'
        ? `Check failed: ${job.failureReason}`
        : `Check ${job.status} (${job.progressPct} %).`;
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
    summary,
    next_step: next,
  };
}

const FlagOutputSchema = z.object({
  id: z.string(),
  gate: z.string(),
  severity: z.enum(['BLOCK', 'WATCH']),
  timestamp: z.string(),
  start: z.number(),
  end: z.number(),
  timecode: z.string(),
  frame: z.number().int(),
  summary: z.string(),
  evidence: z.record(z.string(), z.unknown()),
  repair: z.object({ action: z.string(), instruction: z.string(), verify: z.string(), reachable: z.boolean() }),
});

const TRANSCRIPT_GATES = new Set(['spoken_leaks', 'pronunciation_watchlist', 'script_faithfulness', 'sentence_boundary', 'dialogue_in_music_short']);

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
      stage: z.string().nullable(),
      progress_pct: z.number().int(),
      verdict: VerdictSchema.nullable(),
      minutes_metered: z.number().int(),
      media_ingress: MediaIngressSchema.nullable(),
      failure_reason: z.string().nullable(),
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
      flags: z.array(FlagOutputSchema),
      timestamps: z.array(z.object({ timestamp: z.string(), start: z.number(), end: z.number(), gate: z.string(), severity: z.enum(['BLOCK', 'WATCH']), summary: z.string() })),
      transcript_evidence: z.array(FlagOutputSchema),
      share_url: z.string(),
      gates: z.array(z.object({ gate: z.string(), status: z.string(), reason: z.string().optional(), measurements: z.record(z.string(), z.unknown()) })),
      upload_ready: z.boolean(),
      schema_version: z.string(),
    }),
    async run(env, args) {
      const report = await env.service.getReport(env.principal, args.job_id);
      const artifacts = await env.service.getArtifacts(env.principal, args.job_id);
      const share = artifacts.find((a) => a.artifact_type === 'report_html') ?? artifacts.find((a) => a.artifact_type === 'report_json');
      return {
        verdict: report.verdict,
        flags: report.flags,
        timestamps: report.flags.map((f) => ({ timestamp: f.timestamp, start: f.start, end: f.end, gate: f.gate, severity: f.severity, summary: f.summary })),
        transcript_evidence: report.flags.filter((f) => TRANSCRIPT_GATES.has(f.gate)),
        share_url: share?.url ?? '',
        gates: report.gates.map((g) => ({ gate: g.gate, status: g.status, ...(g.reason ? { reason: g.reason } : {}), measurements: g.measurements })),
        upload_ready: isUploadReady(report.verdict),
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
      receipt: z.record(z.string(), z.unknown()).describe('The receipt JSON object.'),
      file_path: z.string().optional().describe('A local file to compare with the receipt sha256.'),
      sha256: z.string().optional().describe('The sha256 of the file to publish, if you computed it.'),
    }),
    output: z.object({
      valid: z.boolean(),
      authentic: z.boolean(),
      schema_known: z.boolean(),
      hash_matches: z.boolean().nullable(),
      upload_ready: z.boolean(),
      verdict: z.string().nullable(),
      reason: z.string().nullable(),
    }),
    async run(env, args) {
      const r = await env.service.verifyReceipt(args.receipt, { fileSha256: args.sha256, filePath: args.file_path });
      return {
        valid: r.valid,
        authentic: r.authentic,
        schema_known: r.schemaKnown,
        hash_matches: r.hashMatches,
        upload_ready: r.uploadReady,
        verdict: r.verdict ?? null,
        reason: r.reason,
      };
    },
  }),
  define({
    name: 'qc_get_events',
    input: jobId,
    output: z.object({
      events: z.array(z.object({ event_type: z.string(), created_at: z.string(), stage: z.string().optional(), progress_pct: z.number().optional(), detail: z.string().optional() })),
    }),
    run: async (env, args) => ({ events: await env.service.getEvents(env.principal, args.job_id) }),
  }),
  define({
    name: 'qc_get_artifacts',
    input: jobId,
    output: z.object({ artifacts: z.array(z.object({ artifact_type: z.string(), url: z.string(), content_type: z.string(), bytes: z.number().int(), created_at: z.string() })) }),
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
    input: z.object({ limit: z.number().int().min(1).max(100).optional(), status: JobStatusSchema.optional() }),
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
    output: z.object({ cost_basis: z.record(z.string(), z.unknown()) }),
    run: () => ({ cost_basis: costBasis() as unknown as Record<string, unknown> }),
  }),
  define({
    name: 'qc_get_pipeline_recipes',
    input: z.object({}),
    output: z.object({ recipes: z.record(z.string(), z.unknown()) }),
    run: () => ({ recipes: pipelineRecipes() as unknown as Record<string, unknown> }),
  }),
  define({
    name: 'qc_get_npo_pipeline_handoff',
    input: z.object({}),
    output: z.object({ handoff: z.record(z.string(), z.unknown()) }),
    run: () => ({ handoff: npoPipelineHandoff() as unknown as Record<string, unknown> }),
  }),
] as const;

// Every catalogued tool has exactly one definition, and nothing else is registered.
const defined = new Set<string>(TOOLS.map((t) => t.name));
for (const info of TOOL_CATALOGUE) if (!defined.has(info.name)) throw new Error(`tool ${info.name} has no definition`);
if (defined.size !== TOOL_CATALOGUE.length) throw new Error('a tool definition is missing from the catalogue');
