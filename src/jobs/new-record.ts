// A job record as it is first stored: every field at its start value, then what the caller knows. The one place the
// defaults live (the service creating jobs, the storage tests and the store benchmark seeding them).
import type { JobRecord } from './record.js';

export type NewJobFields = Pick<JobRecord, 'jobId' | 'workspaceId' | 'costEstimate'> & Partial<JobRecord>;

export function newJobRecord(fields: NewJobFields): JobRecord {
  return {
    status: 'queued',
    progressPct: 0,
    stage: null,
    verdict: null,
    minutesMetered: 0,
    profile: null,
    requestedProfile: 'auto',
    createdAt: new Date().toISOString(),
    startedAt: null,
    completedAt: null,
    processingDurationMs: null,
    failureReason: null,
    stages: [],
    engine: null,
    mediaIngress: null,
    sidecarIngress: null,
    sourceRedacted: false,
    idempotencyKey: null,
    request: null,
    artifacts: [],
    summary: null,
    callbackUrl: null,
    callbackSecretSealed: null,
    sourceUrlSha256: null,
    ...fields,
  };
}
