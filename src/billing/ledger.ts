// The usage ledger: one entry per finished job, and the pure rules that meter minutes and allow or refuse usage.
// The store records entries; nothing here does I/O.
import { z } from 'zod';
import { ServiceError } from '../errors.js';
import type { Plan } from './plans.js';

export const BillingPeriodSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'billing period must be YYYY-MM');

export const UsageEntrySchema = z.object({
  entryId: z.string().min(1),
  workspaceId: z.string().min(1),
  jobId: z.string().min(1),
  /** Hash of the checked bytes; null when the media never passed through the service (no re-check rule then). */
  sha256: z.string().nullable(),
  billingPeriod: BillingPeriodSchema,
  /** Minutes charged: 0 for a free re-check or a failed job. */
  minutesMetered: z.number().int().min(0),
  /** Minutes the media is worth, charged or not (0 when a failed job never learnt its duration). */
  mediaMinutes: z.number().int().min(0),
  freeRecheck: z.boolean(),
  /** Null when the workspace has no plan of its own, i.e. the free tier. */
  planId: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type UsageEntry = z.infer<typeof UsageEntrySchema>;

/** The calendar month in UTC, `YYYY-MM`. */
export function billingPeriodOf(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new RangeError('billingPeriodOf: invalid date');
  return date.toISOString().slice(0, 7);
}

export interface MeterJobInput {
  workspaceId: string;
  sha256: string | null;
  /** Metered minutes of the media (see minutes.ts). */
  mediaMinutes: number;
  at: Date;
  entries: readonly UsageEntry[];
  /** A failed job meters 0; the caller still records its entry. */
  failed?: boolean;
}

export interface Metering {
  minutesMetered: number;
  freeRecheck: boolean;
  billingPeriod: string;
}

/**
 * Only a charged entry makes a later check free: a failed job (0 minutes, not a re-check) must not turn the first
 * successful check of the same file into a free one.
 */
function wasChargedBefore(entries: readonly UsageEntry[], workspaceId: string, sha256: string, period: string): boolean {
  return entries.some((e) => e.workspaceId === workspaceId && e.sha256 === sha256 && e.billingPeriod === period && e.minutesMetered > 0);
}

/** Minutes to charge for a finished job: 0 when it failed or re-checks a file already charged this month. */
export function meterJob(input: MeterJobInput): Metering {
  const billingPeriod = billingPeriodOf(input.at);
  if (input.failed) return { minutesMetered: 0, freeRecheck: false, billingPeriod };
  const freeRecheck = input.sha256 !== null && wasChargedBefore(input.entries, input.workspaceId, input.sha256, billingPeriod);
  return { minutesMetered: freeRecheck ? 0 : input.mediaMinutes, freeRecheck, billingPeriod };
}

/** Minutes charged to a workspace in a billing period. */
export function minutesUsed(entries: readonly UsageEntry[], workspaceId: string, period: string): number {
  return entries.filter((e) => e.workspaceId === workspaceId && e.billingPeriod === period).reduce((sum, e) => sum + e.minutesMetered, 0);
}

// Money is counted in hundredths of a cent so that, e.g., 100 minutes at 2.99 ¢ is exactly 299 ¢.
function rateInCentiCents(plan: Pick<Plan, 'overageRateCentsPerMinute'>): number {
  return Math.round(plan.overageRateCentsPerMinute * 100);
}

/** Overage spend of a period in whole cents (rounded up) for the minutes used beyond the included ones. */
export function overageCents(plan: Pick<Plan, 'includedMinutes' | 'overageRateCentsPerMinute'>, totalMinutes: number): number {
  const overageMinutes = Math.max(0, totalMinutes - plan.includedMinutes);
  return Math.ceil((overageMinutes * rateInCentiCents(plan)) / 100);
}

/** Extra minutes an overage cap pays for: those whose rounded-up cost stays within the cap. */
function minutesAffordable(plan: Pick<Plan, 'overageRateCentsPerMinute'>, capCents: number): number {
  const rate = rateInCentiCents(plan);
  return rate > 0 ? Math.floor((capCents * 100) / rate) : Number.POSITIVE_INFINITY;
}

export type AllowanceReason = 'nothing_metered' | 'within_included' | 'overage_within_cap' | 'included_minutes_exhausted' | 'overage_cap_exceeded';

export interface UsageAllowance {
  allowed: boolean;
  /** Minutes the workspace can still use this period before this request: included ones plus what the cap pays for. */
  minutesRemaining: number;
  /** Minutes beyond the included ones for the period, this request included. */
  overageMinutes: number;
  /** Overage spend of the period in cents, this request included. */
  overageCents: number;
  overageRateCentsPerMinute: number;
  reason: AllowanceReason;
}

export interface UsageAllowanceInput {
  plan: Pick<Plan, 'includedMinutes' | 'overageRateCentsPerMinute'>;
  /** Minutes already charged this period. */
  used: number;
  /** Minutes this request would charge (0 for a free re-check). */
  requested: number;
  /** Approved extra-minute spend per period; 0, null or omitted blocks at the included minutes. */
  overageCapCents?: number | null;
}

/** Whether a request fits the plan: included minutes first, then overage up to the approved cap. */
export function usageAllowance(input: UsageAllowanceInput): UsageAllowance {
  const capCents = Math.max(0, input.overageCapCents ?? 0);
  const limitMinutes = input.plan.includedMinutes + minutesAffordable(input.plan, capCents);
  const total = input.used + input.requested;
  const overageMinutes = Math.max(0, total - input.plan.includedMinutes);
  const allowed = input.requested === 0 || total <= limitMinutes;
  return {
    allowed,
    minutesRemaining: Math.max(0, limitMinutes - input.used),
    overageMinutes,
    overageCents: overageCents(input.plan, total),
    overageRateCentsPerMinute: input.plan.overageRateCentsPerMinute,
    reason: allowanceReason(input.requested, allowed, overageMinutes, capCents),
  };
}

function allowanceReason(requested: number, allowed: boolean, overageMinutes: number, capCents: number): AllowanceReason {
  if (requested === 0) return 'nothing_metered';
  if (!allowed) return capCents === 0 ? 'included_minutes_exhausted' : 'overage_cap_exceeded';
  return overageMinutes > 0 ? 'overage_within_cap' : 'within_included';
}

/** HTTP status of `usage_limit_exceeded` (our decision, docs/billing.md "Errors and statuses"; 402 stays reserved for native per-call payment). */
export const USAGE_LIMIT_STATUS = 429;

export interface UsageLimitContext {
  planId: string;
  includedMinutes: number;
  minutesUsed: number;
  requestedMinutes: number;
}

/** The refusal for a request the allowance does not allow; `details` carries the abuse-event fields. */
export function usageLimitError(allowance: UsageAllowance, context: UsageLimitContext): ServiceError {
  const why =
    allowance.reason === 'included_minutes_exhausted'
      ? 'the included minutes are used up and no overage cap is approved (overage_cap_cents)'
      : `the approved overage cap would be exceeded (${allowance.overageCents} ¢ of overage at ${allowance.overageRateCentsPerMinute} ¢/min)`;
  return new ServiceError(
    'usage_limit_exceeded',
    `Usage limit reached on plan ${context.planId}: ${context.requestedMinutes} minutes requested, ${allowance.minutesRemaining} remaining this month; ${why}.`,
    { ...context, minutesRemaining: allowance.minutesRemaining, reason: allowance.reason },
    USAGE_LIMIT_STATUS,
  );
}

/** A spend alert is due when the period's overage spend reaches the subscription value (plans with a price only). */
export function spendAlertDue(plan: Pick<Plan, 'priceCents'>, overageCentsBefore: number, overageCentsAfter: number): boolean {
  return plan.priceCents > 0 && overageCentsBefore < plan.priceCents && overageCentsAfter >= plan.priceCents;
}
