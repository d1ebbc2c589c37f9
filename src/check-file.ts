// One check of one file, as the service runs it for a job and the CLI for `preflight check`: the engine's report with
// the service's usage and cost estimate filled in, so both give the same report, usage shape included.
import { runCheck, type CheckOptions, type CheckResult } from '../engine/check.js';
import type { Report } from '../engine/report.js';
import { accountPlan } from './accounts/workspace-account.js';
import { estimateCost } from './billing/estimate.js';
import { billingPeriodOf } from './billing/ledger.js';
import { meteredMinutes } from './billing/minutes.js';
import type { Plan } from './billing/plans.js';
import type { CreateJobInput } from './schemas/create-job.js';
import type { EstimateOutput } from './schemas/estimate.js';

export interface Metering {
  minutesMetered: number;
  freeRecheck: boolean;
}

export interface CheckFileOptions
  extends Pick<CheckOptions, 'profile' | 'checks' | 'sidecars' | 'signal' | 'onProgress' | 'afterProbe' | 'sha256'>,
    Pick<CreateJobInput, 'ai_review_seconds' | 'cost_guardrail'> {
  /** The plan the estimate is priced on; by default the plan of a workspace without a key (the local one). */
  plan?: Plan;
  /** What the check is charged, from its measured minutes; by default all of them (a ledger knows of free re-checks). */
  meter?: (mediaMinutes: number, report: Report, at: Date) => Metering;
  at?: Date;
}

export interface FileCheck extends CheckResult {
  mediaMinutes: number;
  metered: Metering;
  estimate: EstimateOutput;
  at: Date;
}

const LOCAL_PLAN = (): Plan => accountPlan({ planId: null, includedMinutes: null, planPriceCents: null });

export async function checkFile(path: string | null, opts: CheckFileOptions = {}): Promise<FileCheck> {
  const result = await runCheck(path, {
    profile: opts.profile,
    checks: opts.checks,
    sidecars: opts.sidecars,
    signal: opts.signal,
    onProgress: opts.onProgress,
    afterProbe: opts.afterProbe,
    sha256: opts.sha256,
  });
  const priced = pricedReport(result.report, meteredMinutes(result.media), opts);
  return { ...result, ...priced };
}

export type PricingOptions = Pick<CheckFileOptions, 'profile' | 'plan' | 'meter' | 'at' | 'ai_review_seconds' | 'cost_guardrail'>;

/** A report with this check's usage (metered on `mediaMinutes`) and cost estimate: a fresh one, or a stored one reused. */
export function pricedReport(checked: Report, mediaMinutes: number, opts: PricingOptions): Pick<FileCheck, 'report' | 'mediaMinutes' | 'metered' | 'estimate' | 'at'> {
  const at = opts.at ?? new Date();
  const metered = opts.meter?.(mediaMinutes, checked, at) ?? { minutesMetered: mediaMinutes, freeRecheck: false };
  const plan = opts.plan ?? LOCAL_PLAN();
  const estimate = estimateCost({
    minutes: mediaMinutes,
    profile: opts.profile,
    ai_review_seconds: opts.ai_review_seconds,
    cost_guardrail: opts.cost_guardrail,
    plan_id: plan.id,
    plan_price_cents: plan.priceCents,
    included_minutes: plan.includedMinutes,
  });
  const report: Report = {
    ...checked,
    usage: { minutesMetered: metered.minutesMetered, mediaMinutes, freeRecheck: metered.freeRecheck, billingPeriod: billingPeriodOf(at) },
    costEstimate: estimate.cost_estimate,
  };
  return { report, mediaMinutes, metered, estimate, at };
}
