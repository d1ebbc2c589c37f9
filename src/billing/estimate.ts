// The QC estimate and the cost guardrail. Pure: no model runs here or anywhere; `ai_review_seconds` only adds cost.
import { z } from 'zod';
import { EngineError } from '../../engine/errors.js';
import { parseChecks } from '../../engine/gates/index.js';
import { PIPELINE_PROFILE_IDS, PIPELINE_PROFILES, PROFILE_ALIASES, type PipelineProfileId } from '../../engine/profiles/index.js';
import { ServiceError } from '../errors.js';
import type { CostEstimate } from '../schemas/job.js';
import {
  EstimateInputSchema,
  type CostGuardrail,
  type EstimateAction,
  type EstimateInput,
  type EstimateOutput,
} from '../schemas/estimate.js';
import { COST_BASIS_VERSION, COST_RATES, GROSS_MARGIN_TARGET_PCT } from './cost-basis.js';
import { meteredMinutes } from './minutes.js';
import { effectiveCentsPerMinute, planById, withCustomEconomics, type Plan } from './plans.js';

/** The name of model-backed review in checks lists. It is no gate: it never runs in this build and never votes. */
export const AI_REVIEW_CHECK = 'ai_review';

/** Without media, `auto` cannot infer; it is priced as the creator-video defaults, the broadest video gate set. */
export const AUTO_PROFILE_PRICED_AS: PipelineProfileId = 'generic_creator_video';

/** HTTP status of a job refused by `cost_guardrail: block`: the request is valid but cannot run as asked. */
export const COST_GUARDRAIL_BLOCKED_STATUS = 422;

const MARGIN_BUDGET_SHARE = 1 - GROSS_MARGIN_TARGET_PCT / 100;
// Absorbs floating-point noise in USD sums far below a micro-dollar.
const USD_EPSILON = 1e-12;

type ParsedInput = z.output<typeof EstimateInputSchema>;

/** Checked minutes of a request: `minutes`, else ceil(duration_seconds / 60); at least 1. */
export function estimateMinutes(input: Pick<ParsedInput, 'minutes' | 'duration_seconds'>): number {
  if (input.minutes !== undefined) return Math.max(1, Math.ceil(input.minutes));
  if (input.duration_seconds !== undefined) return meteredMinutes({ kind: 'video', durationSeconds: input.duration_seconds });
  return 1;
}

/** A delivery profile keeps the pipeline `auto` would infer, so without media it is priced as `auto`. */
function pipelineFor(profile: string): PipelineProfileId {
  if (Object.hasOwn(PROFILE_ALIASES, profile)) return PROFILE_ALIASES[profile];
  if ((PIPELINE_PROFILE_IDS as readonly string[]).includes(profile)) return profile as PipelineProfileId;
  return AUTO_PROFILE_PRICED_AS;
}

/** Explicit checks (validated against the gate catalogue) or the profile's default gates. */
export function deterministicChecks(profile: string, checks: string | undefined): string[] {
  try {
    return parseChecks(checks) ?? [...PIPELINE_PROFILES[pipelineFor(profile)].gates];
  } catch (error) {
    if (error instanceof EngineError) throw new ServiceError(error.code, error.message, error.details);
    throw error;
  }
}

/** Revenue of the minutes at the plan's effective per-minute price. */
export function revenueUsd(plan: Plan, minutes: number): number {
  return (minutes * effectiveCentsPerMinute(plan)) / 100;
}

export function deterministicCogsUsd(minutes: number): number {
  return minutes * COST_RATES.deterministicUsdPerMediaMinute;
}

export function aiReviewCostUsd(seconds: number): number {
  return seconds * COST_RATES.modelReviewUsdPerSecond;
}

function fitsBudget(cogsUsd: number, budgetUsd: number): boolean {
  return cogsUsd <= budgetUsd + USD_EPSILON;
}

