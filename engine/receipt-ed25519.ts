// The public-key half of a receipt: an Ed25519 signature (RFC 8032, Node's own crypto) over the same canonical text
// the HMAC signs, and the issuer's public keys as a JWKS document (RFC 7517, OKP keys per RFC 8037, key ids are
// RFC 7638 thumbprints). Anyone holding the key document verifies offline; no secret is shared.
import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { z } from 'zod';

export const ED25519_SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{86}$/;
export const KEY_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
const ED25519_X_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** A key document is small: a few keys. Anything larger is not one of ours. */
export const MAX_KEY_DOCUMENT_BYTES = 64 * 1024;
export const MAX_KEYS_IN_DOCUMENT = 100;

export const Ed25519ProofSchema = z
  .strictObject({
    kid: z.string().regex(KEY_ID_PATTERN).meta({ description: "Id of the issuer's public key (its RFC 7638 JWK thumbprint)." }),
    signature: z
      .string()
      .regex(ED25519_SIGNATURE_PATTERN)
      .meta({ description: 'Ed25519 signature of the canonical JSON of the signed fields (the text the HMAC signs), base64url without padding.' }),
  })
  .meta({
    description:
      "Public-key signature: verify it with the issuer's key document (preflight receipt-keys, or <issuer>/.well-known/preflight-receipt-keys.json when the issuer is a URL). Never take keys from the receipt itself.",
  });
export type Ed25519Proof = z.infer<typeof Ed25519ProofSchema>;

export const Ed25519PublicJwkSchema = z.object({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string().regex(ED25519_X_PATTERN),
  kid: z.string().regex(KEY_ID_PATTERN),
  alg: z.literal('EdDSA').optional(),
  use: z.literal('sig').optional(),
});
export type Ed25519PublicJwk = z.infer<typeof Ed25519PublicJwkSchema>;

/** The key document: `keys` may hold other key types (ignored); only well-formed Ed25519 keys are used. */
const KeyDocumentSchema = z.object({ keys: z.array(z.unknown()).max(MAX_KEYS_IN_DOCUMENT) });

export interface ReceiptKeyDocument {
  keys: Ed25519PublicJwk[];
}

/** What the issuer publishes: its Ed25519 public keys, current and retired, as a JWKS. */
export function keyDocument(keys: readonly Ed25519PublicJwk[]): ReceiptKeyDocument {
  return { keys: keys.map((k) => ({ kty: k.kty, crv: k.crv, x: k.x, kid: k.kid, alg: 'EdDSA', use: 'sig' })) };
}

/** Reads a key document; throws a plain Error saying what is wrong (the caller names the source). */
export function parseKeyDocument(value: unknown): ReceiptKeyDocument {
  const parsed = KeyDocumentSchema.safeParse(value);
  if (!parsed.success) throw new Error(`not a JWKS key document (an object with a "keys" array of at most ${MAX_KEYS_IN_DOCUMENT} keys)`);
  const keys = parsed.data.keys.flatMap((k) => {
    const key = Ed25519PublicJwkSchema.safeParse(k);
    return key.success && key.data.kid === jwkThumbprint(key.data.x) ? [key.data] : [];
  });
  if (keys.length === 0) throw new Error('the key document holds no Ed25519 key (kty OKP, crv Ed25519, x, and kid equal to its RFC 7638 thumbprint)');
  return { keys };
}

const base64url = (bytes: Buffer): string => bytes.toString('base64url');

/** RFC 7638 thumbprint of an Ed25519 public key: SHA-256 of {"crv","kty","x"} in that order, base64url. */
export function jwkThumbprint(x: string): string {
  return base64url(createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`, 'utf8').digest());
}

/** The public JWK (with its thumbprint as kid) of an Ed25519 private or public key. */
export function publicJwkOf(key: KeyObject): Ed25519PublicJwk {
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('the receipt signing key must be an Ed25519 key');
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  const { x } = publicKey.export({ format: 'jwk' }) as { x: string };
  return { kty: 'OKP', crv: 'Ed25519', x, kid: jwkThumbprint(x), alg: 'EdDSA', use: 'sig' };
}

export interface Ed25519SigningKey {
  kid: string;
  privateKey: KeyObject;
}

export function signEd25519(payload: string, key: Ed25519SigningKey): Ed25519Proof {
  return { kid: key.kid, signature: base64url(sign(null, Buffer.from(payload, 'utf8'), key.privateKey)) };
}

export type Ed25519Check = 'valid' | 'invalid' | 'unknown_key';

/** Checks a proof against a key document; never throws. */
export function verifyEd25519(payload: string, proof: Ed25519Proof, keys: readonly Ed25519PublicJwk[]): Ed25519Check {
  const jwk = keys.find((k) => k.kid === proof.kid);
  if (!jwk) return 'unknown_key';
  const signature = Buffer.from(proof.signature, 'base64url');
  // One text per signature: a base64url spelling that decodes to the same bytes (unused low bits set) is refused.
  if (base64url(signature) !== proof.signature) return 'invalid';
  try {
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
    return verify(null, Buffer.from(payload, 'utf8'), publicKey, signature) ? 'valid' : 'invalid';
  } catch {
    return 'invalid';
  }
}
