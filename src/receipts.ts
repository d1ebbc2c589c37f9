// Receipts as service rules. Issuing: only a check that ran every gate its delivery profile requires gets one, signed
// with the HMAC secret and the Ed25519 key. Verifying: which keys to trust for a receipt (a key document the caller
// gives, the published keys of a URL issuer, or this data dir's own), and never creating or changing a key.
import { mediaShapeOf, type MediaShape } from '../engine/delivery-requirements.js';
import { EngineError } from '../engine/errors.js';
import { probe } from '../engine/probe.js';
import { MAX_KEY_DOCUMENT_BYTES, parseKeyDocument, type Ed25519PublicJwk } from '../engine/receipt-ed25519.js';
import { verifyReceipt, type ReceiptVerification, type ReceiptVerificationKeys } from '../engine/receipt-verify.js';
import { buildReceipt, DEFAULT_ISSUER, RECEIPT_KEYS_PATH, receiptInputFromReport, sha256File, type Receipt } from '../engine/receipt.js';
import type { Report } from '../engine/report.js';
import { ServiceError } from './errors.js';
import { fetchText, policyFromEnv } from './ingress/remote.js';
import { loadReceiptSigningKey, readPublishedKeys } from './receipt-keys.js';
import { loadSigningKey, readSigningKey } from './signing-key.js';

export const RUN_FULL_PROFILE = 'run the full profile to get a receipt';
const KEY_FETCH_TIMEOUT_MS = 10_000;

interface KeyPlace {
  home: string;
  env: NodeJS.ProcessEnv;
}

/** The 409 a door answers when a job (or a CLI check) has no receipt because the check was not complete. */
export function incompleteCheckError(err: EngineError): ServiceError {
  return new ServiceError(err.code, err.message, err.details, 409);
}

/** Signs the receipt of a complete check; `receipt_incomplete_check` (409) for any other. */
export function issueReceipt(report: Report, jobId: string, options: KeyPlace & { issuer?: string }): Receipt {
  let input;
  try {
    input = receiptInputFromReport(report, jobId);
  } catch (err) {
    if (err instanceof EngineError && err.code === 'receipt_incomplete_check') throw incompleteCheckError(err);
    throw err;
  }
  const hmac = loadSigningKey(options).key;
  const ed25519 = loadReceiptSigningKey(options);
  return buildReceipt({ ...input, issuer: options.issuer ?? DEFAULT_ISSUER }, { hmac, ed25519 });
}

// ---------------------------------------------------------------------------------------------------------------
// Verifying

export type KeySource = 'given' | 'issuer' | 'local' | 'none';

export interface VerifyOptions {
  /** The data dir whose own keys (read, never created) check its own receipts; without it only given or fetched keys are used. */
  home?: string;
  env?: NodeJS.ProcessEnv;
  /** Hash of the file to publish (refused unless a SHA-256). */
  fileSha256?: unknown;
  /** The file to publish: hashed, and probed so coverage is judged for exactly its media. */
  filePath?: string;
  /** A key document (JWKS) the caller trusts for this receipt: only its keys are used. */
  publicKeys?: unknown;
  /** Fetch `<issuer>/.well-known/preflight-receipt-keys.json` when the issuer is a URL other than `ownIssuer`. */
  fetchIssuerKeys?: boolean;
  /** This service's issuer name: its own receipts are checked with its own keys. */
  ownIssuer?: string;
  /**
   * The issuer's own verifier (the public REST verifier): a receipt signed with a key this data dir does not hold is
   * not authentic. Elsewhere (the CLI) such a receipt could not be checked, and the answer says which key it needs.
   */
  issuerSide?: boolean;
  signal?: AbortSignal;
}

export interface ReceiptCheck extends ReceiptVerification {
  /** Where the public keys came from. */
  keySource: KeySource;
  /** The key document fetched, for a URL issuer. */
  keysUrl: string | null;
}

