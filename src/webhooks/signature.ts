// The delivery signature (docs/webhooks.md "Signature"): X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">,
// keyed with the whole secret string (including its `whsec_` prefix) as UTF-8.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const DEFAULT_TOLERANCE_SECONDS = 300;

function hmacHex(secret: string, timestamp: number, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

export function signatureHeaderValue(body: string, secret: string, timestamp: number): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`;
}

interface ParsedHeader {
  timestamp: number;
  v1: string[];
}

function parseHeader(header: string): ParsedHeader | null {
  let timestamp: number | null = null;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) v1.push(value.toLowerCase());
  }
  return timestamp === null || v1.length === 0 ? null : { timestamp, v1 };
}

/**
 * True when `header` carries a `v1` HMAC of `<t>.<body>` under `secret` and `t` is within `toleranceSeconds` of now.
 * `body` must be the raw request body, byte for byte, not re-serialised JSON.
 */
export function verifySignatureHeader(
  header: string | null | undefined,
  body: string | Buffer,
  secret: string,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const parsed = header ? parseHeader(header) : null;
  if (!parsed || Math.abs(nowSeconds - parsed.timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(hmacHex(secret, parsed.timestamp, body), 'hex');
  return parsed.v1.some((candidate) => timingSafeEqual(expected, Buffer.from(candidate, 'hex')));
}
