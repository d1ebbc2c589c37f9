// Signed receipts (`preflight-receipt/1`): build, sign, verify, publish the JSON Schema, manage the signing key.
// The format and the algorithm are documented in docs/receipts.md; SPEC.md "Receipt signature verification".

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createReadStream, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { canonicalJson } from './canonical-json.js';
import { EngineError } from './errors.js';
import type { Report } from './report.js';
import type { Verdict } from './types.js';

export const RECEIPT_SCHEMA_ID = 'preflight-receipt/1';
export const KNOWN_RECEIPT_SCHEMAS: readonly string[] = [RECEIPT_SCHEMA_ID];
export const RECEIPT_JSON_SCHEMA_URL = 'https://preflight.dev/schemas/preflight-receipt-1.json';
export const PUBLIC_VERIFIER_PATH = '/v1/public/receipts/verify';
export const VERIFY_CLI = 'preflight verify <receipt.json> --file <media>';
export const DEFAULT_ISSUER = 'preflight';
export const SIGNATURE_PREFIX = 'sha256=';
/** Fields excluded from the signature: informational, never trusted as assertions. */
export const UNSIGNED_FIELDS = ['signature', 'summary', 'verify'] as const;
/** Signed fields in canonical (sorted) order. */
export const SIGNED_FIELDS = ['blocked', 'gates', 'issuedAt', 'issuer', 'jobId', 'profile', 'schema', 'sha256', 'verdict'] as const;

const SHA256_HEX = /^[0-9a-f]{64}$/;
const SIGNATURE_PATTERN = /^sha256=[0-9a-f]{64}$/;
const nonEmpty = z.string().min(1);

export const ReceiptSchema = z
  .strictObject({
    schema: z.literal(RECEIPT_SCHEMA_ID).meta({ description: 'Format identifier. Verifiers reject any other value.' }),
    verdict: z.enum(['PASS', 'BLOCK']).meta({ description: 'PASS means upload-ready (a WATCH check is PASS here); BLOCK means not.' }),
    sha256: z.string().regex(SHA256_HEX).meta({ description: 'SHA-256 of the checked file, lowercase hex.' }),
    profile: nonEmpty.meta({ description: 'Delivery profile id the file was checked against, e.g. video_site_shorts.' }),
    gates: z.array(nonEmpty).meta({ description: 'Gates that ran, sorted.' }),
    blocked: z.array(nonEmpty).meta({ description: 'Gates that blocked, sorted; empty on PASS.' }),
    jobId: nonEmpty.meta({ description: 'Id of the QC job that produced the verdict.' }),
    issuedAt: z.iso.datetime({ offset: true }).meta({ description: 'When the receipt was issued (ISO 8601 date-time).' }),
    issuer: nonEmpty.meta({ description: 'Who signed the receipt.' }),
    signature: z
      .string()
      .regex(SIGNATURE_PATTERN)
      .meta({ description: '"sha256=" + lowercase hex HMAC-SHA256 of the canonical JSON of the signed fields.' }),
    summary: z.string().optional().meta({ description: 'One human line. Unsigned: never trust it as an assertion.' }),
    verify: z
      // additionalProperties: true, not {}: MCP clients that map schemas onto a single-type dialect reject an empty schema.
      .union([z.string(), z.record(z.string(), z.unknown()).meta({ additionalProperties: true })])
      .optional()
      .meta({ description: 'How to verify this receipt. Unsigned and informational.' }),
  })
  .meta({
    title: 'Preflight receipt (preflight-receipt/1)',
    description:
      'A signed statement that a file (by SHA-256) got a QC verdict against a delivery profile. Signature: HMAC-SHA256 over the ' +
      'canonical JSON (keys sorted, no whitespace) of every field except signature, summary and verify.',
  });

