// Abuse limits per plan (duration, upload size, active jobs; values in src/billing/plans.ts) and the abuse-event log.
// Every refusal is stored as an abuse event before it is thrown (docs/accounts.md "Abuse limits").
import { planById, type AbuseLimits } from '../billing/plans.js';
import { ServiceError } from '../errors.js';
import type { Principal } from '../service.js';
import type { AbuseEventRecord } from '../store/records.js';
import type { AccountsContext } from './context.js';
import { randomId } from './ids.js';
import { parseInput } from './parse-input.js';
import { pinnedWorkspace } from './principal.js';
import { WorkspaceListQuerySchema, type AbuseEvent, type WorkspaceListQuery } from './schemas.js';
import { requireScope } from './scopes.js';
import { accountOf } from './workspace-account.js';

export interface AbuseCheckInput {
  /** Declared or measured media duration. */
  durationSeconds?: number;
  /** Declared or received upload size. */
  sizeBytes?: number;
  /** The workspace's jobs queued or running now, not counting the one being created. */
  activeJobs: number;
}

const BYTES_PER_MB = 1024 * 1024;
const DEFAULT_LIST_LIMIT = 50;

const round1 = (n: number) => Math.round(n * 10) / 10;

/** The first limit the request breaks, as the error to throw; null when it fits. */
export function abuseLimitViolation(planId: string, limits: AbuseLimits, input: AbuseCheckInput): ServiceError | null {
  const context = { planId, ...limits };
  if (input.durationSeconds !== undefined && input.durationSeconds > limits.maxDurationMinutes * 60) {
    return new ServiceError(
      'duration_limit_exceeded',
      `The media lasts ${round1(input.durationSeconds / 60)} min; plan ${planId} checks at most ${limits.maxDurationMinutes} min per job. Split it or check a shorter export.`,
      { ...context, durationSeconds: input.durationSeconds },
      413,
    );
  }
  if (input.sizeBytes !== undefined && input.sizeBytes > limits.maxUploadMb * BYTES_PER_MB) {
    return new ServiceError(
      'upload_size_limit_exceeded',
      `The upload is ${round1(input.sizeBytes / BYTES_PER_MB)} MB; plan ${planId} accepts at most ${limits.maxUploadMb} MB. Check a smaller proxy export.`,
      { ...context, sizeBytes: input.sizeBytes },
      413,
    );
  }
  if (input.activeJobs >= limits.maxActiveJobs) {
    return new ServiceError(
      'active_jobs_limit_exceeded',
      `The workspace already has ${input.activeJobs} jobs queued or running; plan ${planId} allows ${limits.maxActiveJobs} at a time. Retry when one finishes.`,
      { ...context, activeJobs: input.activeJobs },
      429,
    );
  }
  return null;
}

const detailInt = (details: Record<string, unknown>, key: string): number | null =>
  typeof details[key] === 'number' && Number.isFinite(details[key]) ? Math.round(details[key]) : null;

async function abuseEvent(ctx: AccountsContext, principal: Principal, error: ServiceError): Promise<AbuseEventRecord> {
  const account = accountOf(await ctx.db.keys.list(principal.workspaceId), principal);
  const planId = typeof error.details.planId === 'string' ? error.details.planId : (account.planId ?? planById(null).id);
  const d = error.details;
  return {
    eventId: randomId('abuse'),
    createdAt: ctx.now().toISOString(),
    error: error.code,
    message: error.message,
    status: error.status,
    workspaceId: principal.workspaceId,
    ownerEmail: account.ownerEmail,
    planId,
    includedMinutes: detailInt(d, 'includedMinutes'),
    minutesUsed: detailInt(d, 'minutesUsed'),
    requestedMinutes: detailInt(d, 'requestedMinutes') ?? (typeof d.durationSeconds === 'number' ? Math.ceil(d.durationSeconds / 60) : null),
    minutesRemaining: detailInt(d, 'minutesRemaining'),
    maxDurationMinutes: detailInt(d, 'maxDurationMinutes'),
    maxUploadMb: detailInt(d, 'maxUploadMb'),
    maxActiveJobs: detailInt(d, 'maxActiveJobs'),
  };
}

async function recordAbuse(ctx: AccountsContext, principal: Principal, error: ServiceError): Promise<AbuseEventRecord> {
  const event = await abuseEvent(ctx, principal, error);
  await ctx.db.abuseEvents.insert(event);
  return event;
}

/** Operators are not limited. A violation is stored as an abuse event, then thrown. */
export async function checkAbuseLimits(ctx: AccountsContext, principal: Principal, input: AbuseCheckInput): Promise<void> {
  if (principal.operator) return;
  const plan = planById(accountOf(await ctx.db.keys.list(principal.workspaceId), principal).planId);
  const violation = abuseLimitViolation(plan.id, plan.limits, input);
  if (!violation) return;
  await recordAbuse(ctx, principal, violation);
  throw violation;
}

/** Stores a usage refusal (`usage_limit_exceeded` from usageLimitError) with its plan and minute context. */
export async function recordUsageRefusal(ctx: AccountsContext, principal: Principal, error: ServiceError): Promise<AbuseEventRecord> {
  return recordAbuse(ctx, principal, error);
}

export async function listAbuseEvents(ctx: AccountsContext, principal: Principal, query: WorkspaceListQuery = {}): Promise<{ abuseEvents: AbuseEvent[] }> {
  requireScope(principal, 'api_keys:read');
  const { workspace_id, limit = DEFAULT_LIST_LIMIT } = parseInput(WorkspaceListQuerySchema, query, 'invalid_query', 'query');
  const workspaceId = pinnedWorkspace(principal, workspace_id);
  const events = await ctx.db.abuseEvents.list(workspaceId);
  return { abuseEvents: events.slice(-limit).reverse().map((e) => ({ ...e })) };
}
