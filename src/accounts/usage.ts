// The usage ledger as callers see it (pinned to their workspace) and the operator's per-workspace margins.
import { COST_BASIS_VERSION } from '../billing/cost-basis.js';
import { billingPeriodOf, overageCents, type UsageEntry } from '../billing/ledger.js';
import { ServiceError } from '../errors.js';
import type { Principal } from '../service.js';
import type { ApiKeyRecord } from '../store/records.js';
import type { AccountsContext } from './context.js';
import { COGS_CENTS_PER_MEDIA_MINUTE, mediaCogsCents, roundTo } from './media-cogs.js';
import { parseInput } from './parse-input.js';
import { pinnedWorkspace } from './principal.js';
import { MarginsQuerySchema, UsageQuerySchema, type MarginsOutput, type MarginsQuery, type UsageOutput, type UsageQuery, type WorkspaceMargin } from './schemas.js';
import { requireScope } from './scopes.js';
import { accountPlan, workspaceAccount } from './workspace-account.js';

const DEFAULT_LIST_LIMIT = 50;

export async function listUsage(ctx: AccountsContext, principal: Principal, query: UsageQuery = {}): Promise<UsageOutput> {
  requireScope(principal, 'jobs:read');
  const { limit = DEFAULT_LIST_LIMIT, billing_period } = parseInput(UsageQuerySchema, query, 'invalid_query', 'query');
  const workspaceId = pinnedWorkspace(principal, undefined);
  const billingPeriod = billing_period ?? billingPeriodOf(ctx.now());
  const entries = await ctx.db.usage.latest({ workspaceId, limit });
  const minutesMetered = await ctx.db.usage.totalMinutes({ billingPeriod, workspaceId });
  return { entries, totals: { billingPeriod, minutesMetered } };
}

const grossMarginPct = (revenueCents: number, cogsCents: number) => (revenueCents > 0 ? roundTo(((revenueCents - cogsCents) / revenueCents) * 100, 2) : null);

/** Workspaces that earn or cost something in the period: any usage, or an active paid key from before its end. */
function workspacesOfPeriod(entries: readonly UsageEntry[], keys: readonly ApiKeyRecord[], period: string): string[] {
  const ids = new Set(entries.map((e) => e.workspaceId));
  for (const k of keys) if (k.active && (k.planPriceCents ?? 0) > 0 && k.createdAt.slice(0, 7) <= period) ids.add(k.workspaceId);
  return [...ids];
}

function workspaceMargin(workspaceId: string, entries: readonly UsageEntry[], keys: readonly ApiKeyRecord[]): WorkspaceMargin {
  const own = entries.filter((e) => e.workspaceId === workspaceId);
  const plan = accountPlan(workspaceAccount(keys, workspaceId) ?? { planId: null, includedMinutes: null, planPriceCents: null });
  const minutesMetered = own.reduce((sum, e) => sum + e.minutesMetered, 0);
  const mediaMinutes = own.reduce((sum, e) => sum + e.mediaMinutes, 0);
  const overageRevenueCents = overageCents(plan, minutesMetered);
  const revenueCents = plan.priceCents + overageRevenueCents;
  const cogsCents = mediaCogsCents(mediaMinutes);
  return {
    workspaceId,
    planId: plan.id,
    planPriceCents: plan.priceCents,
    includedMinutes: plan.includedMinutes,
    minutesMetered,
    mediaMinutes,
    overageRevenueCents,
    revenueCents,
    cogsCents,
    grossMarginPct: grossMarginPct(revenueCents, cogsCents),
  };
}

/** Owner/operator economics of a billing period; 403 for workspace keys. */
export async function margins(ctx: AccountsContext, principal: Principal, query: MarginsQuery = {}): Promise<MarginsOutput> {
  if (!principal.operator) {
    throw new ServiceError('insufficient_scope', 'Margins are operator economics: this needs an operator key (scope "operator").', { requiredScope: 'operator' }, 403);
  }
  const { limit = DEFAULT_LIST_LIMIT, billing_period } = parseInput(MarginsQuerySchema, query, 'invalid_query', 'query');
  const billingPeriod = billing_period ?? billingPeriodOf(ctx.now());
  return marginsOf(await ctx.db.usage.list({ billingPeriod }), await ctx.db.keys.list(), billingPeriod, limit);
}

/** The margins of a period from its ledger entries and every key. */
export function marginsOf(entries: readonly UsageEntry[], keys: readonly ApiKeyRecord[], billingPeriod: string, limit = DEFAULT_LIST_LIMIT): MarginsOutput {
  const all = workspacesOfPeriod(entries, keys, billingPeriod)
    .map((id) => workspaceMargin(id, entries, keys))
    .sort((a, b) => b.revenueCents - a.revenueCents || a.workspaceId.localeCompare(b.workspaceId));
  const revenueCents = all.reduce((sum, w) => sum + w.revenueCents, 0);
  const cogsCents = roundTo(
    all.reduce((sum, w) => sum + w.cogsCents, 0),
    4,
  );
  return {
    billingPeriod,
    costBasisVersion: COST_BASIS_VERSION,
    cogsCentsPerMediaMinute: roundTo(COGS_CENTS_PER_MEDIA_MINUTE, 6),
    workspaces: all.slice(0, limit),
    totals: { revenueCents, cogsCents, grossMarginPct: grossMarginPct(revenueCents, cogsCents) },
  };
}
