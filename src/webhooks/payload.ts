// The JSON body of a job event delivery (docs/webhooks.md "Payload").
import type { QcJob } from '../schemas/job.js';
import { ServiceError } from '../errors.js';
import type { WebhookEventType, WebhookJobEventPayload } from './schemas.js';

/** The public job as the job service has it, plus the owner workspace. */
export type FinishedJob = Pick<QcJob, 'jobId' | 'status' | 'verdict' | 'minutesMetered' | 'reportUrl' | 'statusUrl' | 'failureReason'> &
  Partial<Pick<QcJob, 'completedAt'>> & { workspaceId: string };

export function eventTypeOf(job: Pick<QcJob, 'jobId' | 'status'>): WebhookEventType {
  if (job.status === 'completed') return 'job.completed';
  if (job.status === 'failed') return 'job.failed';
  throw new ServiceError('job_not_finished', `Job ${job.jobId} is ${job.status}; only completed or failed jobs have webhook events.`, { jobId: job.jobId }, 409);
}

export function jobEventPayload(job: FinishedJob, now: Date): WebhookJobEventPayload {
  const event = eventTypeOf(job);
  return {
    event,
    jobId: job.jobId,
    status: event === 'job.completed' ? 'completed' : 'failed',
    verdict: job.verdict,
    minutesMetered: job.minutesMetered,
    reportUrl: event === 'job.completed' ? job.reportUrl : null,
    statusUrl: job.statusUrl,
    failureReason: job.failureReason,
    occurredAt: job.completedAt ?? now.toISOString(),
  };
}
