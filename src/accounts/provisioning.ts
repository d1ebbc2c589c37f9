// Checkout provisioning (docs/accounts.md "Checkout provisioning"): one workspace key per provisioning id, with
// the plan's economics applied server-side. The raw key is returned on the first call only.
import type { z } from 'zod';
import { PLANS } from '../billing/plans.js';
import { ServiceError } from '../errors.js';
import type { Principal } from '../service.js';
import type { ApiKeyRecord } from '../store/records.js';
import type { AccountsContext } from './context.js';
import { randomId } from './ids.js';
import { issueKey, SHOW_ONCE_WARNING, toPublicKey } from './key-records.js';
import { parseInput } from './parse-input.js';
import { ProvisionInputSchema, type ProvisionInput, type ProvisionOutput } from './schemas.js';
import { grantScopes, requireScope } from './scopes.js';
import { accountOf, type WorkspaceAccount } from './workspace-account.js';

type ParsedProvisionInput = z.output<typeof ProvisionInputSchema>;

export const REPLAY_WARNING =
  'Idempotent replay: this provisioning id already has a key, and its secret is never shown again. If it was lost, revoke the key and provision with a new provisioning_id.';

/** `<plan>:sub:<subscription>`, else `:cus:<customer>`, else `:ws:<workspace>`, else `:email:<owner>`. */
export function defaultProvisioningId(input: ParsedProvisionInput, workspaceId: string | undefined): string {
  if (input.checkout_subscription_id) return `${input.plan_id}:sub:${input.checkout_subscription_id}`;
  if (input.checkout_customer_id) return `${input.plan_id}:cus:${input.checkout_customer_id}`;
  if (workspaceId) return `${input.plan_id}:ws:${workspaceId}`;
  return `${input.plan_id}:email:${input.owner_email.toLowerCase()}`;
}

function checkoutTerms(input: ParsedProvisionInput): WorkspaceAccount {
  const plan = PLANS[input.plan_id];
  return {
    workspaceId: input.workspace_id ?? randomId('ws'),
    ownerEmail: input.owner_email,
    planId: plan.id,
    includedMinutes: plan.includedMinutes,
    planPriceCents: plan.priceCents,
    overageCapCents: input.overage_cap_cents ?? null,
  };
}

/**
 * The id a provisioning is stored under. A workspace key's ids live in its own namespace (`ws:<workspace>:`), so it
 * can never take, or replay, an id a checkout or an operator will use for another customer.
 */
export function namespacedProvisioningId(id: string, pinnedWorkspace: string | null): string {
  return pinnedWorkspace === null ? id : `ws:${pinnedWorkspace}:${id}`;
}

/** A provisioning id belongs to one workspace: replaying it for another is a conflict, never that workspace's record. */
function replay(existing: ApiKeyRecord, workspaceId: string | undefined): ProvisionOutput {
  if (workspaceId !== undefined && existing.workspaceId !== workspaceId) {
    throw new ServiceError(
      'provisioning_conflict',
      'This provisioning_id belongs to another workspace; choose another.',
      { provisioningId: existing.provisioningId },
      409,
    );
  }
  return { apiKey: null, key: toPublicKey(existing), idempotentReplay: true, warning: REPLAY_WARNING };
}

/** 201 when `idempotentReplay` is false, 200 for a replay. */
export async function provisionCheckout(ctx: AccountsContext, principal: Principal, body: ProvisionInput | undefined): Promise<ProvisionOutput> {
  requireScope(principal, 'api_keys:write');
  const input = parseInput(ProvisionInputSchema, body, 'invalid_provisioning', 'provisioning request');
  // Workspace keys are pinned as for key creation: their own workspace, owner, economics and cap.
  const pinned = principal.operator ? null : accountOf(await ctx.db.keys.list(principal.workspaceId), principal);
  const workspaceId = pinned?.workspaceId ?? input.workspace_id;
  const provisioningId = namespacedProvisioningId(input.provisioning_id ?? defaultProvisioningId(input, workspaceId), pinned?.workspaceId ?? null);
  const existing = await ctx.db.keys.findByProvisioningId(provisioningId);
  if (existing) return replay(existing, workspaceId);

  const { raw, record } = issueKey(
    {
      ...(pinned ?? checkoutTerms(input)),
      name: `${PLANS[input.plan_id].label} plan (checkout)`,
      scopes: grantScopes(principal, undefined),
      provisioningId,
      checkoutCustomerId: input.checkout_customer_id ?? null,
      checkoutSubscriptionId: input.checkout_subscription_id ?? null,
    },
    ctx.now(),
  );
  try {
    await ctx.db.keys.insert(record);
  } catch (err) {
    // Provisioning ids are unique in the table: of two concurrent calls with one id, the second replays the first's key.
    const winner = await ctx.db.keys.findByProvisioningId(provisioningId);
    if (winner) return replay(winner, workspaceId);
    throw err;
  }
  return { apiKey: raw, key: toPublicKey(record), idempotentReplay: false, warning: SHOW_ONCE_WARNING };
}
