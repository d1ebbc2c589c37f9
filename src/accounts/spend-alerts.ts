// Spend alerts (docs/accounts.md "Spend alerts"): when a period's overage revenue crosses the plan's subscription price, one alert
// per workspace and period is recorded and emailed to the owner (`sent`, `failed`, or `skipped` without SMTP).
import { overageCents, spendAlertDue } from '../billing/ledger.js';
import type { Plan } from '../billing/plans.js';
import type { Principal } from '../service.js';
import type { SpendAlertRecord } from '../store/records.js';
import type { AccountsContext } from './context.js';
import { randomId } from './ids.js';
import { sendMail } from './mailer.js';
import { mediaCogsCents } from './media-cogs.js';
import { parseInput } from './parse-input.js';
import { pinnedWorkspace } from './principal.js';
import { WorkspaceListQuerySchema, type SpendAlert, type WorkspaceListQuery } from './schemas.js';
import { requireScope } from './scopes.js';
import { accountOf, accountPlan, type WorkspaceAccount } from './workspace-account.js';

export interface UsageChange {
  /** Minutes charged in the period before and after the usage just recorded. */
  minutesBefore: number;
  minutesAfter: number;
  billingPeriod: string;
}

const DEFAULT_LIST_LIMIT = 50;
const usd = (cents: number) => `${(cents / 100).toFixed(2)} USD`;

function alertEmail(account: WorkspaceAccount, plan: Plan, change: UsageChange, overageRevenueCents: number): { subject: string; text: string } {
  return {
    subject: `Preflight spend alert: extra minutes reached your ${plan.label} plan price (${change.billingPeriod})`,
    text: [
      `Workspace ${account.workspaceId}, billing period ${change.billingPeriod}.`,
      `Minutes used: ${change.minutesAfter} of ${plan.includedMinutes} included.`,
      `Extra-minute spend: ${usd(overageRevenueCents)} at ${plan.overageRateCentsPerMinute} ¢/min, which reaches your subscription price of ${usd(plan.priceCents)}.`,
      `Approved overage cap: ${account.overageCapCents === null ? 'none' : usd(account.overageCapCents)} per month; checks beyond it are refused.`,
      'This is the only alert for this period.',
    ].join('\n'),
  };
}


/** Call after a usage entry is recorded. Returns the alert when this usage crossed the threshold, else null. */
export async function afterUsage(ctx: AccountsContext, principal: Principal, change: UsageChange): Promise<SpendAlertRecord | null> {
  const account = accountOf(await ctx.db.keys.list(principal.workspaceId), principal);
  const plan = accountPlan(account);
  const overageBefore = overageCents(plan, change.minutesBefore);
  const overageAfter = overageCents(plan, change.minutesAfter);
  if (!spendAlertDue(plan, overageBefore, overageAfter)) return null;

  const claim = `${account.workspaceId}\n${change.billingPeriod}`;
  if (ctx.alertsInFlight.has(claim)) return null;
  ctx.alertsInFlight.add(claim);
  try {
    if (await ctx.db.spendAlerts.alreadyAlerted(account.workspaceId, change.billingPeriod)) return null;
    const email = alertEmail(account, plan, change, overageAfter);
    const outcome = await sendMail(ctx.mailer, account.ownerEmail, email.subject, email.text);
    const alert: SpendAlertRecord = {
      alertId: randomId('alert'),
      createdAt: ctx.now().toISOString(),
      workspaceId: account.workspaceId,
      ownerEmail: account.ownerEmail,
      planId: plan.id,
      billingPeriod: change.billingPeriod,
      minutesUsed: change.minutesAfter,
      includedMinutes: plan.includedMinutes,
      planPriceCents: plan.priceCents,
      overageRevenueCents: overageAfter,
      overageRateCentsPerMinute: plan.overageRateCentsPerMinute,
      overageCostCents: mediaCogsCents(Math.max(0, change.minutesAfter - plan.includedMinutes)),
      observedTotalCogsCents: mediaCogsCents(await ctx.db.usage.mediaMinutes(account.workspaceId, change.billingPeriod)),
      ...outcome,
    };
    await ctx.db.spendAlerts.insert(alert);
    return alert;
  } finally {
    ctx.alertsInFlight.delete(claim);
  }
}

export async function listSpendAlerts(ctx: AccountsContext, principal: Principal, query: WorkspaceListQuery = {}): Promise<{ spendAlerts: SpendAlert[] }> {
  requireScope(principal, 'api_keys:read');
  const { workspace_id, limit = DEFAULT_LIST_LIMIT } = parseInput(WorkspaceListQuerySchema, query, 'invalid_query', 'query');
  const workspaceId = pinnedWorkspace(principal, workspace_id);
  const alerts = await ctx.db.spendAlerts.list(workspaceId);
  return { spendAlerts: alerts.slice(-limit).reverse().map((a) => ({ ...a })) };
}
