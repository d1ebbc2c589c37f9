// Records the storage tests and the store benchmark seed.
import { newJobRecord } from '../../src/jobs/new-record.js';
import type { JobRecord } from '../../src/jobs/record.js';

export function jobRecord(jobId: string, workspaceId: string, over: Partial<JobRecord> = {}): JobRecord {
  return newJobRecord({
    jobId,
    workspaceId,
    requestedProfile: null,
    createdAt: '2026-11-01T10:00:00.000Z',
    costEstimate: { estimatedCostCents: 1 } as unknown as JobRecord['costEstimate'],
    request: { source: { kind: 'local_path', path: '/media/a.mp4' } },
    ...over,
  });
}
