// Shared zod schemas of the job resource (SPEC.md "QC job"): one source for MCP output schemas, REST validation and OpenAPI.
import { z } from 'zod';

export const VerdictSchema = z.enum(['PASS', 'WATCH', 'BLOCK']);
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
  contentType: z.string().nullable(),
  bytes: z.number().int().nullable(),
  sha256: z.string().nullable(),
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
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  processingDurationMs: z.number().int().nullable(),
  outcome: z.string().nullable(),
  engine: z.string().nullable(),
  providerUsageEntries: z.number().int(),
  failureReason: z.string().nullable(),
  stages: z.array(JobStageSchema),
});

export const QcJobSchema = z.object({
  jobId: z.string(),
  status: JobStatusSchema,
  progressPct: z.number().int().min(0).max(100),
  verdict: VerdictSchema.nullable(),
  minutesMetered: z.number().int().min(0),
  profile: z.string().nullable(),
  requestedProfile: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  processingDurationMs: z.number().int().nullable(),
  failureReason: z.string().nullable(),
  statusUrl: z.string(),
  reportUrl: z.string(),
  observability: ObservabilitySchema.nullable(),
  mediaIngress: MediaIngressSchema.nullable(),
  sidecarIngress: SidecarIngressSchema.nullable(),
  sourceRedacted: z.boolean(),
  costEstimate: CostEstimateSchema,
});
export type QcJob = z.infer<typeof QcJobSchema>;

export const ListJobsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).optional().describe('1 to 100, default 20; newest first.'),
  status: JobStatusSchema.optional(),
  source_url: z.string().min(1).max(2048).optional().describe('Only jobs created from exactly this signed_url or platform_video_url.'),
  idempotency_key: z.string().min(1).max(200).optional().describe('Only the job created with this idempotency_key.'),
});
export type ListJobsQuery = z.infer<typeof ListJobsQuerySchema>;