export type Receipt = z.infer<typeof ReceiptSchema>;
export type ReceiptVerdict = Receipt['verdict'];
export type UnsignedReceipt = Omit<Receipt, 'signature'>;
export type SignedReceiptFields = Pick<Receipt, (typeof SIGNED_FIELDS)[number]>;
/** A signing key: a string is used as its UTF-8 bytes, bytes as they are. */
export type SigningKeyMaterial = string | Uint8Array;

// ---------------------------------------------------------------------------------------------------------------
// Signing

function keyBytes(key: SigningKeyMaterial): Uint8Array {
  return typeof key === 'string' ? Buffer.from(key, 'utf8') : key;
}

function withoutUnsignedFields(receipt: object): Record<string, unknown> {
  const signed: Record<string, unknown> = { ...receipt };
  for (const field of UNSIGNED_FIELDS) delete signed[field];
  return signed;
}

/** The exact text that is signed: canonical JSON of the receipt without signature, summary and verify. */
export function signedPayload(receipt: UnsignedReceipt | Receipt): string {
  return canonicalJson(withoutUnsignedFields(receipt));
}

function hmacHex(payload: string, key: SigningKeyMaterial): string {
  return createHmac('sha256', keyBytes(key)).update(payload, 'utf8').digest('hex');
}

/** `sha256=<hex>` signature of a receipt (any signature, summary and verify on it are ignored). */
export function signReceipt(receipt: UnsignedReceipt | Receipt, key: SigningKeyMaterial): string {
  if (keyBytes(key).length === 0) throw new EngineError('signing_key_missing', 'Cannot sign a receipt with an empty signing key.');
  return SIGNATURE_PREFIX + hmacHex(signedPayload(receipt), key);
}

// ---------------------------------------------------------------------------------------------------------------
// Building

export interface BuildReceiptInput {
  jobId: string;
  /** The job verdict; WATCH becomes PASS in a receipt. */
  verdict: Verdict;
  sha256: string;
  /** Delivery profile id. */
  profile: string;
  gates: readonly string[];
  /** Gates whose status is block; must be empty unless the verdict is BLOCK. */
  blockedGates: readonly string[];
  issuedAt?: string | Date;
  issuer?: string;
}

function sortedUnique(names: readonly string[]): string[] {
  return [...new Set(names)].sort();
}

export function receiptVerdict(verdict: Verdict): ReceiptVerdict {
  return verdict === 'BLOCK' ? 'BLOCK' : 'PASS';
}

function assertConsistentBlocked(verdict: ReceiptVerdict, gates: string[], blocked: string[]): void {
  if (verdict === 'PASS' && blocked.length > 0) {
    throw new EngineError('receipt_inconsistent', `A PASS receipt cannot list blocked gates (${blocked.join(', ')}).`);
  }
  if (verdict === 'BLOCK' && blocked.length === 0) {
    throw new EngineError('receipt_inconsistent', 'A BLOCK receipt must name at least one blocked gate.');
  }
  const unchecked = blocked.filter((gate) => !gates.includes(gate));
  if (unchecked.length > 0) {
    throw new EngineError('receipt_inconsistent', `Blocked gates that are not among the checked gates: ${unchecked.join(', ')}.`);
  }
}

export function receiptSummary(receipt: SignedReceiptFields): string {
  const gateCount = `${receipt.gates.length} gate${receipt.gates.length === 1 ? '' : 's'}`;
  const file = `sha256 ${receipt.sha256.slice(0, 12)}…`;
  if (receipt.verdict === 'PASS') {
    return `PASS on ${receipt.profile}: no blocking flag in ${gateCount}; upload-ready (${file}, job ${receipt.jobId}).`;
  }
  return (
    `BLOCK on ${receipt.profile}: ${receipt.blocked.length} of ${gateCount} blocked (${receipt.blocked.join(', ')}); ` +
    `not upload-ready (${file}, job ${receipt.jobId}).`
  );
}

