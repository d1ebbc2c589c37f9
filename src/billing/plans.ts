// Plans as data (docs/billing.md "Plans"). Overage rates and abuse limits are our decisions, documented there too.
import { ServiceError } from '../errors.js';

/** The pay-per-use list price, also the reference price of a free or zero-priced minute. */
export const PAY_PER_USE_CENTS_PER_MINUTE = 4.2;

export interface AbuseLimits {
  /** Longest media a single job may check. */
  maxDurationMinutes: number;
  maxUploadMb: number;
  /** Jobs queued or running at the same time in one workspace. */
  maxActiveJobs: number;
}

export interface Plan {
  id: string;
  label: string;
  /** Subscription price per month; 0 for free and pay-per-use. */
  priceCents: number;
  includedMinutes: number;
  /** Price of a minute beyond the included ones, charged only up to the workspace's `overage_cap_cents`. */
  overageRateCentsPerMinute: number;
  limits: AbuseLimits;
}

const FREE_LIMITS: AbuseLimits = { maxDurationMinutes: 60, maxUploadMb: 2048, maxActiveJobs: 2 };
const CREATOR_LIMITS: AbuseLimits = { maxDurationMinutes: 120, maxUploadMb: 8192, maxActiveJobs: 3 };
const STUDIO_LIMITS: AbuseLimits = { maxDurationMinutes: 240, maxUploadMb: 16384, maxActiveJobs: 5 };
const NETWORK_LIMITS: AbuseLimits = { maxDurationMinutes: 360, maxUploadMb: 20480, maxActiveJobs: 10 };

// Overage rates are each subscription's own effective per-minute price (price / included minutes), rounded up to a
// hundredth of a cent: an extra minute costs what an included one does. Free and pay-per-use extra minutes are
// charged at the pay-per-use list price. A test keeps these in step with the prices.
export const PLANS = {
  free: {
    id: 'free',
    label: 'Free tier',
    priceCents: 0,
    includedMinutes: 200,
    overageRateCentsPerMinute: PAY_PER_USE_CENTS_PER_MINUTE,
    limits: FREE_LIMITS,
  },
  pay_per_use: {
    id: 'pay_per_use',
    label: 'Pay per use',
    priceCents: 0,
    includedMinutes: 0,
    overageRateCentsPerMinute: PAY_PER_USE_CENTS_PER_MINUTE,
    limits: CREATOR_LIMITS,
  },
  creator: {
    id: 'creator',
    label: 'Creator',
    priceCents: 9900,
    includedMinutes: 3000,
    overageRateCentsPerMinute: 3.3,
    limits: CREATOR_LIMITS,
  },
  studio: {
    id: 'studio',
    label: 'Studio',
    priceCents: 29900,
    includedMinutes: 10000,
    overageRateCentsPerMinute: 2.99,
    limits: STUDIO_LIMITS,
  },
  network: {
    id: 'network',
    label: 'Network',
    priceCents: 89900,
    includedMinutes: 35000,
    overageRateCentsPerMinute: 2.57,
    limits: NETWORK_LIMITS,
  },
  stress_99_5000: {
    id: 'stress_99_5000',
    label: 'Stress preset (99 USD, 5000 minutes)',
    priceCents: 9900,
    includedMinutes: 5000,
    overageRateCentsPerMinute: 1.98,
    limits: CREATOR_LIMITS,
  },
} as const satisfies Record<string, Plan>;

export type PlanId = keyof typeof PLANS;
export const PLAN_IDS = Object.keys(PLANS) as [PlanId, ...PlanId[]];

/** A workspace without a plan is on the free tier. */
export const DEFAULT_PLAN_ID: PlanId = 'free';

/** Plans a checkout can sell (docs/accounts.md "Checkout provisioning"). */
export const CHECKOUT_PLAN_IDS = ['creator', 'studio', 'network'] as const satisfies readonly PlanId[];

export function isPlanId(id: string): id is PlanId {
  return Object.hasOwn(PLANS, id);
}

export function planById(id: string | null | undefined): Plan {
  const planId = id ?? DEFAULT_PLAN_ID;
  if (!isPlanId(planId)) {
    throw new ServiceError('invalid_plan', `Unknown plan "${planId}". Valid plans: ${PLAN_IDS.join(', ')}.`, { valid: PLAN_IDS });
  }
  return PLANS[planId];
}

export interface CustomEconomics {
  planPriceCents?: number | null;
  includedMinutes?: number | null;
}

/**
 * A plan with custom economics applied (`plan_price_cents`, `included_minutes`: docs/billing.md "Plans"). Each supplied value
 * overrides the plan's; the overage rate follows the resulting effective per-minute price.
 */
export function withCustomEconomics(plan: Plan, custom: CustomEconomics): Plan {
  const priceCents = custom.planPriceCents ?? plan.priceCents;
  const includedMinutes = custom.includedMinutes ?? plan.includedMinutes;
  if (priceCents === plan.priceCents && includedMinutes === plan.includedMinutes) return plan;
  const effective = effectiveCentsPerMinute({ priceCents, includedMinutes });
  return { ...plan, priceCents, includedMinutes, overageRateCentsPerMinute: Math.ceil(effective * 100 - 1e-9) / 100 };
}

/**
 * What one checked minute is worth: the subscription price over its included minutes, or the pay-per-use list
 * price when the plan has no price or no included minutes (free minutes are a discount on the list price).
 */
export function effectiveCentsPerMinute(plan: Pick<Plan, 'priceCents' | 'includedMinutes'>): number {
  if (plan.priceCents > 0 && plan.includedMinutes > 0) return plan.priceCents / plan.includedMinutes;
  return PAY_PER_USE_CENTS_PER_MINUTE;
}
