// Bearer authentication: the raw key is hashed and compared in constant time with the stored hashes of its prefix.
import type { ApiKeyRecord } from '../store/records.js';
import type { AccountsContext } from './context.js';
import { principalFromKey, type KeyPrincipal } from './principal.js';
import { bearerToken, sameHexDigest, sha256Hex, tokenPrefixOf } from './tokens.js';

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The key of a token: looked up by the SHA-256 of the whole token (the index never sees the token itself), then its
 * prefix and digest compared in constant time.
 */
async function findKey(ctx: AccountsContext, token: string): Promise<ApiKeyRecord | null> {
  const digest = sha256Hex(token);
  const key = await ctx.db.keys.findByTokenSha256(digest);
  return key && key.tokenPrefix === tokenPrefixOf(token) && sameHexDigest(key.tokenSha256, digest) ? key : null;
}

/** Records use at most once a minute, so a busy key does not write on every request. */
async function touch(ctx: AccountsContext, key: ApiKeyRecord): Promise<void> {
  const now = ctx.now();
  if (key.lastUsedAt && now.getTime() - Date.parse(key.lastUsedAt) < LAST_USED_RESOLUTION_MS) return;
  key.lastUsedAt = now.toISOString();
  // Best effort: a failed write only loses a last-used time.
  await ctx.db.keys.touch(key.keyId, now).catch(() => {});
}

/** The principal of an active key, or null for a missing, unknown or revoked one. Accepts `Bearer <key>` too. */
export async function authenticate(ctx: AccountsContext, bearer: string | undefined): Promise<KeyPrincipal | null> {
  const token = bearerToken(bearer);
  if (!token) return null;
  const key = await findKey(ctx, token);
  if (!key?.active) return null;
  await touch(ctx, key);
  return principalFromKey(key);
}
