// The stored job record and its public view (QcJob). Internal fields (source paths, request) never leave this module's view.
import { incompleteCheckReason, type CheckCoverage } from '../../engine/delivery-requirements.js';
import type { CostEstimate, JobStage, JobStatus, MediaIngress, QcJob, SidecarIngress } from '../schemas/job.js';
import type { SidecarInput } from '../sidecars/index.js';
import type { ArtifactKind } from './artifact-table.js';

export type JobSource = { kind: 'local_path'; path: string } | { kind: 'platform_url'; url: string } | { kind: 'upload'; uploadId: string };

export interface JobRequest {
  source: JobSource;
  profile?: string;
  checks?: string;
  planId?: string;
  /** Local sidecar paths only: inline sidecars are never stored. */
  sidecars?: SidecarInput;
  /** Sidecar URLs, fetched when the job runs; internal, never shown. */
  sidecarUrls?: Record<string, string>;
  /** The job was created by a workspace key: it runs under its workspace's limits. */
  limited?: boolean;
  /** false: check afresh even when an earlier job's report could be reused. */
  reuse?: boolean;
  /** Cost options, so the run prices the job as it was asked. */
  economics?: { aiReviewSeconds?: number; costGuardrail?: 'downgrade' | 'block' | 'off'; planPriceCents?: number; includedMinutes?: number };
}

export interface ArtifactRecord {
  artifact_type: ArtifactKind;
  file: string;
  contentType: string;
  bytes: number;
  createdAt: string;
}

export interface JobRecord {
  jobId: string;
  workspaceId: string;
  status: JobStatus;
  progressPct: number;
  stage: string | null;
  verdict: QcJob['verdict'];
  minutesMetered: number;
  profile: string | null;
  requestedProfile: string | null;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
  processingDurationMs: number | null;
  failureReason: string | null;
  stages: JobStage[];
  engine: string | null;
  mediaIngress: MediaIngress | null;
  sidecarIngress: SidecarIngress | null;
  sourceRedacted: boolean;
  costEstimate: CostEstimate;
  idempotencyKey: string | null;
  request: JobRequest | null;
  artifacts: ArtifactRecord[];
  summary: { block: number; watch: number } | null;
  /** What the check covered of its delivery profile; only a complete check has a receipt. Absent on older records. */
  coverage?: CheckCoverage | null;
  /** Where the completion is delivered (signed like webhooks); never shown in the job resource. */
  callbackUrl?: string | null;
  /** SHA-256 of the signed_url or platform_video_url the job was created from (for the list filter); null otherwise. */
  sourceUrlSha256?: string | null;
  /** The reuse key of the check (src/reuse-key.ts): a later job with the same key reuses this job's report. */
  reuseKey?: string | null;
  /** The job whose stored report this job reused instead of decoding again; null for a fresh check. */
  reusedFrom?: string | null;
  /** The creator's callback_secret, sealed (AES-256-GCM, bound to the job id); never shown. */
  callbackSecretSealed?: string | null;
  /** Runs of a queued job so far (claims not handed back); never shown. */
  attempts?: number;
  /** The worker that claimed the job last (host:pid:tag); never shown. */
  worker?: string | null;
}

export interface JobUrls {
  status(jobId: string): string;
  report(jobId: string): string;
  artifact(jobId: string, file: string): string;
}

export function toQcJob(r: JobRecord, urls: JobUrls): QcJob {
  return {
    jobId: r.jobId,
    status: r.status,
    progressPct: r.progressPct,
    verdict: r.verdict,
    minutesMetered: r.minutesMetered,
    profile: r.profile,
    requestedProfile: r.requestedProfile,
    createdAt: r.createdAt,
    startedAt: r.startedAt,
    completedAt: r.completedAt,
    processingDurationMs: r.processingDurationMs,
    failureReason: r.failureReason,
    statusUrl: urls.status(r.jobId),
    reportUrl: urls.report(r.jobId),
    observability:
      r.startedAt === null && r.stages.length === 0
        ? null
        : {
            startedAt: r.startedAt,
            completedAt: r.completedAt,
            processingDurationMs: r.processingDurationMs,
            outcome: r.status === 'completed' ? (r.verdict ?? null) : r.status === 'failed' ? 'failed' : null,
            engine: r.engine,
            providerUsageEntries: 0,
            failureReason: r.failureReason,
            stages: r.stages,
          },
    mediaIngress: r.mediaIngress,
    sidecarIngress: r.sidecarIngress,
    sourceRedacted: r.sourceRedacted,
    costEstimate: r.costEstimate,
    reusedFrom: r.reusedFrom ?? null,
    coverage: r.coverage
      ? {
          complete: r.coverage.complete,
          deliveryProfile: r.coverage.deliveryProfile,
          narrowed: r.coverage.narrowed,
          missing: r.coverage.missing,
          errored: r.coverage.errored,
          reason: incompleteCheckReason(r.coverage),
        }
      : null,
  };
}