export function receiptVerifyInstructions(): Record<string, unknown> {
  return {
    steps: [
      'Remove signature, summary and verify from the receipt.',
      'Serialise the rest as canonical JSON: object keys sorted ascending at every depth, no whitespace.',
      "Compute HMAC-SHA256 of that text with the issuer's signing key; compare it in constant time with signature after its sha256= prefix.",
      'Hash the file you are about to publish with SHA-256 and confirm it equals sha256.',
      'Publish only when verdict is PASS; never decide on summary.',
    ],
    signedFields: [...SIGNED_FIELDS],
    publicVerifier: `POST ${PUBLIC_VERIFIER_PATH}`,
    cli: VERIFY_CLI,
    jsonSchema: RECEIPT_JSON_SCHEMA_URL,
  };
}

function invalidReceiptError(error: z.ZodError): EngineError {
  return new EngineError('receipt_invalid', `Cannot build a receipt: ${describeIssues(error)}.`, { issues: error.issues });
}

/** A signed `preflight-receipt/1` with an unsigned summary line and verification instructions. */
export function buildReceipt(input: BuildReceiptInput, key: SigningKeyMaterial): Receipt {
  const verdict = receiptVerdict(input.verdict);
  const gates = sortedUnique(input.gates);
  const blocked = sortedUnique(input.blockedGates);
  assertConsistentBlocked(verdict, gates, blocked);
  const issuedAt = input.issuedAt instanceof Date ? input.issuedAt.toISOString() : (input.issuedAt ?? new Date().toISOString());
  const signed: SignedReceiptFields = {
    schema: RECEIPT_SCHEMA_ID,
    verdict,
    sha256: input.sha256.toLowerCase(),
    profile: input.profile,
    gates,
    blocked,
    jobId: input.jobId,
    issuedAt,
    issuer: input.issuer ?? DEFAULT_ISSUER,
  };
  const receipt = { ...signed, signature: signReceipt(signed, key), summary: receiptSummary(signed), verify: receiptVerifyInstructions() };
  const parsed = ReceiptSchema.safeParse(receipt);
  if (!parsed.success) throw invalidReceiptError(parsed.error);
  return parsed.data;
}

// ---------------------------------------------------------------------------------------------------------------
// Verifying

export interface VerifyReceiptOptions {
  /** SHA-256 (hex) of the file about to be published; when given, `hashMatches` reports whether it is the checked file. */
  fileSha256?: string;
}

export interface ReceiptVerification {
  /** Authentic, known schema, and (when fileSha256 was given) about this file. */
  valid: boolean;
  /** The signature matches the signed fields under the key. */
  authentic: boolean;
  schemaKnown: boolean;
  /** null when no fileSha256 was given or the receipt could not be read. */
  hashMatches: boolean | null;
  /** Why the receipt is not valid; null when it is. */
  reason: string | null;
  /** The signed verdict, present only when the signature is authentic. */
  verdict?: ReceiptVerdict;
  /** valid and verdict PASS: the only condition to publish on. */
  uploadReady: boolean;
  /** The signed fields, present only when the signature is authentic (summary and verify are never returned). */
  signed?: SignedReceiptFields;
}

const MAX_ECHOED_SCHEMA_LENGTH = 80;
const MAX_REPORTED_ISSUES = 3;

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, MAX_REPORTED_ISSUES)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unknownSchemaReason(schema: unknown): string {
  if (typeof schema !== 'string') return `receipt has no string "schema" field; this verifier accepts ${KNOWN_RECEIPT_SCHEMAS.join(', ')}`;
  const shown = schema.length > MAX_ECHOED_SCHEMA_LENGTH ? `${schema.slice(0, MAX_ECHOED_SCHEMA_LENGTH)}…` : schema;
  return `unknown receipt schema "${shown}"; this verifier accepts ${KNOWN_RECEIPT_SCHEMAS.join(', ')}`;
}

function signaturesEqual(provided: string, expected: string): boolean {
  const providedBytes = Buffer.from(provided, 'utf8');
  const expectedBytes = Buffer.from(expected, 'utf8');
  return providedBytes.length === expectedBytes.length && timingSafeEqual(providedBytes, expectedBytes);
}

