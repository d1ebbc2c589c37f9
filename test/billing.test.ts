// Billing: metering, the ledger's re-check and allowance rules, plans, the published cost basis, the estimate and the guardrail.
import { describe, expect, it } from 'vitest';
import { GATE_IDS } from '../engine/gates/index.js';
import { PIPELINE_PROFILES } from '../engine/profiles/index.js';
import { ServiceError } from '../src/errors.js';
import { COST_BASIS_VERSION, COST_RATES, costBasis } from '../src/billing/cost-basis.js';
import {
  AI_REVIEW_CHECK,
  costGuardrailBlockedError,
  deterministicMarginPct,
  estimateCost,
  estimateMinutes,
} from '../src/billing/estimate.js';
import {
  billingPeriodOf,
  meterJob,
  minutesUsed,
  spendAlertDue,
  usageAllowance,
  usageLimitError,
  UsageEntrySchema,
  type UsageEntry,
} from '../src/billing/ledger.js';
import { meteredMinutes } from '../src/billing/minutes.js';
import { PLANS, PLAN_IDS, planById, withCustomEconomics } from '../src/billing/plans.js';
import { EstimateOutputSchema, type EstimateInput, type EstimateOutput } from '../src/schemas/estimate.js';

function estimate(input: EstimateInput): EstimateOutput {
  const out = estimateCost(input);
  expect(EstimateOutputSchema.parse(out)).toEqual(out);
  return out;
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

let entrySeq = 0;
function entry(overrides: Partial<UsageEntry>): UsageEntry {
  entrySeq += 1;
  return UsageEntrySchema.parse({
    entryId: `use_${entrySeq}`,
    workspaceId: 'ws_a',
    jobId: `job_${entrySeq}`,
    sha256: 'aaa',
    billingPeriod: '2026-11',
    minutesMetered: 5,
    mediaMinutes: 5,
    freeRecheck: false,
    planId: 'creator',
    createdAt: '2026-11-10T12:00:00.000Z',
    ...overrides,
  });
}

describe('metered minutes', () => {
  it('rounds audio/video up to whole minutes, at least 1, and counts an image as 1', () => {
    expect(meteredMinutes({ kind: 'video', durationSeconds: 60 })).toBe(1);
    expect(meteredMinutes({ kind: 'video', durationSeconds: 60.1 })).toBe(2);
    expect(meteredMinutes({ kind: 'audio', durationSeconds: 0.4 })).toBe(1);
    expect(meteredMinutes({ kind: 'image', durationSeconds: 0 })).toBe(1);
  });

  it('prices `minutes` first, else the duration, else one minute', () => {
    expect(estimateMinutes({ duration_seconds: 60 })).toBe(1);
    expect(estimateMinutes({ duration_seconds: 60.1 })).toBe(2);
    expect(estimateMinutes({ minutes: 2.5, duration_seconds: 600 })).toBe(3);
    expect(estimateMinutes({ minutes: 0 })).toBe(1);
    expect(estimateMinutes({})).toBe(1);
  });
});

describe('usage ledger', () => {
  const at = new Date('2026-11-20T08:00:00Z');

  it('names billing periods by UTC calendar month', () => {
    expect(billingPeriodOf(new Date('2026-01-31T23:59:59.999Z'))).toBe('2026-01');
    expect(billingPeriodOf(new Date('2026-02-01T00:00:00Z'))).toBe('2026-02');
    expect(() => billingPeriodOf(new Date('nope'))).toThrow(RangeError);
  });

  it('charges a first check and makes a re-check of the same file in the same workspace and month free', () => {
    expect(meterJob({ workspaceId: 'ws_a', sha256: 'aaa', mediaMinutes: 5, at, entries: [] })).toEqual({
      minutesMetered: 5,
      freeRecheck: false,
      billingPeriod: '2026-11',
    });
    const entries = [entry({})];
    expect(meterJob({ workspaceId: 'ws_a', sha256: 'aaa', mediaMinutes: 5, at, entries })).toMatchObject({ minutesMetered: 0, freeRecheck: true });
  });

  it('charges the same file again in the next month, in another workspace, or when it is a different file', () => {
    const entries = [entry({})];
    const december = new Date('2026-12-01T00:00:00Z');
    expect(meterJob({ workspaceId: 'ws_a', sha256: 'aaa', mediaMinutes: 5, at: december, entries })).toMatchObject({ minutesMetered: 5, freeRecheck: false });
    expect(meterJob({ workspaceId: 'ws_b', sha256: 'aaa', mediaMinutes: 5, at, entries })).toMatchObject({ minutesMetered: 5, freeRecheck: false });
    expect(meterJob({ workspaceId: 'ws_a', sha256: 'bbb', mediaMinutes: 5, at, entries })).toMatchObject({ minutesMetered: 5, freeRecheck: false });
    expect(meterJob({ workspaceId: 'ws_a', sha256: null, mediaMinutes: 5, at, entries })).toMatchObject({ minutesMetered: 5, freeRecheck: false });
  });

  it('meters a failed job 0, and its entry does not make the next check of that file free', () => {
    expect(meterJob({ workspaceId: 'ws_a', sha256: 'aaa', mediaMinutes: 5, at, entries: [], failed: true })).toMatchObject({ minutesMetered: 0, freeRecheck: false });
    const entries = [entry({ minutesMetered: 0 })];
    expect(meterJob({ workspaceId: 'ws_a', sha256: 'aaa', mediaMinutes: 5, at, entries })).toMatchObject({ minutesMetered: 5, freeRecheck: false });
  });

  it('sums the minutes a workspace was charged in a period', () => {
    const entries = [
      entry({ minutesMetered: 5 }),
      entry({ minutesMetered: 0, freeRecheck: true }),
      entry({ minutesMetered: 7, sha256: 'bbb' }),
      entry({ minutesMetered: 11, workspaceId: 'ws_b' }),
      entry({ minutesMetered: 13, billingPeriod: '2026-10' }),
    ];
    expect(minutesUsed(entries, 'ws_a', '2026-11')).toBe(12);
    expect(minutesUsed(entries, 'ws_b', '2026-11')).toBe(11);
    expect(minutesUsed([], 'ws_a', '2026-11')).toBe(0);
  });

  it('rejects malformed entries', () => {
    expect(() => entry({ billingPeriod: '2026-13' })).toThrow();
    expect(() => entry({ minutesMetered: -1 })).toThrow();
  });
});

describe('usage allowance', () => {
  const free = PLANS.free;
  const creator = PLANS.creator;

  it('allows up to exactly the included minutes and blocks the next one when no overage cap is approved', () => {
    expect(usageAllowance({ plan: free, used: 0, requested: 200 })).toMatchObject({ allowed: true, minutesRemaining: 200, overageMinutes: 0, reason: 'within_included' });
    expect(usageAllowance({ plan: free, used: 199, requested: 1 })).toMatchObject({ allowed: true, minutesRemaining: 1 });
    for (const overageCapCents of [undefined, null, 0]) {
      expect(usageAllowance({ plan: free, used: 200, requested: 1, overageCapCents })).toMatchObject({
        allowed: false,
        minutesRemaining: 0,
        overageMinutes: 1,
        reason: 'included_minutes_exhausted',
      });
    }
    expect(usageAllowance({ plan: creator, used: 2990, requested: 11 })).toMatchObject({ allowed: false, minutesRemaining: 10 });
  });

  it('always allows a request that meters nothing, such as a free re-check', () => {
    expect(usageAllowance({ plan: free, used: 200, requested: 0 })).toMatchObject({ allowed: true, reason: 'nothing_metered' });
  });

  it('allows overage only up to the approved cap, at the plan overage rate rounded up to whole cents', () => {
    // 100 ¢ at 3.3 ¢/min pays for 30 minutes (99 ¢); the 31st would make 103 ¢.
    expect(usageAllowance({ plan: creator, used: 3000, requested: 30, overageCapCents: 100 })).toMatchObject({
      allowed: true,
      minutesRemaining: 30,
      overageMinutes: 30,
      overageCents: 99,
      reason: 'overage_within_cap',
    });
    expect(usageAllowance({ plan: creator, used: 3000, requested: 31, overageCapCents: 100 })).toMatchObject({
      allowed: false,
      overageCents: 103,
      reason: 'overage_cap_exceeded',
    });
    expect(usageAllowance({ plan: creator, used: 2990, requested: 40, overageCapCents: 100 })).toMatchObject({ allowed: true, overageMinutes: 30 });
  });

  it('counts cents exactly where floating point would not (100 minutes at 2.99 ¢ is 299 ¢)', () => {
    expect(usageAllowance({ plan: PLANS.studio, used: 10000, requested: 100, overageCapCents: 299 })).toMatchObject({ allowed: true, overageCents: 299 });
  });

  it('builds the usage_limit_exceeded error with the abuse-event context', () => {
    const allowance = usageAllowance({ plan: free, used: 195, requested: 10 });
    const error = usageLimitError(allowance, { planId: 'free', includedMinutes: 200, minutesUsed: 195, requestedMinutes: 10 });
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ code: 'usage_limit_exceeded', status: 429 });
    expect(error.details).toMatchObject({ planId: 'free', includedMinutes: 200, minutesUsed: 195, requestedMinutes: 10, minutesRemaining: 5 });
    expect(error.message).toContain('overage_cap_cents');
  });

  it('is due for a spend alert once the overage spend reaches the subscription value', () => {
    expect(spendAlertDue(creator, 9800, 9900)).toBe(true);
    expect(spendAlertDue(creator, 9900, 10000)).toBe(false);
    expect(spendAlertDue(creator, 100, 9899)).toBe(false);
    expect(spendAlertDue(free, 0, 1000)).toBe(false);
  });
});

