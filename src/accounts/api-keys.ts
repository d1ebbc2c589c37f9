// Creating, listing and revoking API keys (docs/accounts.md "Creating, listing, revoking"), with workspace pinning.
import type { z } from 'zod';
import { ServiceError } from '../errors.js';
import type { Principal } from '../service.js';
import type { ApiKeyRecord } from '../store/records.js';
import type { AccountsContext } from './context.js';
import { randomId } from './ids.js';
import { issueKey, SHOW_ONCE_WARNING, toPublicKey, type NewKeyFields } from './key-records.js';
import { parseInput } from './parse-input.js';
import { pinnedWorkspace } from './principal.js';
import {
  CreateApiKeyInputSchema,
  ListApiKeysQuerySchema,
  type ApiKeyRecordPublic,
  type CreateApiKeyInput,
  type CreateApiKeyOutput,
  type ListApiKeysQuery,
} from './schemas.js';
import { grantScopes, OPERATOR_SCOPE, requireScope } from './scopes.js';
import { accountOf, workspaceAccount } from './workspace-account.js';

type ParsedCreateInput = z.output<typeof CreateApiKeyInputSchema>;

const DEFAULT_KEY_NAME = 'API key';

/** An operator's key: what it supplies, else the target workspace's existing terms, else none (free tier). */
function operatorKeyFields(keys: readonly ApiKeyRecord[], input: ParsedCreateInput): Omit<NewKeyFields, 'name' | 'scopes'> {
  const existing = input.workspace_id ? workspaceAccount(keys, input.workspace_id) : null;
  return {
    workspaceId: input.workspace_id ?? randomId('ws'),
    ownerEmail: input.owner_email ?? existing?.ownerEmail ?? null,
    planId: input.plan_id ?? existing?.planId ?? null,
    includedMinutes: input.included_minutes ?? existing?.includedMinutes ?? null,
    planPriceCents: input.plan_price_cents ?? existing?.planPriceCents ?? null,
    overageCapCents: input.overage_cap_cents ?? existing?.overageCapCents ?? null,
  };
}

export async function createApiKey(ctx: AccountsContext, principal: Principal, body: CreateApiKeyInput | undefined): Promise<CreateApiKeyOutput> {
  requireScope(principal, 'api_keys:write');
  const input = parseInput(CreateApiKeyInputSchema, body, 'invalid_api_key_request', 'API key request');
  const terms = principal.operator
    ? operatorKeyFields(input.workspace_id ? await ctx.db.keys.list(input.workspace_id) : [], input)
    : accountOf(await ctx.db.keys.list(principal.workspaceId), principal);
  const scopes = grantScopes(principal, input.scopes);
  const { raw, record } = issueKey({ ...terms, name: input.name ?? DEFAULT_KEY_NAME, scopes }, ctx.now());
  await ctx.db.keys.insert(record);
  return { apiKey: raw, key: toPublicKey(record), warning: SHOW_ONCE_WARNING };
}

export async function listApiKeys(ctx: AccountsContext, principal: Principal, query: ListApiKeysQuery = {}): Promise<{ keys: ApiKeyRecordPublic[] }> {
  requireScope(principal, 'api_keys:read');
  const { workspace_id } = parseInput(ListApiKeysQuerySchema, query, 'invalid_query', 'query');
  const workspaceId = pinnedWorkspace(principal, workspace_id);
  const keys = await ctx.db.keys.list(workspaceId);
  return { keys: keys.map(toPublicKey) };
}

const isActiveOperatorKey = (k: ApiKeyRecord) => k.active && k.scopes.includes(OPERATOR_SCOPE);

export async function revokeApiKey(ctx: AccountsContext, principal: Principal, keyId: string): Promise<{ key: ApiKeyRecordPublic }> {
  requireScope(principal, 'api_keys:write');
  const found = await ctx.db.keys.get(keyId);
  const key = found && (principal.operator || found.workspaceId === principal.workspaceId) ? found : null;
  if (!key) throw new ServiceError('api_key_not_found', `No API key ${keyId}.`, { keyId }, 404);
  // The server refuses to start without a way in, so the last operator key is not revoked from inside.
  if (isActiveOperatorKey(key) && (await ctx.db.keys.countActiveWithScope(OPERATOR_SCOPE)) === 1) {
    throw new ServiceError('last_operator_key', 'This is the last active operator key: create another operator key before revoking it.', { keyId }, 409);
  }
  if (!key.active) return { key: toPublicKey(key) };
  const revoked = await ctx.db.keys.update(keyId, (k) => {
    k.active = false;
  });
  return { key: toPublicKey(revoked ?? { ...key, active: false }) };
}