/**
 * The most model-review seconds that keep COGS within the margin budget (0 when none fit), in closed form. The
 * division can land one off an integer boundary, so each neighbour is checked once: no loop, whatever the inputs.
 */
export function maxAiReviewSecondsAtMargin(budgetUsd: number, baseCogsUsd: number): number {
  const fits = (seconds: number) => fitsBudget(baseCogsUsd + aiReviewCostUsd(seconds), budgetUsd);
  const estimate = Math.floor((budgetUsd + USD_EPSILON - baseCogsUsd) / COST_RATES.modelReviewUsdPerSecond);
  if (!Number.isFinite(estimate) || estimate <= 0) return fits(1) ? 1 : 0;
  if (!fits(estimate)) return estimate - 1;
  return fits(estimate + 1) ? estimate + 1 : estimate;
}

/** Gross margin of a deterministic-only check on a plan, in percent. */
export function deterministicMarginPct(plan: Plan): number {
  return (1 - COST_RATES.deterministicUsdPerMediaMinute / revenueUsd(plan, 1)) * 100;
}

interface GuardrailDecision {
  action: EstimateAction;
  keepAiReview: boolean;
}

/**
 * `downgrade` drops model review when that restores the margin; when even the deterministic checks do not fit
 * (only possible with custom economics priced near cost) nothing can be dropped, so the job is blocked.
 */
function decideGuardrail(guardrail: CostGuardrail, fits: { asRequested: boolean; withoutAiReview: boolean }, hasAiReview: boolean): GuardrailDecision {
  if (fits.asRequested) return { action: 'proceed', keepAiReview: true };
  if (guardrail === 'off') return { action: 'proceed_unsafe', keepAiReview: true };
  if (guardrail === 'downgrade' && hasAiReview && fits.withoutAiReview) return { action: 'downgraded', keepAiReview: false };
  return { action: 'blocked', keepAiReview: true };
}

const roundUsd = (usd: number) => Math.round(usd * 1e6) / 1e6;
const roundCents = (cents: number) => Math.round(cents * 1e4) / 1e4;

function parseInput(input: EstimateInput): ParsedInput {
  const parsed = EstimateInputSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
  throw new ServiceError('invalid_estimate_input', `Invalid estimate request: ${issues}.`, { issues: parsed.error.issues }, 400);
}

/** Prices a request and applies the cost guardrail. Throws ServiceError 400 on an unknown plan or check. */
export function estimateCost(input: EstimateInput): EstimateOutput {
  const request = parseInput(input);
  const plan = withCustomEconomics(planById(request.plan_id), {
    planPriceCents: request.plan_price_cents,
    includedMinutes: request.included_minutes,
  });
  const profile = request.profile ?? 'auto';
  const minutes = estimateMinutes(request);
  const checks = deterministicChecks(profile, request.checks);
  const aiSeconds = request.ai_review_seconds ?? 0;
  const hasAiReview = aiSeconds > 0;

  const revenue = revenueUsd(plan, minutes);
  const budget = revenue * MARGIN_BUDGET_SHARE;
  const baseCogs = deterministicCogsUsd(minutes);
  const requestedCogs = baseCogs + aiReviewCostUsd(aiSeconds);
  const fits = { asRequested: fitsBudget(requestedCogs, budget), withoutAiReview: fitsBudget(baseCogs, budget) };
  const decision = decideGuardrail(request.cost_guardrail, fits, hasAiReview);

  const keptAiSeconds = decision.keepAiReview ? aiSeconds : 0;
  const cogs = baseCogs + aiReviewCostUsd(keptAiSeconds);
  const maxAiSeconds = maxAiReviewSecondsAtMargin(budget, baseCogs);
  const marginSafe = decision.action === 'proceed' || decision.action === 'downgraded';
  const costEstimate: CostEstimate = {
    estimatedCogsUsd: roundUsd(cogs),
    grossMarginBudgetUsd: roundUsd(budget),
    grossMarginTargetPct: GROSS_MARGIN_TARGET_PCT,
    withinBudget: fits.asRequested,
    modelCheckCents: roundCents(aiReviewCostUsd(keptAiSeconds) * 100),
    modelBackedChecks: keptAiSeconds > 0 ? [AI_REVIEW_CHECK] : [],
    maxAiReviewSecondsAtMargin: maxAiSeconds,
    marginSafe,
  };
  return {
    margin_safe: marginSafe,
    effective_checks: keptAiSeconds > 0 ? [...checks, AI_REVIEW_CHECK] : checks,
    removed_checks: decision.action === 'downgraded' ? [AI_REVIEW_CHECK] : [],
    cost_estimate: costEstimate,
    action: decision.action,
    minutes,
    plan_id: plan.id,
    revenue_usd: roundUsd(revenue),
    cost_basis_version: COST_BASIS_VERSION,
    explanation: explain({ plan, profile, minutes, revenue, budget, baseCogs, aiSeconds, maxAiSeconds, action: decision.action, explicitChecks: request.checks !== undefined }),
  };
}

