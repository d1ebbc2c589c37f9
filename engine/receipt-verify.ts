// Verifying a receipt of unknown origin: format, consistency, signatures (HMAC with the issuer's secret, Ed25519
// with the issuer's public keys), the file hash, and whether its gates cover what its profile requires.
// Which keys to trust is the caller's business (src/receipts/verify.ts); this never reads a key from anywhere.
import { timingSafeEqual } from 'node:crypto';
import { receiptCoverage, type MediaShape, type ReceiptCoverage } from './delivery-requirements.js';
import { verifyEd25519, type Ed25519Check, type Ed25519PublicJwk } from './receipt-ed25519.js';
import {
  describeReceiptIssues,
  keyBytes,
  KNOWN_RECEIPT_SCHEMAS,
  ReceiptSchema,
  signedPayload,
  signReceipt,
  type Receipt,
  type ReceiptVerdict,
  type SignedReceiptFields,
  type SigningKeyMaterial,
} from './receipt.js';

/** The keys a verifier holds. Give only keys you trust for this receipt's issuer: never keys taken from the receipt. */
export interface ReceiptVerificationKeys {
  /** The issuer's HMAC secret: checks `signature`. */
  hmac?: SigningKeyMaterial | null;
  /** The issuer's public keys: check `verify.ed25519`. */
  publicKeys?: readonly Ed25519PublicJwk[] | null;
}

export interface VerifyReceiptOptions {
  /** SHA-256 (hex) of the file about to be published; anything else given here is refused, never ignored. */
  fileSha256?: unknown;
  /** The media the file is, when the verifier read it: coverage is then judged exactly. */
  mediaShape?: MediaShape;
}

export type SignatureCheck = 'valid' | 'invalid' | 'not_checked';

export interface ReceiptVerification {
  /** Checked, authentic, well-formed, known schema, and (when a file hash was given) about this file. */
  valid: boolean;
  /** false when no key could check any signature: `reason` says what is needed. Never a verdict on the receipt. */
  checked: boolean;
  /** Every signature that was checked matches, and at least one was checked. */
  authentic: boolean;
  schemaKnown: boolean;
  /** null when no file hash was given or the receipt could not be read. */
  hashMatches: boolean | null;
  /** Why the receipt is not valid (or could not be checked); null when it is valid. */
  reason: string | null;
  signatures: { hmac: SignatureCheck; ed25519: Ed25519Check | 'absent' | 'not_checked' };
  /** The Ed25519 key id the receipt names (unsigned: a hint for choosing the key). */
  keyId: string | null;
  /** The signed verdict, present only when the signature is authentic. */
  verdict?: ReceiptVerdict;
  /** Whether the receipt's gates cover its profile; present only when authentic. */
  coverage?: ReceiptCoverage;
  /** valid, verdict PASS and the whole profile covered: the only condition to publish on. */
  uploadReady: boolean;
  /** The signed fields, present only when authentic (summary and verify are never returned). */
  signed?: SignedReceiptFields;
}

const MAX_ECHOED_LENGTH = 80;
const SHA256_HEX = /^[0-9a-f]{64}$/;
const RECEIPT_FIELDS: ReadonlySet<string> = new Set(Object.keys(ReceiptSchema.shape));

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const shown = (text: string) => (text.length > MAX_ECHOED_LENGTH ? `${text.slice(0, MAX_ECHOED_LENGTH)}…` : text);

function unknownSchemaReason(schema: unknown): string {
  if (typeof schema !== 'string') return `receipt has no string "schema" field; this verifier accepts ${KNOWN_RECEIPT_SCHEMAS.join(', ')}`;
  return `unknown receipt schema "${shown(schema)}"; this verifier accepts ${KNOWN_RECEIPT_SCHEMAS.join(', ')}`;
}

/** Own keys that are not receipt fields, `__proto__` included (JSON.parse makes it an own key; zod would drop it). */
function unknownFields(receipt: object): string[] {
  return Reflect.ownKeys(receipt).filter((key): key is string => typeof key !== 'string' || !RECEIPT_FIELDS.has(key)) as string[];
}

function signaturesEqual(provided: string, expected: string): boolean {
  const providedBytes = Buffer.from(provided, 'utf8');
  const expectedBytes = Buffer.from(expected, 'utf8');
  return providedBytes.length === expectedBytes.length && timingSafeEqual(providedBytes, expectedBytes);
}

function usableHmacKey(key: unknown): SigningKeyMaterial | null {
  return (typeof key === 'string' || key instanceof Uint8Array) && keyBytes(key).length > 0 ? key : null;
}

/** The normalised file hash, or a reason it cannot be one. */
function fileHash(given: unknown): { sha256: string | undefined } | { refused: string } {
  if (given === undefined) return { sha256: undefined };
  const normalised = typeof given === 'string' ? given.trim().toLowerCase() : null;
  if (normalised === null || !SHA256_HEX.test(normalised)) {
    return { refused: 'the file hash given beside the receipt is not a SHA-256 (64 hexadecimal characters); it was refused, not ignored' };
  }
  return { sha256: normalised };
}

function pickSignedFields(receipt: Receipt): SignedReceiptFields {
  const { schema, verdict, sha256, profile, gates, blocked, jobId, issuedAt, issuer } = receipt;
  return { schema, verdict, sha256, profile, gates, blocked, jobId, issuedAt, issuer };
}

