// `preflight verify`: a receipt's signature, its file and its coverage, in words or as JSON.
import { readFileSync } from 'node:fs';
import { MEDIA_SHAPE_LABELS } from '../../engine/delivery-requirements.js';
import { loadConfig } from '../config.js';
import { checkReceipt, type ReceiptCheck } from '../receipts.js';
import { CliError, EXIT } from './exit.js';

export interface VerifyFlags {
  file?: string;
  publicKey?: string;
  json?: boolean;
}

function readJsonFile(path: string, what: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(code === 'ENOENT' ? `no ${what} file at ${path}` : `${path} is not a JSON ${what} (${code ?? (err as Error).message})`);
  }
}

function signatureLine(r: ReceiptCheck, keyFile: string | undefined): string {
  const used: string[] = [];
  if (r.signatures.ed25519 === 'valid') {
    const origin = r.keySource === 'given' ? keyFile : r.keySource === 'issuer' ? r.keysUrl : "this data dir's keys";
    used.push(`Ed25519 key ${r.keyId} from ${origin}`);
  }
  if (r.signatures.hmac === 'valid') used.push("HMAC with this data dir's secret");
  return `signature authentic (${used.join('; ')})`;
}

function coverageLine(r: ReceiptCheck): string {
  const c = r.coverage;
  if (!c) return '';
  const media = c.media ? ` for ${MEDIA_SHAPE_LABELS[c.media]}${c.judgedFrom === 'gates' ? ' (judged from its gates)' : ''}` : '';
  return c.complete ? `coverage: complete: every gate ${c.profile} requires${media} ran (${c.required.length})` : `coverage: INCOMPLETE${media}: ${c.reason}`;
}

function verifyReport(r: ReceiptCheck, flags: VerifyFlags): string {
  if (!r.checked) {
    const hint = r.keySource === 'none' && r.keyId ? ` Pass the issuer's key document with --public-key keys.json${r.keysUrl ? ` (published at ${r.keysUrl})` : ''}.` : '';
    return `cannot verify: ${r.reason}.${hint}`;
  }
  if (!r.authentic || !r.valid) return `INVALID: ${r.reason}`;
  const lines = [
    `valid: ${signatureLine(r, flags.publicKey)}${r.hashMatches === true ? ', file hash matches' : ''}; verdict ${r.verdict}`,
    `issuer: ${r.signed?.issuer}`,
    coverageLine(r),
  ];
  if (r.uploadReady) lines.push(r.hashMatches ? 'publish: yes' : 'publish: yes, if sha256 is the hash of the file you publish (give it with --file)');
  else lines.push(`publish: no (${r.verdict === 'BLOCK' ? `blocked by ${r.signed?.blocked.join(', ')}` : 'the receipt does not cover its whole profile: run the full profile to get a receipt'})`);
  return lines.join('\n');
}

/** Exit 0: valid and covering its profile; 1: invalid or incomplete; 2: it could not be checked (the output says what is needed). */
export async function verifyCommand(receiptPath: string, flags: VerifyFlags): Promise<number> {
  const config = loadConfig();
  const receipt = readJsonFile(receiptPath, 'receipt');
  const publicKeys = flags.publicKey === undefined ? undefined : readJsonFile(flags.publicKey, 'key document');
  const result = await checkReceipt(receipt, { home: config.home, env: config.env, filePath: flags.file, publicKeys, fetchIssuerKeys: true });
  process.stdout.write(`${flags.json ? JSON.stringify(result, null, 2) : verifyReport(result, flags)}\n`);
  if (!result.checked) return EXIT.error;
  return result.valid && result.coverage?.complete ? EXIT.ok : EXIT.block;
}