interface ExplainFacts {
  plan: Plan;
  profile: string;
  minutes: number;
  revenue: number;
  budget: number;
  baseCogs: number;
  aiSeconds: number;
  maxAiSeconds: number;
  action: EstimateAction;
  explicitChecks: boolean;
}

const ACTION_SENTENCES: Record<EstimateAction, (f: ExplainFacts) => string> = {
  proceed: () => 'Within the margin budget: the job runs as requested.',
  downgraded: () => `Downgraded: AI review removed to keep gross margin above ${GROSS_MARGIN_TARGET_PCT} %; the deterministic checks run and decide the verdict.`,
  blocked: (f) =>
    f.aiSeconds > 0 && fitsBudget(f.baseCogs, f.budget)
      ? `Blocked: a job with this request is refused (cost_guardrail_blocked). Ask for at most ${f.maxAiSeconds} s of AI review, or use cost_guardrail downgrade.`
      : 'Blocked: even the deterministic checks exceed the margin budget at these plan economics (cost_guardrail_blocked).',
  proceed_unsafe: () => `Guardrail off: the job runs as requested below the ${GROSS_MARGIN_TARGET_PCT} % margin target.`,
};

function explain(f: ExplainFacts): string {
  const usd = (v: number) => `${roundUsd(v)} USD`;
  const perMinute = effectiveCentsPerMinute(f.plan) / 100;
  const sentences = [
    `${f.minutes} checked minute${f.minutes === 1 ? '' : 's'} on plan ${f.plan.id} at ${roundUsd(perMinute)} USD/min: revenue ${usd(f.revenue)}, margin budget ${usd(f.budget)} (${100 - GROSS_MARGIN_TARGET_PCT} % of revenue).`,
    f.plan.priceCents === 0 ? 'Minutes without a subscription price are valued at the pay-per-use list price.' : '',
    f.profile === 'auto' && !f.explicitChecks ? `Profile auto without media: priced as ${AUTO_PROFILE_PRICED_AS}.` : '',
    `Deterministic checks cost ${usd(f.baseCogs)} (cost basis ${COST_BASIS_VERSION}).`,
    f.aiSeconds > 0 ? `AI review of ${f.aiSeconds} s costs ${usd(aiReviewCostUsd(f.aiSeconds))}; at most ${f.maxAiSeconds} s fit the budget. It never changes the verdict.` : '',
    ACTION_SENTENCES[f.action](f),
  ];
  return sentences.filter(Boolean).join(' ');
}

/** The error a door raises when it refuses a job whose estimate is `blocked`. */
export function costGuardrailBlockedError(estimate: EstimateOutput): ServiceError {
  return new ServiceError(
    'cost_guardrail_blocked',
    `The cost guardrail blocked this job: ${estimate.explanation}`,
    { costEstimate: estimate.cost_estimate, planId: estimate.plan_id, minutes: estimate.minutes },
    COST_GUARDRAIL_BLOCKED_STATUS,
  );
}