function hasUsableKey(key: unknown): key is SigningKeyMaterial {
  return (typeof key === 'string' || key instanceof Uint8Array) && keyBytes(key).length > 0;
}

function compareFileHash(receipt: Receipt, fileSha256: string | undefined): boolean | null {
  if (fileSha256 === undefined) return null;
  return fileSha256.trim().toLowerCase() === receipt.sha256;
}

function rejected(reason: string, partial: Partial<ReceiptVerification> = {}): ReceiptVerification {
  return { valid: false, authentic: false, schemaKnown: false, hashMatches: null, uploadReady: false, ...partial, reason };
}

function pickSignedFields(receipt: Receipt): SignedReceiptFields {
  const { schema, verdict, sha256, profile, gates, blocked, jobId, issuedAt, issuer } = receipt;
  return { schema, verdict, sha256, profile, gates, blocked, jobId, issuedAt, issuer };
}

function verifyParsed(receipt: Receipt, key: unknown, options: VerifyReceiptOptions): ReceiptVerification {
  const hashMatches = compareFileHash(receipt, options.fileSha256);
  if (!hasUsableKey(key)) return rejected('no signing key to verify with', { schemaKnown: true, hashMatches });
  const expected = signReceipt(receipt, key);
  if (!signaturesEqual(receipt.signature, expected)) {
    return rejected('signature does not match: wrong key, or a signed field was changed', { schemaKnown: true, hashMatches });
  }
  const signed = pickSignedFields(receipt);
  const result = { authentic: true, schemaKnown: true, hashMatches, verdict: receipt.verdict, signed };
  if (hashMatches === false) {
    return { ...result, valid: false, uploadReady: false, reason: 'receipt is authentic but its sha256 is not the hash of this file' };
  }
  return { ...result, valid: true, uploadReady: receipt.verdict === 'PASS', reason: null };
}

/**
 * Checks a receipt of unknown origin. Never throws: every failure is a result with `valid: false` and a reason.
 * Unknown `schema` values are rejected before anything else is read.
 */
export function verifyReceipt(receipt: unknown, key: SigningKeyMaterial, options: VerifyReceiptOptions = {}): ReceiptVerification {
  try {
    if (!isPlainObject(receipt)) return rejected('receipt must be a JSON object');
    if (!KNOWN_RECEIPT_SCHEMAS.includes(receipt.schema as string)) return rejected(unknownSchemaReason(receipt.schema));
    const parsed = ReceiptSchema.safeParse(receipt);
    if (!parsed.success) return rejected(`malformed receipt: ${describeIssues(parsed.error)}`, { schemaKnown: true });
    return verifyParsed(parsed.data, key, options ?? {});
  } catch (error) {
    return rejected(`receipt could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// File hash

/** Lowercase hex SHA-256 of a file, streamed. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

// ---------------------------------------------------------------------------------------------------------------
// JSON Schema

/** JSON Schema (draft 2020-12) of `preflight-receipt/1`, generated from ReceiptSchema. */
export function receiptJsonSchema(): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(ReceiptSchema, { target: 'draft-2020-12' }) as Record<string, unknown>;
  return { $schema, $id: RECEIPT_JSON_SCHEMA_URL, ...rest };
}

export function receiptJsonSchemaText(): string {
  return `${JSON.stringify(receiptJsonSchema(), null, 2)}\n`;
}

export function writeReceiptSchema(path: string): void {
  writeFileSync(path, receiptJsonSchemaText());
}

/** What a receipt asserts about a report: every gate that ran (skipped ones did not), and those that blocked. */
export function receiptInputFromReport(report: Report, jobId: string): BuildReceiptInput {
  return {
    jobId,
    verdict: report.verdict,
    sha256: report.media.sha256,
    profile: report.deliveryProfile,
    gates: report.gates.filter((g) => g.status !== 'skipped').map((g) => g.gate),
    blockedGates: report.gates.filter((g) => g.status === 'block').map((g) => g.gate),
  };
}
