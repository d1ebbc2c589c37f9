// bin `preflight`: check a file on disk, verify a receipt, print the receipt keys. Exit codes: 0 PASS (and WATCH unless
// --fail-on watch), 1 BLOCK, 2 error (also: --receipt asked of a check that did not run its whole profile).
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { ENGINE_VERSION, timecodeFpsOf } from '../engine/check.js';
import { EngineError } from '../engine/errors.js';
import { resolveMarkerEdl } from '../engine/exports/resolve-edl.js';
import { avidMarkers } from '../engine/exports/avid-markers.js';
import { renderReportHtml } from '../engine/report-html/index.js';
import { editorExportOptions } from '../engine/exports/editor-options.js';
import { fcpxmlMarkers } from '../engine/exports/fcpxml.js';
import { markersCsv } from '../engine/exports/markers-csv.js';
import { premiereXml } from '../engine/exports/premiere-xml.js';
import { MEDIA_SHAPE_LABELS } from '../engine/delivery-requirements.js';
import type { Receipt } from '../engine/receipt.js';
import { BATCH_FORMATS, batchCommand, BatchUsageError, type BatchFlags } from './cli/batch/command.js';
import { isBatch } from './cli/batch/mode.js';
import { checkFile } from './check-file.js';
import { progressBar } from './cli/progress.js';
import { renderSummary } from './cli/summary.js';
import { loadConfig } from './config.js';
import { ServiceError } from './errors.js';
import { loadSidecars } from './sidecars/index.js';
import { receiptKeyDocument, rotateReceiptKey } from './receipt-keys.js';
import { checkReceipt, issueReceipt, type ReceiptCheck } from './receipts.js';

export const EXIT = { ok: 0, block: 1, error: 2 } as const;

class CliError extends Error {}

interface CheckFlags {
  manifest?: string;
  transcript?: string;
  watchlist?: string;
  expectedScript?: string;
  sidecarDir?: string;
  profile?: string;
  checks?: string;
  json?: boolean;
  markers?: string;
  edl?: string;
  fcpxml?: string;
  html?: string;
  avid?: string;
  premiereXml?: string;
  receipt?: string;
  failOn: 'watch' | 'block';
}

type CheckCommandFlags = CheckFlags & Omit<BatchFlags, keyof CheckFlags>;