describe('plans', () => {
  it('carry the prices and included minutes of docs/billing.md', () => {
    expect(PLAN_IDS).toEqual(['free', 'pay_per_use', 'creator', 'studio', 'network', 'stress_99_5000']);
    expect(PLANS.free).toMatchObject({ priceCents: 0, includedMinutes: 200 });
    expect(PLANS.creator).toMatchObject({ priceCents: 9900, includedMinutes: 3000 });
    expect(PLANS.studio).toMatchObject({ priceCents: 29900, includedMinutes: 10000 });
    expect(PLANS.network).toMatchObject({ priceCents: 89900, includedMinutes: 35000 });
    expect(PLANS.stress_99_5000).toMatchObject({ priceCents: 9900, includedMinutes: 5000 });
  });

  it("charge overage at each subscription's own per-minute price (rounded up to 0.01 ¢) and at the list price otherwise", () => {
    for (const plan of Object.values(PLANS)) {
      const expected = plan.priceCents > 0 ? Math.ceil((plan.priceCents / plan.includedMinutes) * 100) / 100 : 4.2;
      expect(plan.overageRateCentsPerMinute, plan.id).toBe(expected);
    }
  });

  it('apply custom economics and refuse unknown plans', () => {
    const custom = withCustomEconomics(PLANS.creator, { planPriceCents: 20000, includedMinutes: 4000 });
    expect(custom).toMatchObject({ id: 'creator', priceCents: 20000, includedMinutes: 4000, overageRateCentsPerMinute: 5 });
    expect(withCustomEconomics(PLANS.studio, {})).toBe(PLANS.studio);
    expect(thrown(() => planById('gold'))).toMatchObject({ code: 'invalid_plan', status: 400 });
    expect(planById(undefined).id).toBe('free');
  });
});