const NOT_CHECKED = { hmac: 'not_checked', ed25519: 'not_checked' } as const;

function rejected(reason: string, partial: Partial<ReceiptVerification> = {}): ReceiptVerification {
  return {
    valid: false,
    checked: true,
    authentic: false,
    schemaKnown: false,
    hashMatches: null,
    signatures: NOT_CHECKED,
    keyId: null,
    uploadReady: false,
    ...partial,
    reason,
  };
}

function ed25519Proof(receipt: Receipt) {
  return typeof receipt.verify === 'object' ? (receipt.verify.ed25519 ?? null) : null;
}

function signatureFailure(signatures: ReceiptVerification['signatures'], keyId: string | null, keys: ReceiptVerificationKeys): string {
  if (signatures.ed25519 === 'unknown_key') {
    return `signed with Ed25519 key ${keyId}, which is not among the ${keys.publicKeys?.length ?? 0} public key(s) the verifier holds: another issuer's key, or a retired key missing from the key document`;
  }
  if (signatures.ed25519 === 'invalid') return 'Ed25519 signature does not match: a signed field was changed, or another key signed it';
  return 'HMAC signature does not match: wrong key, or a signed field was changed';
}

function whatIsNeeded(receipt: Receipt, keyId: string | null): string {
  if (keyId) return `no key to check it with: it needs the issuer's public key ${keyId} (the issuer's key document, printed by preflight receipt-keys)`;
  return (
    "no key to check it with: it has no Ed25519 signature (issued before public-key signatures), so only the issuer's HMAC secret " +
    `or the issuer's public verifier can check it (issuer: ${shown(receipt.issuer)})`
  );
}

function verifyParsed(receipt: Receipt, keys: ReceiptVerificationKeys, options: VerifyReceiptOptions, sha256: string | undefined): ReceiptVerification {
  const hashMatches = sha256 === undefined ? null : sha256 === receipt.sha256;
  const proof = ed25519Proof(receipt);
  const keyId = proof?.kid ?? null;
  const hmacKey = usableHmacKey(keys.hmac);
  const hmac: SignatureCheck = hmacKey ? (signaturesEqual(receipt.signature, signReceipt(receipt, hmacKey)) ? 'valid' : 'invalid') : 'not_checked';
  const ed25519 = !proof ? 'absent' : keys.publicKeys ? verifyEd25519(signedPayload(receipt), proof, keys.publicKeys) : 'not_checked';
  const signatures = { hmac, ed25519 } as const;
  const base = { schemaKnown: true, hashMatches, signatures, keyId };
  if (hmac === 'not_checked' && (ed25519 === 'absent' || ed25519 === 'not_checked')) {
    return { ...rejected(whatIsNeeded(receipt, keyId), base), checked: false };
  }
  if (hmac === 'invalid' || ed25519 === 'invalid' || ed25519 === 'unknown_key') return rejected(signatureFailure(signatures, keyId, keys), base);
  const coverage = receiptCoverage(receipt, options.mediaShape);
  const result = { ...base, checked: true, authentic: true, verdict: receipt.verdict, coverage, signed: pickSignedFields(receipt) };
  if (hashMatches === false) {
    return { ...result, valid: false, uploadReady: false, reason: 'receipt is authentic but its sha256 is not the hash of this file' };
  }
  return { ...result, valid: true, uploadReady: receipt.verdict === 'PASS' && coverage.complete, reason: null };
}

function asVerificationKeys(keys: SigningKeyMaterial | ReceiptVerificationKeys | null | undefined): ReceiptVerificationKeys {
  if (typeof keys === 'string' || keys instanceof Uint8Array) return { hmac: keys };
  return isPlainObject(keys) ? keys : {};
}

/**
 * Checks a receipt of unknown origin. Never throws: every failure is a result with `valid: false` and a reason.
 * Unknown `schema` values are rejected before anything else is read; unknown fields (`__proto__` too) are malformed.
 */
export function verifyReceipt(
  receipt: unknown,
  keys: SigningKeyMaterial | ReceiptVerificationKeys | null | undefined,
  options: VerifyReceiptOptions = {},
): ReceiptVerification {
  try {
    if (!isPlainObject(receipt)) return rejected('receipt must be a JSON object');
    if (!KNOWN_RECEIPT_SCHEMAS.includes(receipt.schema as string)) return rejected(unknownSchemaReason(receipt.schema));
    const extra = unknownFields(receipt);
    if (extra.length) return rejected(`malformed receipt: unknown field${extra.length === 1 ? '' : 's'} ${extra.map((k) => JSON.stringify(shown(String(k)))).join(', ')}`, { schemaKnown: true });
    const hash = fileHash(options?.fileSha256);
    if ('refused' in hash) return rejected(hash.refused, { schemaKnown: true });
    const parsed = ReceiptSchema.safeParse(receipt);
    if (!parsed.success) return rejected(`malformed receipt: ${describeReceiptIssues(parsed.error)}`, { schemaKnown: true });
    return verifyParsed(parsed.data, asVerificationKeys(keys), options ?? {}, hash.sha256);
  } catch (error) {
    return rejected(`receipt could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}
