// Records the storage tests and the store benchmark seed.
import type { JobRecord } from '../../src/jobs/record.js';

export function jobRecord(jobId: string, workspaceId: string, over: Partial<JobRecord> = {}): JobRecord {
  return {
    jobId,
    workspaceId,
    status: 'queued',
    progressPct: 0,
    stage: null,
    verdict: null,
    minutesMetered: 0,
    profile: null,
    requestedProfile: null,
    createdAt: '2026-11-01T10:00:00.000Z',
    startedAt: null,
    completedAt: null,
    processingDurationMs: null,
    failureReason: null,
    stages: [],
    engine: null,
    mediaIngress: null,
    sidecarIngress: null,
    sourceRedacted: false,
    costEstimate: { estimatedCostCents: 1 } as unknown as JobRecord['costEstimate'],
    idempotencyKey: null,
    request: { source: { kind: 'local_path', path: '/media/a.mp4' } },
    artifacts: [],
    summary: null,
    ...over,
  };
}