describe('published cost basis', () => {
  it('is JSON with every figure, its unit, source and confidence, and a version', () => {
    const basis = costBasis();
    expect(JSON.parse(JSON.stringify(basis))).toEqual(basis);
    expect(basis.version).toBe(COST_BASIS_VERSION);
    expect(basis.grossMarginTargetPct).toBe(95);
    for (const f of [...Object.values(basis.inputs), ...Object.values(basis.derived)]) {
      expect(f.unit.length).toBeGreaterThan(0);
      expect(f.source.length).toBeGreaterThan(0);
      expect(['measured', 'house', 'derived']).toContain(f.confidence);
      expect(Number.isFinite(f.value)).toBe(true);
    }
  });

  it('derives the per-minute cost from the measured benchmark and the stated machine price', () => {
    const { derived } = costBasis();
    expect(derived.wallSecondsPerMediaMinute.value).toBeCloseTo(11.07, 10);
    expect(derived.coreSecondsPerMediaMinute.value).toBeCloseTo(22.14, 10);
    expect(derived.computeUsdPerMediaMinute.value).toBeCloseTo(((11.07 / 3600) * 0.1) / 0.5, 12);
    expect(derived.deterministicUsdPerMediaMinute.value).toBe(COST_RATES.deterministicUsdPerMediaMinute);
    expect(COST_RATES.modelReviewUsdPerSecond).toBe(0.0005);
  });
});