function writeOutput(path: string, content: string, what: string): void {
  try {
    writeFileSync(path, content);
  } catch (err) {
    throw new CliError(`could not write the ${what} to ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

async function checkCommand(file: string | undefined, flags: CheckFlags): Promise<number> {
  const config = loadConfig();
  const { sidecars } = await loadSidecars({
    manifest_path: flags.manifest,
    transcript_path: flags.transcript,
    watchlist_path: flags.watchlist,
    expected_script_path: flags.expectedScript,
    sidecar_dir: flags.sidecarDir,
  });
  if (!file && flags.receipt) throw new CliError('--receipt needs a media file: a sidecar-only check has no media hash to sign');
  const bar = flags.json ? progressBar({ isTTY: false } as NodeJS.WriteStream) : progressBar();
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  let result;
  try {
    result = await checkFile(file ?? null, {
      sidecars,
      profile: flags.profile,
      checks: flags.checks,
      signal: controller.signal,
      onProgress: (pct, stage) => bar.update(pct, stage),
    });
  } finally {
    bar.done();
    process.off('SIGINT', onSigint);
  }
  const { report, media } = result;
  const fps = timecodeFpsOf(media);
  if (flags.markers) writeOutput(flags.markers, markersCsv(report.flags, fps), 'marker CSV');
  if (flags.edl) writeOutput(flags.edl, resolveMarkerEdl(report.flags, { fps }), 'marker EDL');
  const editor = editorExportOptions(report, media, fps);
  if (flags.fcpxml) writeOutput(flags.fcpxml, fcpxmlMarkers(report.flags, editor), 'FCPXML');
  if (flags.avid) writeOutput(flags.avid, avidMarkers(report.flags, editor), 'Avid markers');
  if (flags.premiereXml) writeOutput(flags.premiereXml, premiereXml(report.flags, editor), 'Premiere XML');
  let receipt: Receipt | null = null;
  let withheld: string | null = null;
  if (flags.receipt) {
    try {
      receipt = issueReceipt(report, `local_${randomUUID().replaceAll('-', '').slice(0, 20)}`, { home: config.home, env: config.env });
      writeOutput(flags.receipt, `${JSON.stringify(receipt, null, 2)}\n`, 'receipt');
    } catch (err) {
      if (!(err instanceof ServiceError && err.code === 'receipt_incomplete_check')) throw err;
      withheld = err.message;
    }
  }
  if (flags.html) writeOutput(flags.html, renderReportHtml({ report, signals: result.signals, receipt }), 'HTML report');
  if (flags.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else process.stdout.write(`${renderSummary(report)}\n`);
  // The report stands; the receipt that was asked for does not exist, and a script must not carry on as if it did.
  if (withheld) {
    process.stderr.write(`preflight: ${withheld} (nothing was written to ${flags.receipt})\n`);
    return EXIT.error;
  }
  if (report.verdict === 'BLOCK') return EXIT.block;
  if (report.verdict === 'WATCH' && flags.failOn === 'watch') return EXIT.block;
  return EXIT.ok;
}

const SINGLE_FILE_OUTPUTS = ['markers', 'edl', 'fcpxml', 'avid', 'premiereXml', 'html', 'receipt'] as const;

function batchFlagsOf(flags: CheckCommandFlags): BatchFlags {
  const given = SINGLE_FILE_OUTPUTS.filter((name) => flags[name] !== undefined);
  if (given.length) {
    const option = `--${given[0].replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    throw new BatchUsageError(`${option} names one output file; for several files give --report-dir (reports, HTML and receipts per file) and --export for marker files`);
  }
  return { ...flags, format: flags.format ?? (flags.json ? 'json' : undefined) };
}

interface VerifyFlags {
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
async function verifyCommand(receiptPath: string, flags: VerifyFlags): Promise<number> {
  const config = loadConfig();
  const receipt = readJsonFile(receiptPath, 'receipt');
  const publicKeys = flags.publicKey === undefined ? undefined : readJsonFile(flags.publicKey, 'key document');
  const result = await checkReceipt(receipt, { home: config.home, env: config.env, filePath: flags.file, publicKeys, fetchIssuerKeys: true });
  process.stdout.write(`${flags.json ? JSON.stringify(result, null, 2) : verifyReport(result, flags)}\n`);
  if (!result.checked) return EXIT.error;
  return result.valid && result.coverage?.complete ? EXIT.ok : EXIT.block;
}

function receiptKeysCommand(flags: { rotate?: boolean }): number {
  const config = loadConfig();
  const options = { home: config.home, env: config.env };
  if (flags.rotate) {
    const rotation = rotateReceiptKey(options);
    process.stderr.write(
      `preflight: retired receipt key ${rotation.retired} (its public key stays published)${rotation.active ? `; receipts are now signed with ${rotation.active}` : ''}.\n` +
        (rotation.next ? `preflight: ${rotation.next}\n` : ''),
    );
  }
  process.stdout.write(`${JSON.stringify(receiptKeyDocument(options), null, 2)}\n`);
  return EXIT.ok;
}

function program(): Command {
  const cmd = new Command('preflight')
    .description('Deterministic pre-upload QC for video, audio and images.')
    .version(ENGINE_VERSION)
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  cmd
    .command('check')
    .description('Check a media file (and its sidecars) and print the verdict with timestamped, repairable flags.')
    .argument('[files...]', 'video, audio or image files, globs or directories; leave out to check sidecars alone')
    .option('--manifest <path>', 'preflight-manifest/1 JSON')
    .option('--transcript <path>', 'transcript: .txt, .json, .srt or .vtt')
    .option('--watchlist <path>', 'watchlist JSON')
    .option('--expected-script <path>', 'expected script: .txt or .json')
    .option('--sidecar-dir <dir>', 'directory of per-chunk JSON reports (and well-known sidecar files)')
    .option('--profile <profile>', 'auto (default), a request/pipeline profile or a delivery profile')
    .option('--checks <gates>', 'comma-separated gate names instead of the profile defaults: a repair step, no receipt')
    .option('--json', 'print the full report as JSON on stdout')
    .option('--markers <out.csv>', 'write the flags as a marker CSV')
    .option('--edl <out.edl>', 'write the flags as a DaVinci Resolve marker EDL')
    .option('--html <out.html>', 'write the visual report (self-contained HTML)')
    .option('--fcpxml <out.fcpxml>', 'write the flags as Final Cut Pro (FCPXML 1.9) to-do markers')
    .option('--avid <out.txt>', 'write the flags as Avid Media Composer markers')
    .option('--premiere-xml <out.xml>', 'write the flags as Premiere Pro markers (FCP7 XML)')
    .option('--receipt <out.json>', 'write a signed receipt (a full check only: with --checks it exits 2 and writes none)')
    .addOption(new Option('--fail-on <level>', 'exit 1 on this verdict or worse').choices(['watch', 'block']).default('block'))
    .option('-r, --recursive', 'batch: read the sub-directories of the directories given')
    .option('-j, --jobs <n>', 'batch: files checked at once (default: from the free cores and memory)')
    .option('--report-dir <dir>', 'batch: write each report (JSON, HTML, exports, receipt) and index.html/index.json; unchanged files are reused')
    .option('--export <kinds>', 'batch: marker exports written beside each report: markers,edl,fcpxml,avid,premiere-xml')
    .option('--no-reuse', 'batch: check every file again even when --report-dir holds its unchanged report')
    .addOption(new Option('--format <format>', 'batch output: text (table), json (one array), junit (JUnit XML), github (workflow annotations)').choices([...BATCH_FORMATS]))
    .action(async (files: string[], flags: CheckCommandFlags) => {
      process.exitCode = (await isBatch(files, flags)) ? await batchCommand(files, batchFlagsOf(flags)) : await checkCommand(files[0], flags);
    });
  cmd
    .command('verify')
    .description(
      'Verify a receipt: its signature (Ed25519 with the issuer\'s public keys, or HMAC with this data dir\'s secret), that --file is the file it ' +
        'describes, and that it covers its whole profile. Never creates or changes a key. Exit 0 valid, 1 invalid or incomplete, 2 cannot check.',
    )
    .argument('<receipt>', 'receipt JSON file')
    .option('--file <media>', 'the media file the receipt should describe')
    .option('--public-key <keys.json>', "the issuer's key document (JWKS, from `preflight receipt-keys` or <issuer>/.well-known/preflight-receipt-keys.json)")
    .option('--json', 'print the verification result as JSON')
    .action(async (receipt: string, flags: VerifyFlags) => {
      process.exitCode = await verifyCommand(receipt, flags);
    });
  cmd
    .command('receipt-keys')
    .description('Print the public keys receipts are signed with (JWKS, current and retired); creates the signing key on first use.')
    .option('--rotate', 'retire the signing key (its public key stays published, so its receipts keep verifying) and sign with a new one')
    .action((flags: { rotate?: boolean }) => {
      process.exitCode = receiptKeysCommand(flags);
    });
  cmd
    .command('serve')
    .description('Serve the REST /v1 API, the public documents and MCP over HTTP at /mcp, behind API keys (options: preflight serve --help).')
    .action(() => {
      throw new CliError('run `preflight serve` through the preflight bin (bin/preflight.js)');
    });
  cmd
    .command('mcp')
    .description('Serve the agent tools over MCP stdio for Claude, Cursor, VS Code, Codex (options: preflight mcp --help).')
    .action(() => {
      throw new CliError('run `preflight mcp` through the preflight bin (bin/preflight.js)');
    });
  return cmd;
}

export async function main(argv: string[]): Promise<number> {
  try {
    await program().parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? EXIT.ok : EXIT.error;
    }
    const message = err instanceof EngineError || err instanceof ServiceError || err instanceof CliError || err instanceof BatchUsageError ? err.message : `unexpected error: ${(err as Error).message}`;
    process.stderr.write(`preflight: ${message}\n`);
    if (process.env.PREFLIGHT_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
    return EXIT.error;
  }
}

process.exitCode = await main(process.argv);
