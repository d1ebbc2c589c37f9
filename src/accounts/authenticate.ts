// Bearer authentication: the raw key is hashed and compared in constant time with the stored hashes of its prefix.
import type { ApiKeyRecord } from '../store/records.js';
import type { AccountsContext } from './context.js';
import { principalFromKey, type KeyPrincipal } from './principal.js';
import { bearerToken, sameHexDigest, sha256Hex, tokenPrefixOf } from './tokens.js';

const LAST_USED_RESOLUTION_MS = 60_000;

function findKey(keys: readonly ApiKeyRecord[], token: string): ApiKeyRecord | null {
  const prefix = tokenPrefixOf(token);
  const digest = sha256Hex(token);
  let match: ApiKeyRecord | null = null;
  // No early exit: every candidate is compared, so timing does not tell which one matched.
  for (const key of keys) {
    if (key.tokenPrefix === prefix && sameHexDigest(key.tokenSha256, digest)) match = key;
  }
  return match;
}

/** Records use at most once a minute, so a busy key does not rewrite the store on every request. */
function touch(ctx: AccountsContext, key: ApiKeyRecord): void {
  const now = ctx.now();
  if (key.lastUsedAt && now.getTime() - Date.parse(key.lastUsedAt) < LAST_USED_RESOLUTION_MS) return;
  key.lastUsedAt = now.toISOString();
  // Best effort: the record is already updated in memory and the next write of the store persists it anyway.
  ctx.store.update(() => {}).catch(() => {});
}

/** The principal of an active key, or null for a missing, unknown or revoked one. Accepts `Bearer <key>` too. */
export function authenticate(ctx: AccountsContext, bearer: string | undefined): KeyPrincipal | null {
  const token = bearerToken(bearer);
  if (!token) return null;
  const key = findKey(ctx.store.data.apiKeys, token);
  if (!key?.active) return null;
  touch(ctx, key);
  return principalFromKey(key);
}
