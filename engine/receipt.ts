// Signed receipts (`preflight-receipt/1`): build and sign (HMAC-SHA256 and Ed25519), publish the JSON Schema.
// Verification is engine/receipt-verify.ts; the format and the algorithms are documented in docs/receipts.md.

import { createHash, createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { z } from 'zod';
import { canonicalJson } from './canonical-json.js';
import { incompleteCheckReason, mediaShapeOf, receiptCoverage, type MediaShape } from './delivery-requirements.js';
import { EngineError } from './errors.js';
import { Ed25519ProofSchema, signEd25519, type Ed25519SigningKey } from './receipt-ed25519.js';
import { coverageOf, type Report } from './report.js';
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

const signedFieldShape = {
  schema: z.literal(RECEIPT_SCHEMA_ID).meta({ description: 'Format identifier. Verifiers reject any other value.' }),
  verdict: z.enum(['PASS', 'BLOCK']).meta({ description: 'PASS means upload-ready (a WATCH check is PASS here); BLOCK means not.' }),
  sha256: z.string().regex(SHA256_HEX).meta({ description: 'SHA-256 of the checked file, lowercase hex.' }),
  profile: nonEmpty.meta({ description: 'Delivery profile id the file was checked against, e.g. video_site_shorts. Every gate it requires of the media ran.' }),
  gates: z.array(nonEmpty).meta({ description: 'Gates that ran, sorted, without duplicates; they cover every gate the profile requires of the media.' }),
  blocked: z.array(nonEmpty).meta({ description: 'Gates that blocked, sorted; empty on PASS, never empty on BLOCK, always among gates.' }),
  jobId: nonEmpty.meta({ description: 'Id of the QC job that produced the verdict.' }),
  issuedAt: z.iso.datetime({ offset: true }).meta({ description: 'When the receipt was issued (ISO 8601 date-time).' }),
  issuer: nonEmpty.meta({ description: "Who signed the receipt: `preflight` for a local issuer, or the server's public URL (its keys are at <issuer>/.well-known/preflight-receipt-keys.json)." }),
};

export const ReceiptVerifySchema = z
  .looseObject({ ed25519: Ed25519ProofSchema.optional() })
  // additionalProperties: true, not {}: MCP clients that map schemas onto a single-type dialect reject an empty schema.
  .meta({
    additionalProperties: true,
    description: 'How to verify this receipt, and its Ed25519 signature. Unsigned: the signature inside proves itself; every other member is informational.',
  });

export const ReceiptSchema = z
  .strictObject({
    ...signedFieldShape,
    signature: z
      .string()
      .regex(SIGNATURE_PATTERN)
      .meta({ description: '"sha256=" + lowercase hex HMAC-SHA256 of the canonical JSON of the signed fields (checkable only with the issuer\'s secret).' }),
    summary: z.string().optional().meta({ description: 'One human line. Unsigned: never trust it as an assertion.' }),
    verify: z
      .union([z.string(), ReceiptVerifySchema])
      .optional()
      .meta({ description: 'How to verify this receipt; as an object it carries the Ed25519 signature in `ed25519`. Unsigned.' }),
  })
  .superRefine((receipt, ctx) => {
    for (const problem of consistencyProblems(receipt)) ctx.addIssue({ code: 'custom', path: ['blocked'], message: problem });
  })
  .meta({
    title: 'Preflight receipt (preflight-receipt/1)',
    description:
      'A signed statement that a file (by SHA-256) got a QC verdict against a delivery profile, every gate of which ran. Signatures: HMAC-SHA256 ' +
      '(signature) and Ed25519 (verify.ed25519) over the canonical JSON (keys sorted, no whitespace) of every field except signature, summary and verify.',
  });

export type Receipt = z.infer<typeof ReceiptSchema>;
export type ReceiptVerdict = Receipt['verdict'];
export type UnsignedReceipt = Omit<Receipt, 'signature'>;
export type SignedReceiptFields = Pick<Receipt, (typeof SIGNED_FIELDS)[number]>;
/** An HMAC signing key: a string is used as its UTF-8 bytes, bytes as they are. */
export type SigningKeyMaterial = string | Uint8Array;

/** The keys a receipt is signed with: the SPEC's HMAC secret, and the issuer's Ed25519 key for offline verification. */
export interface ReceiptSigningKeys {
  hmac: SigningKeyMaterial;
  ed25519?: Ed25519SigningKey;
}

// ---------------------------------------------------------------------------------------------------------------
// Signing

export function keyBytes(key: SigningKeyMaterial): Uint8Array {
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
  /** The media checked, when known: the profile's requirement is then taken for exactly this media. */
  media?: MediaShape;
  issuedAt?: string | Date;
  issuer?: string;
}

function sortedUnique(names: readonly string[]): string[] {
  return [...new Set(names)].sort();
}

export function receiptVerdict(verdict: Verdict): ReceiptVerdict {
  return verdict === 'BLOCK' ? 'BLOCK' : 'PASS';
}

const isSortedUnique = (names: readonly string[]): boolean => names.every((name, i) => i === 0 || names[i - 1] < name);

/** What makes a receipt contradict itself (PASS with blocked gates, BLOCK without, blocked gates that did not run). */
export function consistencyProblems(receipt: { verdict: 'PASS' | 'BLOCK'; gates: readonly string[]; blocked: readonly string[] }): string[] {
  const problems: string[] = [];
  const { verdict, gates, blocked } = receipt;
  if (verdict === 'PASS' && blocked.length > 0) problems.push(`a PASS receipt cannot list blocked gates (${blocked.join(', ')})`);
  if (verdict === 'BLOCK' && blocked.length === 0) problems.push('a BLOCK receipt must name at least one blocked gate');
  const unchecked = blocked.filter((gate) => !gates.includes(gate));
  if (unchecked.length > 0) problems.push(`blocked gates that are not among the checked gates: ${unchecked.join(', ')}`);
  if (!isSortedUnique(gates) || !isSortedUnique(blocked)) problems.push('gates and blocked must be sorted, without duplicates');
  return problems;
}

export function receiptSummary(receipt: SignedReceiptFields): string {
  const gateCount = `${receipt.gates.length} gate${receipt.gates.length === 1 ? '' : 's'}`;
  const file = `sha256 ${receipt.sha256.slice(0, 12)}…`;
  if (receipt.verdict === 'PASS') {
    return `PASS on ${receipt.profile}: every required gate ran (${gateCount}), none blocked; upload-ready (${file}, job ${receipt.jobId}).`;
  }
  return (
    `BLOCK on ${receipt.profile}: ${receipt.blocked.length} of ${gateCount} blocked (${receipt.blocked.join(', ')}); ` +
    `not upload-ready (${file}, job ${receipt.jobId}).`
  );
}

export const RECEIPT_KEYS_PATH = '/.well-known/preflight-receipt-keys.json';

export function receiptVerifyInstructions(): Record<string, unknown> {
  return {
    steps: [
      'Reject the receipt unless schema is preflight-receipt/1.',
      'Remove signature, summary and verify from the receipt.',
      'Serialise the rest as canonical JSON: object keys sorted ascending at every depth, no whitespace.',
      `Check verify.ed25519.signature (Ed25519, base64url) over that text with the key verify.ed25519.kid from the issuer's key document: ask the issuer (preflight receipt-keys), or, when issuer is an https URL, fetch <issuer>${RECEIPT_KEYS_PATH}. Never take keys from the receipt.`,
      "Or, with the issuer's secret: compute HMAC-SHA256 of that text and compare it in constant time with signature after its sha256= prefix.",
      'Hash the file you are about to publish with SHA-256 and confirm it equals sha256.',
      "Confirm gates include every gate the profile requires of the file's media (docs/receipts.md); publish only when verdict is PASS, never on summary.",
    ],
    signedFields: [...SIGNED_FIELDS],
    publicVerifier: `POST ${PUBLIC_VERIFIER_PATH}`,
    cli: `${VERIFY_CLI} [--public-key keys.json]`,
    jsonSchema: RECEIPT_JSON_SCHEMA_URL,
  };
}

const MAX_REPORTED_ISSUES = 3;

/** The first few problems zod found, as `path: message`. */
export function describeReceiptIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, MAX_REPORTED_ISSUES)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}