export function issuerKeysUrl(issuer: string): string | null {
  if (!/^https?:\/\//i.test(issuer)) return null;
  try {
    const url = new URL(issuer);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}${RECEIPT_KEYS_PATH}`;
  } catch {
    return null;
  }
}

function givenKeys(document: unknown): Ed25519PublicJwk[] {
  try {
    return parseKeyDocument(document).keys;
  } catch (err) {
    throw new ServiceError('invalid_public_keys', `The public key document is not usable: ${(err as Error).message}.`, {}, 400);
  }
}

async function fetchIssuerKeys(url: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<Ed25519PublicJwk[]> {
  const policy = { ...policyFromEnv(env), maxBytes: MAX_KEY_DOCUMENT_BYTES, timeoutMs: KEY_FETCH_TIMEOUT_MS };
  let text: string;
  try {
    ({ text } = await fetchText(url, policy, { signal }));
  } catch (err) {
    const why = err instanceof ServiceError ? err.message : (err as Error).message;
    throw new ServiceError('issuer_keys_unavailable', `Could not fetch the issuer's public keys from ${url}: ${why} Pass the issuer's key document instead (CLI --public-key keys.json).`, { url }, 502);
  }
  try {
    return parseKeyDocument(JSON.parse(text)).keys;
  } catch (err) {
    throw new ServiceError('issuer_keys_unavailable', `${url} is not a usable key document: ${(err as Error).message}.`, { url }, 502);
  }
}

function proofKid(receipt: unknown): string | null {
  const verify = (receipt as { verify?: unknown } | null)?.verify;
  const kid = typeof verify === 'object' && verify !== null ? (verify as { ed25519?: { kid?: unknown } }).ed25519?.kid : undefined;
  return typeof kid === 'string' ? kid : null;
}

const receiptIssuer = (receipt: unknown): string | null => {
  const issuer = (receipt as { issuer?: unknown } | null)?.issuer;
  return typeof issuer === 'string' ? issuer : null;
};

async function chooseKeys(receipt: unknown, options: VerifyOptions): Promise<{ keys: ReceiptVerificationKeys; source: KeySource; keysUrl: string | null }> {
  if (options.publicKeys !== undefined) return { keys: { publicKeys: givenKeys(options.publicKeys) }, source: 'given', keysUrl: null };
  const issuer = receiptIssuer(receipt);
  const keysUrl = issuer && issuer !== options.ownIssuer ? issuerKeysUrl(issuer) : null;
  if (keysUrl && options.fetchIssuerKeys) {
    return { keys: { publicKeys: await fetchIssuerKeys(keysUrl, options.env ?? process.env, options.signal) }, source: 'issuer', keysUrl };
  }
  if (options.home === undefined) return { keys: {}, source: 'none', keysUrl };
  const place = { home: options.home, env: options.env ?? process.env };
  const local = readPublishedKeys(place);
  const hmac = readSigningKey(place)?.key ?? null;
  const kid = proofKid(receipt);
  // A receipt without an Ed25519 signature predates it: only the HMAC secret can check it.
  if (kid === null) return { keys: { hmac }, source: hmac ? 'local' : 'none', keysUrl: null };
  // The issuer's own verifier checks both of its signatures; elsewhere the Ed25519 one is the one meant for others.
  if (options.issuerSide) return { keys: { hmac, publicKeys: local ?? [] }, source: 'local', keysUrl: null };
  if (local?.some((k) => k.kid === kid)) return { keys: { publicKeys: local }, source: 'local', keysUrl: null };
  return { keys: {}, source: 'none', keysUrl };
}

async function mediaShapeOfFile(path: string, signal?: AbortSignal): Promise<MediaShape | undefined> {
  try {
    return mediaShapeOf(await probe(path, signal));
  } catch {
    return undefined; // not media we can read: coverage is judged from the receipt's gates
  }
}

async function hashFile(path: string): Promise<string> {
  try {
    return await sha256File(path);
  } catch (err) {
    throw new ServiceError('file_unreadable', `Could not read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}.`, {}, 400);
  }
}

/** Verifies a receipt with the keys these options trust. Never creates or changes a key. */
export async function checkReceipt(receipt: unknown, options: VerifyOptions): Promise<ReceiptCheck> {
  const fileSha256 = options.fileSha256 !== undefined ? options.fileSha256 : options.filePath ? await hashFile(options.filePath) : undefined;
  const mediaShape = options.filePath ? await mediaShapeOfFile(options.filePath, options.signal) : undefined;
  const { keys, source, keysUrl } = await chooseKeys(receipt, options);
  return { ...verifyReceipt(receipt, keys, { fileSha256, mediaShape }), keySource: source, keysUrl };
}

// ---------------------------------------------------------------------------------------------------------------
// The public verifier's request

const SHA256_TEXT = /^\s*[0-9a-fA-F]{64}\s*$/;
const WRAPPER_FIELDS = new Set(['receipt', 'sha256']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The body of `POST /v1/public/receipts/verify`, read from the raw JSON (own keys, `__proto__` included): the receipt
 * itself, or `{receipt, sha256}` to also compare a file hash. A wrapper with any other key, a receipt that is not an
 * object, or a `sha256` that is not 64 hex characters is refused (400), never ignored.
 */
export function parseVerifyRequest(body: unknown): { receipt: unknown; sha256?: string } {
  if (!isObject(body)) throw new ServiceError('invalid_input', 'The body must be a receipt JSON object, or {"receipt": {…}, "sha256": "<64 hex>"}.', {}, 400);
  if (!Object.hasOwn(body, 'receipt')) return { receipt: body };
  const unknown = Reflect.ownKeys(body).filter((key) => typeof key !== 'string' || !WRAPPER_FIELDS.has(key)).map(String);
  if (unknown.length) {
    throw new ServiceError('invalid_input', `Unknown field${unknown.length === 1 ? '' : 's'} beside the receipt: ${unknown.map((k) => JSON.stringify(k.slice(0, 80))).join(', ')}; send only receipt and sha256.`, { unknown }, 400);
  }
  if (!isObject(body.receipt)) throw new ServiceError('invalid_input', 'receipt must be a JSON object.', {}, 400);
  if (body.sha256 === undefined) return { receipt: body.receipt };
  if (typeof body.sha256 !== 'string' || !SHA256_TEXT.test(body.sha256)) {
    throw new ServiceError('invalid_input', 'sha256 must be the SHA-256 of the file to publish: 64 hexadecimal characters.', {}, 400);
  }
  return { receipt: body.receipt, sha256: body.sha256 };
}
