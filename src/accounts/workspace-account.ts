// The commercial terms a workspace runs on (owner, plan, custom economics, overage cap), as carried by its keys.
import { planById, withCustomEconomics, type Plan } from '../billing/plans.js';
import type { Principal } from '../service.js';
import type { ApiKeyRecord } from '../store/records.js';

export interface WorkspaceAccount {
  workspaceId: string;
  ownerEmail: string | null;
  planId: string | null;
  includedMinutes: number | null;
  planPriceCents: number | null;
  overageCapCents: number | null;
}

function termsOf(key: ApiKeyRecord): WorkspaceAccount {
  const { workspaceId, ownerEmail, planId, includedMinutes, planPriceCents, overageCapCents } = key;
  return { workspaceId, ownerEmail, planId, includedMinutes, planPriceCents, overageCapCents };
}

/** The workspace's newest active key speaks for it (the newest key of any state when none is active). */
export function workspaceAccount(keys: readonly ApiKeyRecord[], workspaceId: string): WorkspaceAccount | null {
  const own = keys.filter((k) => k.workspaceId === workspaceId);
  const newest = (list: ApiKeyRecord[]) => list.reduce<ApiKeyRecord | null>((a, k) => (!a || k.createdAt >= a.createdAt ? k : a), null);
  const key = newest(own.filter((k) => k.active)) ?? newest(own);
  return key ? termsOf(key) : null;
}

/**
 * The caller's terms: its workspace's (the newest active key speaks for it), else what the principal carries (a
 * principal without stored keys: the local door, tests). The one source of a workspace's economics: estimates, job
 * prices, usage limits, ledger entries, spend alerts and margins all read it.
 */
export function accountOf(keys: readonly ApiKeyRecord[], principal: Principal): WorkspaceAccount {
  return (
    workspaceAccount(keys, principal.workspaceId) ?? {
      workspaceId: principal.workspaceId,
      ownerEmail: principal.ownerEmail ?? null,
      planId: principal.planId ?? null,
      includedMinutes: principal.includedMinutes ?? null,
      planPriceCents: principal.planPriceCents ?? null,
      overageCapCents: principal.overageCapCents ?? null,
    }
  );
}

/** The plan with the account's custom economics applied; no plan is the free tier. */
export function accountPlan(account: Pick<WorkspaceAccount, 'planId' | 'includedMinutes' | 'planPriceCents'>): Plan {
  return withCustomEconomics(planById(account.planId), { includedMinutes: account.includedMinutes, planPriceCents: account.planPriceCents });
}
