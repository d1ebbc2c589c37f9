// Receipts as service rules. Issuing: only a check that ran every gate its delivery profile requires gets one.
// Verifying: with this data dir's HMAC secret, read and never created, so checking a receipt elsewhere leaves no key.
import { mediaShapeOf, type MediaShape } from '../engine/delivery-requirements.js';
import { EngineError } from '../engine/errors.js';
import { probe } from '../engine/probe.js';
import { verifyReceipt, type ReceiptVerification } from '../engine/receipt-verify.js';
import { buildReceipt, receiptInputFromReport, sha256File, type Receipt } from '../engine/receipt.js';
import type { Report } from '../engine/report.js';
import { ServiceError } from './errors.js';
import { loadSigningKey, readSigningKey } from './signing-key.js';

export const RUN_FULL_PROFILE = 'run the full profile to get a receipt';

interface KeyPlace {
  home: string;
  env: NodeJS.ProcessEnv;
}

/** The 409 a door answers when a job (or a CLI check) has no receipt because the check was not complete. */
export function incompleteCheckError(err: EngineError): ServiceError {
  return new ServiceError(err.code, err.message, err.details, 409);
}

/** Signs the receipt of a complete check; `receipt_incomplete_check` (409) for any other. */
export function issueReceipt(report: Report, jobId: string, options: KeyPlace): Receipt {
  let input;
  try {
    input = receiptInputFromReport(report, jobId);
  } catch (err) {
    if (err instanceof EngineError && err.code === 'receipt_incomplete_check') throw incompleteCheckError(err);
    throw err;
  }
  return buildReceipt(input, loadSigningKey(options).key);
}

// ---------------------------------------------------------------------------------------------------------------
// Verifying

export interface VerifyOptions extends KeyPlace {
  /** Hash of the file to publish (refused unless a SHA-256). */
  fileSha256?: unknown;
  /** The file to publish: hashed, and probed so coverage is judged for exactly its media. */
  filePath?: string;
  signal?: AbortSignal;
}

export type ReceiptCheck = ReceiptVerification;

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

/** Verifies a receipt with this data dir's secret. Never creates or changes a key. */
export async function checkReceipt(receipt: unknown, options: VerifyOptions): Promise<ReceiptCheck> {
  const fileSha256 = options.fileSha256 !== undefined ? options.fileSha256 : options.filePath ? await hashFile(options.filePath) : undefined;
  const mediaShape = options.filePath ? await mediaShapeOfFile(options.filePath, options.signal) : undefined;
  return verifyReceipt(receipt, { hmac: readSigningKey(options)?.key ?? null }, { fileSha256, mediaShape });
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
