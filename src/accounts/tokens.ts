// Raw API keys and their stored form: `prv_<8 hex>_<32 random bytes base64url>`, kept only as SHA-256 hex + the
// `prv_<8 hex>` prefix. Hashes are compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY_PATTERN = /^(prv_[0-9a-f]{8})_[A-Za-z0-9_-]{43}$/;

/** Stored prefix of a key that does not follow our format (an operator key set through the environment). */
export const FOREIGN_KEY_PREFIX = 'env_operator';

export interface NewToken {
  raw: string;
  tokenPrefix: string;
  tokenSha256: string;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export function generateApiKey(): NewToken {
  const tokenPrefix = `prv_${randomBytes(4).toString('hex')}`;
  const raw = `${tokenPrefix}_${randomBytes(32).toString('base64url')}`;
  return { raw, tokenPrefix, tokenSha256: sha256Hex(raw) };
}

/** The prefix a stored key with this raw value carries: never part of a secret that is not ours. */
export function tokenPrefixOf(raw: string): string {
  return KEY_PATTERN.exec(raw)?.[1] ?? FOREIGN_KEY_PREFIX;
}

export function sameHexDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** Accepts a raw key or an `Authorization` header value (`Bearer <key>`). */
export function bearerToken(value: string | undefined): string | null {
  const token = value?.trim().replace(/^bearer\s+/i, '').trim();
  return token ? token : null;
}
