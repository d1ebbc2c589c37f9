// Start-up access: the server never runs open. PREFLIGHT_OPERATOR_KEY registers an operator key, `--bootstrap` creates
// one and shows it once; with neither and no active key the server refuses to start.
import { ServiceError } from '../errors.js';
import { inTransaction } from '../storage/database.js';
import type { AccountsContext } from './context.js';
import { RESERVED_WORKSPACES } from './ids.js';
import { issueKey, newKeyRecord, type NewKeyFields } from './key-records.js';
import { OPERATOR_SCOPE, SCOPES } from './scopes.js';
import { sha256Hex, tokenPrefixOf } from './tokens.js';

export const MIN_OPERATOR_KEY_LENGTH = 32;
export const OPERATOR_WORKSPACE_ID = RESERVED_WORKSPACES.operator;
/** Marks the key registered from the environment, so a changed PREFLIGHT_OPERATOR_KEY retires the previous one. */
export const ENV_OPERATOR_PROVISIONING_ID = 'env:PREFLIGHT_OPERATOR_KEY';

export interface OperatorAccessOptions {
  operatorKeyFromEnv?: string;
  bootstrap: boolean;
}

const START_HINT =
  'Set PREFLIGHT_OPERATOR_KEY to a secret of at least 32 characters (e.g. `openssl rand -base64 32`), or run `preflight serve --bootstrap` once to create an operator key (printed once).';

function operatorFields(name: string, provisioningId: string | null): NewKeyFields {
  return {
    name,
    scopes: [...SCOPES],
    workspaceId: OPERATOR_WORKSPACE_ID,
    ownerEmail: null,
    planId: null,
    includedMinutes: null,
    planPriceCents: null,
    overageCapCents: null,
    provisioningId,
  };
}

async function registerEnvOperatorKey(ctx: AccountsContext, raw: string): Promise<void> {
  if (raw.length < MIN_OPERATOR_KEY_LENGTH) {
    throw new ServiceError('invalid_operator_key', `PREFLIGHT_OPERATOR_KEY must be at least ${MIN_OPERATOR_KEY_LENGTH} characters. ${START_HINT}`, {}, 503);
  }
  const digest = sha256Hex(raw);
  const current = await ctx.db.keys.findByTokenSha256(digest);
  const previous = current?.provisioningId === ENV_OPERATOR_PROVISIONING_ID ? null : await ctx.db.keys.findByProvisioningId(ENV_OPERATOR_PROVISIONING_ID);
  await inTransaction(ctx.db, async (tx) => {
    // Provisioning ids are unique: the key of an earlier PREFLIGHT_OPERATOR_KEY is retired and gives up the id.
    if (previous && previous.keyId !== current?.keyId) {
      await tx.keys.update(previous.keyId, (k) => {
        k.active = false;
        k.provisioningId = `${ENV_OPERATOR_PROVISIONING_ID}:retired:${k.keyId}`;
      });
    }
    // The environment is the source of truth: its key is active and an operator key whatever happened to it before.
    if (current) {
      await tx.keys.update(current.keyId, (k) => {
        k.active = true;
        if (!k.scopes.includes(OPERATOR_SCOPE)) k.scopes.push(OPERATOR_SCOPE);
      });
      return;
    }
    const fields = operatorFields('Operator key (PREFLIGHT_OPERATOR_KEY)', ENV_OPERATOR_PROVISIONING_ID);
    await tx.keys.insert(newKeyRecord(fields, ctx.now(), { tokenPrefix: tokenPrefixOf(raw), tokenSha256: digest }));
  });
}

/**
 * Makes sure the server can be reached by someone, before it starts. Returns the raw key `--bootstrap` created (print
 * it once); `--bootstrap` on a data dir that already has an active operator key creates nothing.
 */
export async function ensureOperatorAccess(ctx: AccountsContext, options: OperatorAccessOptions): Promise<{ created?: string }> {
  if (options.operatorKeyFromEnv) await registerEnvOperatorKey(ctx, options.operatorKeyFromEnv);
  if (options.bootstrap && (await ctx.db.keys.countActiveWithScope(OPERATOR_SCOPE)) === 0) {
    const { raw, record } = issueKey(operatorFields('Operator key (bootstrap)', null), ctx.now());
    await ctx.db.keys.insert(record);
    return { created: raw };
  }
  if (!(await ctx.db.keys.anyActive())) {
    throw new ServiceError('no_auth_configured', `No way to authenticate: there is no active API key. ${START_HINT}`, {}, 503);
  }
  return {};
}