function asSigningKeys(keys: SigningKeyMaterial | ReceiptSigningKeys): ReceiptSigningKeys {
  return typeof keys === 'string' || keys instanceof Uint8Array ? { hmac: keys } : keys;
}

/**
 * A signed `preflight-receipt/1` with an unsigned summary line and verification instructions (carrying the Ed25519
 * signature when an Ed25519 key is given). Refuses a receipt whose gates do not cover what its profile requires of
 * the media: no receipt ever speaks for checks that did not run.
 */
export function buildReceipt(input: BuildReceiptInput, keys: SigningKeyMaterial | ReceiptSigningKeys): Receipt {
  const { hmac, ed25519 } = asSigningKeys(keys);
  const verdict = receiptVerdict(input.verdict);
  const gates = sortedUnique(input.gates);
  const blocked = sortedUnique(input.blockedGates);
  const problems = consistencyProblems({ verdict, gates, blocked });
  if (problems.length) throw new EngineError('receipt_inconsistent', `Cannot build a receipt: ${problems.join('; ')}.`);
  const coverage = receiptCoverage({ profile: input.profile, gates }, input.media);
  if (!coverage.complete) throw new EngineError('receipt_incomplete_check', `No receipt: ${coverage.reason}.`, { coverage });
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
  const signature = signReceipt(signed, hmac);
  const verify = { ...(ed25519 ? { ed25519: signEd25519(signedPayload(signed), ed25519) } : {}), ...receiptVerifyInstructions() };
  const parsed = ReceiptSchema.safeParse({ ...signed, signature, summary: receiptSummary(signed), verify });
  if (!parsed.success) {
    throw new EngineError('receipt_invalid', `Cannot build a receipt: ${describeReceiptIssues(parsed.error)}.`, { issues: parsed.error.issues });
  }
  return parsed.data;
}