describe('estimate', () => {
  it('keeps a deterministic-only check above 95 % gross margin on every plan at the published basis', () => {
    for (const planId of PLAN_IDS) {
      const margin = deterministicMarginPct(PLANS[planId]);
      expect(margin, `cost basis ${COST_BASIS_VERSION} breaks the 95 % margin on plan ${planId}: ${margin.toFixed(2)} %`).toBeGreaterThan(95);
      for (const minutes of [1, 10, 600]) {
        const out = estimate({ plan_id: planId, minutes, cost_guardrail: 'block' });
        expect(out, `plan ${planId}, ${minutes} min`).toMatchObject({ action: 'proceed', margin_safe: true, removed_checks: [] });
        expect(out.cost_estimate).toMatchObject({ withinBudget: true, marginSafe: true, modelBackedChecks: [], modelCheckCents: 0 });
      }
    }
  });

  it.each([
    ['free', 0.42],
    ['pay_per_use', 0.42],
    ['creator', 0.33],
    ['studio', 0.299],
    ['network', 0.256857],
    ['stress_99_5000', 0.198],
  ])('prices 10 minutes on %s at the plan per-minute price', (planId, revenue) => {
    const out = estimate({ plan_id: planId, minutes: 10 });
    expect(out).toMatchObject({ plan_id: planId, minutes: 10, revenue_usd: revenue });
    expect(out.cost_estimate.grossMarginBudgetUsd).toBeCloseTo(revenue * 0.05, 6);
    expect(out.cost_estimate.estimatedCogsUsd).toBeCloseTo(10 * COST_RATES.deterministicUsdPerMediaMinute, 6);
    expect(out.cost_estimate.grossMarginTargetPct).toBe(95);
  });

  it('defaults to the free tier, valued at the pay-per-use list price', () => {
    const out = estimate({ duration_seconds: 125 });
    expect(out).toMatchObject({ plan_id: 'free', minutes: 3, revenue_usd: 0.126 });
    expect(out.explanation).toContain('pay-per-use list price');
  });

  it('uses custom economics for revenue and the margin budget', () => {
    const generous = estimate({ plan_id: 'creator', plan_price_cents: 20000, included_minutes: 1000, minutes: 10 });
    expect(generous).toMatchObject({ revenue_usd: 2, action: 'proceed' });
    expect(generous.cost_estimate.grossMarginBudgetUsd).toBe(0.1);
    // 1 USD for 100 000 minutes is below cost: nothing can be dropped, so the default guardrail blocks.
    const belowCost = { plan_id: 'creator', plan_price_cents: 100, included_minutes: 100_000, minutes: 10 } as const;
    expect(estimate(belowCost)).toMatchObject({ action: 'blocked', margin_safe: false, removed_checks: [] });
    expect(estimate(belowCost).explanation).toContain('even the deterministic checks');
    expect(estimate({ ...belowCost, cost_guardrail: 'off' })).toMatchObject({ action: 'proceed_unsafe', margin_safe: false });
  });

  describe('cost guardrail with AI review that breaks the margin', () => {
    const request = { plan_id: 'creator', minutes: 10, profile: 'generic_creator_video', ai_review_seconds: 600 } as const;
    const gates = PIPELINE_PROFILES.generic_creator_video.gates;

    it('downgrade (the default) drops the AI review and keeps the deterministic checks', () => {
      const out = estimate(request);
      expect(out).toMatchObject({ action: 'downgraded', margin_safe: true, removed_checks: [AI_REVIEW_CHECK], effective_checks: gates });
      expect(out.cost_estimate).toMatchObject({ withinBudget: false, marginSafe: true, modelBackedChecks: [], modelCheckCents: 0 });
      expect(out.cost_estimate.estimatedCogsUsd).toBeCloseTo(10 * COST_RATES.deterministicUsdPerMediaMinute, 6);
    });

    it('block refuses the job; the door raises cost_guardrail_blocked with status 422', () => {
      const out = estimate({ ...request, cost_guardrail: 'block' });
      expect(out).toMatchObject({ action: 'blocked', margin_safe: false, removed_checks: [], effective_checks: [...gates, AI_REVIEW_CHECK] });
      expect(out.cost_estimate).toMatchObject({ withinBudget: false, marginSafe: false, modelBackedChecks: [AI_REVIEW_CHECK], modelCheckCents: 30 });
      expect(out.explanation).toContain(`at most ${out.cost_estimate.maxAiReviewSecondsAtMargin} s`);
      const error = costGuardrailBlockedError(out);
      expect(error).toMatchObject({ code: 'cost_guardrail_blocked', status: 422 });
    });

    it('off runs it anyway, below the margin target', () => {
      const out = estimate({ ...request, cost_guardrail: 'off' });
      expect(out).toMatchObject({ action: 'proceed_unsafe', margin_safe: false, removed_checks: [], effective_checks: [...gates, AI_REVIEW_CHECK] });
      expect(out.cost_estimate).toMatchObject({ withinBudget: false, marginSafe: false, modelBackedChecks: [AI_REVIEW_CHECK], modelCheckCents: 30 });
      expect(out.cost_estimate.estimatedCogsUsd).toBeCloseTo(10 * COST_RATES.deterministicUsdPerMediaMinute + 0.3, 6);
    });
  });

  it('keeps the margin at exactly maxAiReviewSecondsAtMargin seconds and loses it one second later, on every plan', () => {
    for (const planId of PLAN_IDS) {
      for (const minutes of [1, 10, 90]) {
        const base = { plan_id: planId, minutes, cost_guardrail: 'block' } as const;
        const max = estimate(base).cost_estimate.maxAiReviewSecondsAtMargin;
        expect(max, `${planId} ${minutes} min`).toBeGreaterThanOrEqual(0);
        if (max > 0) {
          const atMax = estimate({ ...base, ai_review_seconds: max });
          expect(atMax, `${planId} ${minutes} min at ${max} s`).toMatchObject({ action: 'proceed', margin_safe: true });
          expect(atMax.cost_estimate.modelBackedChecks).toEqual([AI_REVIEW_CHECK]);
          expect(atMax.cost_estimate.estimatedCogsUsd).toBeLessThanOrEqual(atMax.cost_estimate.grossMarginBudgetUsd);
        }
        expect(estimate({ ...base, ai_review_seconds: max + 1 }), `${planId} ${minutes} min at ${max + 1} s`).toMatchObject({ action: 'blocked' });
      }
    }
    expect(estimate({ plan_id: 'creator', minutes: 10 }).cost_estimate.maxAiReviewSecondsAtMargin).toBe(17);
  });

  it('prices the profile default gates, auto as generic_creator_video, and explicit checks instead', () => {
    const auto = estimate({});
    expect(auto.effective_checks).toEqual(PIPELINE_PROFILES.generic_creator_video.gates);
    expect(auto.explanation).toContain('auto without media: priced as generic_creator_video');
    expect(estimate({ profile: 'shorts' }).effective_checks).toEqual(PIPELINE_PROFILES.nto_shorts.gates);
    expect(estimate({ profile: 'thumbnail' }).effective_checks).toEqual(PIPELINE_PROFILES.creator_thumbnail.gates);
    expect(estimate({ profile: 'nto_long_form' }).effective_checks).toEqual(PIPELINE_PROFILES.nto_long_form.gates);
    // A delivery profile keeps the pipeline auto infers from the media: without media, priced as auto.
    expect(estimate({ profile: 'broadcast_r128' }).effective_checks).toEqual(PIPELINE_PROFILES.generic_creator_video.gates);
    expect(estimate({ profile: 'audio', checks: ' loudness, clipping ,loudness' }).effective_checks).toEqual(['loudness', 'clipping']);
  });

  it('refuses unknown checks with a ServiceError that lists the valid names', () => {
    const error = thrown(() => estimateCost({ checks: 'loudness,ai_review,sparkle' }));
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ code: 'invalid_checks', status: 400 });
    const message = (error as ServiceError).message;
    expect(message).toContain('Unknown checks: ai_review, sparkle.');
    expect(message).toContain(`Valid checks: ${GATE_IDS.join(', ')}.`);
  });

  it('refuses invalid input and unknown plans with status 400', () => {
    expect(thrown(() => estimateCost({ ai_review_seconds: -1 }))).toMatchObject({ code: 'invalid_estimate_input', status: 400 });
    expect(thrown(() => estimateCost({ cost_guardrail: 'maybe' as 'off' }))).toMatchObject({ code: 'invalid_estimate_input', status: 400 });
    expect(thrown(() => estimateCost({ plan_id: 'gold' }))).toMatchObject({ code: 'invalid_plan', status: 400 });
  });
});
