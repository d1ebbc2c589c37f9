// bin `preflight`: check a file on disk, verify a receipt. Exit codes: 0 PASS (and WATCH unless --fail-on watch), 1 BLOCK, 2 error.
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { ENGINE_VERSION, runCheck, timecodeFpsOf } from '../engine/check.js';
import { EngineError } from '../engine/errors.js';
import { resolveMarkerEdl } from '../engine/exports/resolve-edl.js';
import { avidMarkers } from '../engine/exports/avid-markers.js';
import { renderReportHtml } from '../engine/report-html/index.js';
import { editorExportOptions } from '../engine/exports/editor-options.js';
import { fcpxmlMarkers } from '../engine/exports/fcpxml.js';
import { markersCsv } from '../engine/exports/markers-csv.js';
import { premiereXml } from '../engine/exports/premiere-xml.js';
import { buildReceipt, receiptInputFromReport, sha256File, verifyReceipt } from '../engine/receipt.js';
import { meteredMinutes } from './billing/minutes.js';
import { progressBar } from './cli/progress.js';
import { renderSummary } from './cli/summary.js';
import { loadConfig } from './config.js';
import { ServiceError } from './errors.js';
import { loadSidecars } from './sidecars/index.js';
import { loadSigningKey } from './signing-key.js';

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
    result = await runCheck(file ?? null, {
      sidecars,
      profile: flags.profile,
      checks: flags.checks,
      signal: controller.signal,
      onProgress: (pct, stage) => bar.update(pct, stage),
      usage: (media) => ({ minutesMetered: meteredMinutes(media), mode: 'local_cli' }),
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
  let receipt = null;
  if (flags.receipt) {
    const { key } = loadSigningKey({ env: config.env, home: config.home });
    receipt = buildReceipt(receiptInputFromReport(report, `local_${randomUUID().replaceAll('-', '').slice(0, 20)}`), key);
    writeOutput(flags.receipt, `${JSON.stringify(receipt, null, 2)}\n`, 'receipt');
  }
  if (flags.html) writeOutput(flags.html, renderReportHtml({ report, signals: result.signals, receipt }), 'HTML report');
  if (flags.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else process.stdout.write(`${renderSummary(report)}\n`);
  if (report.verdict === 'BLOCK') return EXIT.block;
  if (report.verdict === 'WATCH' && flags.failOn === 'watch') return EXIT.block;
  return EXIT.ok;
}

async function verifyCommand(receiptPath: string, flags: { file?: string; json?: boolean }): Promise<number> {
  const config = loadConfig();
  let receipt: unknown;
  try {
    receipt = JSON.parse(readFileSync(receiptPath, 'utf8'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(code === 'ENOENT' ? `no receipt file at ${receiptPath}` : `${receiptPath} is not a JSON receipt (${(err as Error).message})`);
  }
  let fileSha256: string | undefined;
  if (flags.file) {
    try {
      fileSha256 = await sha256File(flags.file);
    } catch (err) {
      throw new CliError(`could not read ${flags.file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  const { key } = loadSigningKey({ env: config.env, home: config.home });
  const result = verifyReceipt(receipt, key, { fileSha256 });
  const ok = result.valid && result.hashMatches !== false;
  if (flags.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else {
    process.stdout.write(
      ok
        ? `valid: signature authentic${result.hashMatches === true ? ', file hash matches' : ''}; verdict ${result.verdict}\n`
        : `INVALID: ${result.reason ?? (result.hashMatches === false ? 'the file does not match the receipt sha256' : 'verification failed')}\n`,
    );
  }
  return ok ? EXIT.ok : EXIT.block;
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
    .argument('[file]', 'video, audio or image file; leave out to check sidecars alone')
    .option('--manifest <path>', 'preflight-manifest/1 JSON')
    .option('--transcript <path>', 'transcript: .txt, .json, .srt or .vtt')
    .option('--watchlist <path>', 'watchlist JSON')
    .option('--expected-script <path>', 'expected script: .txt or .json')
    .option('--sidecar-dir <dir>', 'directory of per-chunk JSON reports (and well-known sidecar files)')
    .option('--profile <profile>', 'auto (default), a request/pipeline profile or a delivery profile')
    .option('--checks <gates>', 'comma-separated gate names; overrides the profile defaults')
    .option('--json', 'print the full report as JSON on stdout')
    .option('--markers <out.csv>', 'write the flags as a marker CSV')
    .option('--edl <out.edl>', 'write the flags as a DaVinci Resolve marker EDL')
    .option('--html <out.html>', 'write the visual report (self-contained HTML)')
    .option('--fcpxml <out.fcpxml>', 'write the flags as Final Cut Pro (FCPXML 1.9) to-do markers')
    .option('--avid <out.txt>', 'write the flags as Avid Media Composer markers')
    .option('--premiere-xml <out.xml>', 'write the flags as Premiere Pro markers (FCP7 XML)')
    .option('--receipt <out.json>', 'write a signed receipt')
    .addOption(new Option('--fail-on <level>', 'exit 1 on this verdict or worse').choices(['watch', 'block']).default('block'))
    .action(async (file: string | undefined, flags: CheckFlags) => {
      process.exitCode = await checkCommand(file, flags);
    });
  cmd
    .command('verify')
    .description('Verify a receipt signature and, with --file, that the media matches it. Exit 0 valid, 1 invalid, 2 error.')
    .argument('<receipt>', 'receipt JSON file')
    .option('--file <media>', 'the media file the receipt should describe')
    .option('--json', 'print the verification result as JSON')
    .action(async (receipt: string, flags: { file?: string; json?: boolean }) => {
      process.exitCode = await verifyCommand(receipt, flags);
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
    const message = err instanceof EngineError || err instanceof ServiceError || err instanceof CliError ? err.message : `unexpected error: ${(err as Error).message}`;
    process.stderr.write(`preflight: ${message}\n`);
    if (process.env.PREFLIGHT_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
    return EXIT.error;
  }
}

process.exitCode = await main(process.argv);
