// Shared zod schemas of the job resource (docs/api.md "POST /v1/qc/jobs"): one source for MCP output schemas, REST validation and OpenAPI.
import { z } from 'zod';
import { VerdictSchema } from '../../engine/report-schema.js';
import { ARTIFACTS, type ArtifactKind } from '../jobs/artifact-table.js';
import { nullable } from './portable.js';

export { VerdictSchema };

export const JobStatusSchema = z.enum(['queued', 'running', 'completed', 'failed']);
export type JobStatus = z.infer<typeof JobStatusSchema>;

export const CostEstimateSchema = z.object({
  estimatedCogsUsd: z.number(),
  grossMarginBudgetUsd: z.number(),
  grossMarginTargetPct: z.number(),
  withinBudget: z.boolean(),
  modelCheckCents: z.number(),
  modelBackedChecks: z.array(z.string()),
  maxAiReviewSecondsAtMargin: z.number().int(),
  marginSafe: z.boolean(),
});
export type CostEstimate = z.infer<typeof CostEstimateSchema>;

export const MediaIngressSchema = z.object({
  mode: z.enum(['inline_ephemeral', 'signed_upload', 'platform_url', 'remote_url', 'local_or_remote_source']),
  contentType: nullable(z.string(), 'type not known'),
  bytes: z.number().int().nullable(),
  sha256: nullable(z.string(), 'until the media has been read'),
  ephemeral: z.boolean(),
  storageMode: z.enum(['host_temp_storage', 'durable_filesystem', 'object_storage']),
});
export type MediaIngress = z.infer<typeof MediaIngressSchema>;

export const SidecarKindSchema = z.enum(['manifest', 'transcript', 'watchlist', 'expectedScript', 'chunkSidecars']);
export type SidecarKind = z.infer<typeof SidecarKindSchema>;

export const SidecarIngressSchema = z.object({
  mode: z.enum(['remote_https_sidecars', 'local_files', 'inline_ephemeral']),
  ephemeral: z.boolean(),
  supplied: z.array(SidecarKindSchema),
  neverExposes: z.array(z.string()),
});
export type SidecarIngress = z.infer<typeof SidecarIngressSchema>;

export const JobStageSchema = z.object({
  status: z.string(),
  progressPct: z.number().int(),
  elapsedMs: z.number().int(),
  at: z.string(),
});
export type JobStage = z.infer<typeof JobStageSchema>;

export const ObservabilitySchema = z.object({
  startedAt: nullable(z.string(), 'not started yet'),
  completedAt: nullable(z.string(), 'not finished yet'),
  processingDurationMs: z.number().int().nullable(),
  outcome: nullable(z.string(), 'not finished yet'),
  engine: nullable(z.string(), 'not finished yet'),
  providerUsageEntries: z.number().int(),
  failureReason: nullable(z.string(), 'the job has not failed'),
  stages: z.array(JobStageSchema),
});

export const JobCoverageSchema = z
  .object({
    complete: z.boolean().describe('Every gate the delivery profile requires of this media ran and none errored: only then does the job have a receipt.'),
    deliveryProfile: z.string(),
    narrowed: z.boolean().describe('The check ran explicit checks: a repair step, never a receipt.'),
    missing: z.array(z.string()).describe('Required gates that did not run.'),
    errored: z.array(z.string()).describe('Gates that failed with an error.'),
    reason: nullable(z.string(), 'the check is complete').describe('Why the job has no receipt, ending in what to do; null when complete.'),
  })
  .describe('What the check covered of its delivery profile; null until completed (and on jobs completed before coverage was recorded).');

export const QcJobSchema = z.object({
  jobId: z.string(),
  status: JobStatusSchema,
  progressPct: z.number().int().min(0).max(100),
  verdict: VerdictSchema.nullable(),
  minutesMetered: z.number().int().min(0),
  profile: nullable(z.string(), 'until the check has resolved it'),
  requestedProfile: nullable(z.string(), 'none requested'),
  createdAt: z.string(),
  startedAt: nullable(z.string(), 'not started yet'),
  completedAt: nullable(z.string(), 'not finished yet'),
  processingDurationMs: z.number().int().nullable(),
  failureReason: nullable(z.string(), 'the job has not failed'),
  statusUrl: z.string(),
  reportUrl: z.string(),
  observability: ObservabilitySchema.nullable(),
  mediaIngress: MediaIngressSchema.nullable(),
  sidecarIngress: SidecarIngressSchema.nullable(),
  sourceRedacted: z.boolean(),
  costEstimate: CostEstimateSchema,
  reusedFrom: nullable(z.string(), 'checked afresh').describe(
    'The earlier completed job of this workspace whose report this job reused (same bytes, file name, sidecars, profile, checks and engine): no decode, its own usage and receipt.',
  ),
  coverage: JobCoverageSchema.nullable(),
});
export type QcJob = z.infer<typeof QcJobSchema>;

export const ListJobsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).optional().describe('1 to 100, default 20; newest first.'),
  status: JobStatusSchema.optional(),
  source_url: z.string().min(1).max(2048).optional().describe('Only jobs created from exactly this signed_url or platform_video_url.'),
  idempotency_key: z.string().min(1).max(200).optional().describe('Only the job created with this idempotency_key.'),
});
export type ListJobsQuery = z.infer<typeof ListJobsQuerySchema>;

/** A lifecycle event of a job, as qc_get_events and GET /v1/qc/jobs/{job_id}/events list them. */
export const JobEventSchema = z.object({
  event_type: z.string(),
  created_at: z.string(),
  stage: z.string().optional(),
  progress_pct: z.number().optional(),
  detail: z.string().optional(),
});

/** An artifact of a completed job (the kinds: src/jobs/artifact-table.ts), as both doors list them. */
export const ArtifactSchema = z.object({
  artifact_type: z.enum(ARTIFACTS.map((a) => a.kind) as [ArtifactKind, ...ArtifactKind[]]),
  url: z.string(),
  content_type: z.string(),
  bytes: z.number().int(),
  created_at: z.string(),
});
export type JobEvent = z.infer<typeof JobEventSchema>;
export type Artifact = z.infer<typeof ArtifactSchema>;