// ---------------------------------------------------------------------------------------------------------------
// File hash

/**
 * Bytes read at a time while hashing a file, into one buffer: a read stream's fresh 64 KB chunk per read took five
 * times the CPU (120 against 24 ms on 22 MB), on the thread that reads the decoder's output meanwhile.
 */
const HASH_READ_BYTES = 1 << 20;

/** Lowercase hex SHA-256 of a file, read a megabyte at a time. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(HASH_READ_BYTES);
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
  } finally {
    await file.close();
  }
  return hash.digest('hex');
}

// ---------------------------------------------------------------------------------------------------------------
// JSON Schema

/** What zod's refinement checks, in JSON Schema words: blocked empty on PASS and not on BLOCK, no duplicates. */
const CONSISTENCY_RULES = {
  if: { properties: { verdict: { const: 'PASS' } } },
  then: { properties: { blocked: { maxItems: 0 } } },
  else: { properties: { blocked: { minItems: 1 } } },
};

/** JSON Schema (draft 2020-12) of `preflight-receipt/1`, generated from ReceiptSchema. */
export function receiptJsonSchema(): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(ReceiptSchema, { target: 'draft-2020-12' }) as Record<string, unknown> & {
    properties: Record<string, Record<string, unknown>>;
  };
  for (const list of ['gates', 'blocked']) rest.properties[list] = { ...rest.properties[list], uniqueItems: true };
  return { $schema, $id: RECEIPT_JSON_SCHEMA_URL, ...rest, ...CONSISTENCY_RULES };
}

export function receiptJsonSchemaText(): string {
  return `${JSON.stringify(receiptJsonSchema(), null, 2)}\n`;
}

export function writeReceiptSchema(path: string): void {
  writeFileSync(path, receiptJsonSchemaText());
}

/**
 * What a receipt asserts about a report: every gate that ran (skipped ones did not), and those that blocked. Refuses
 * (`receipt_incomplete_check`) a check that did not run everything its delivery profile requires, or had a gate error.
 */
export function receiptInputFromReport(report: Report, jobId: string): BuildReceiptInput {
  const gap = incompleteCheckReason(coverageOf(report));
  if (gap) throw new EngineError('receipt_incomplete_check', `No receipt: ${gap}.`, { coverage: coverageOf(report) });
  return {
    jobId,
    verdict: report.verdict,
    sha256: report.media.sha256,
    profile: report.deliveryProfile,
    gates: report.gates.filter((g) => g.status !== 'skipped').map((g) => g.gate),
    blockedGates: report.gates.filter((g) => g.status === 'block').map((g) => g.gate),
    media: mediaShapeOf(report.media),
  };
}
