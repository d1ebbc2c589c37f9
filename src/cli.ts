// bin `preflight`: check a file on disk, verify a receipt, print the receipt keys, run a queue worker. Exit codes: 0 PASS
// (and WATCH unless --fail-on watch), 1 BLOCK, 2 error (also: --receipt asked of a check that did not run its whole
// profile).
// Each command's code is imported when that command runs, so `--version`, `--help` and a check start without the rest.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { EngineError } from '../engine/errors.js';
import { ENGINE_VERSION } from '../engine/version.js';
import type { BatchFlags } from './cli/batch/command.js';
import { isBatch } from './cli/batch/mode.js';
import { BATCH_FORMATS, BatchUsageError } from './cli/batch/usage.js';
import type { CheckFlags } from './cli/check-command.js';
import { CliError, EXIT } from './cli/exit.js';
import type { VerifyFlags } from './cli/verify-command.js';
import type { WorkerFlags } from './cli/worker-command.js';
import { ServiceError } from './errors.js';
import { parseConcurrency } from './worker/concurrency.js';

export { EXIT };

type CheckCommandFlags = CheckFlags & Omit<BatchFlags, keyof CheckFlags>;

const SINGLE_FILE_OUTPUTS = ['markers', 'edl', 'fcpxml', 'avid', 'premiereXml', 'html', 'receipt'] as const;

function batchFlagsOf(flags: CheckCommandFlags): BatchFlags {
  const given = SINGLE_FILE_OUTPUTS.filter((name) => flags[name] !== undefined);
  if (given.length) {
    const option = `--${given[0].replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    throw new BatchUsageError(`${option} names one output file; for several files give --report-dir (reports, HTML and receipts per file) and --export for marker files`);
  }
  return { ...flags, format: flags.format ?? (flags.json ? 'json' : undefined) };
}

async function checkOrBatch(files: string[], flags: CheckCommandFlags): Promise<number> {
  if (await isBatch(files, flags)) {
    const batchFlags = batchFlagsOf(flags);
    const { batchCommand } = await import('./cli/batch/command.js');
    return batchCommand(files, batchFlags);
  }
  const { checkCommand } = await import('./cli/check-command.js');
  return checkCommand(files[0], flags);
}

function graceSeconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 3600) throw new InvalidArgumentError('needs a number of seconds from 0 to 3600.');
  return n;
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
      process.exitCode = await checkOrBatch(files, flags);
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
      const { verifyCommand } = await import('./cli/verify-command.js');
      process.exitCode = await verifyCommand(receipt, flags);
    });
  cmd
    .command('receipt-keys')
    .description('Print the public keys receipts are signed with (JWKS, current and retired); creates the signing key on first use.')
    .option('--rotate', 'retire the signing key (its public key stays published, so its receipts keep verifying) and sign with a new one')
    .action(async (flags: { rotate?: boolean }) => {
      const { receiptKeysCommand } = await import('./cli/receipt-keys-command.js');
      process.exitCode = receiptKeysCommand(flags);
    });
  cmd
    .command('worker')
    .description(
      'Run queued jobs (process_async) and webhook deliveries from the queue of the database this process shares with `preflight serve --no-worker` ' +
        '(PREFLIGHT_DATABASE_URL, and PREFLIGHT_OBJECT_STORE_URL for the media): any number of workers on any number of machines. ' +
        'SIGTERM lets running jobs finish for --grace seconds, then hands them back to the queue; a worker killed outright leaves them to their lease.',
    )
    .option('--concurrency <n>', 'jobs run at once (default: from the cores and free memory)', parseConcurrency)
    .option('--public-url <url>', "the API's public URL (as given to `serve --public-url`): used in webhook payloads' job URLs and as the receipts' issuer")
    .option('--grace <seconds>', 'on SIGTERM, how long running jobs may finish before they are handed back (0 to 3600)', graceSeconds, 30)
    .action(async (flags: WorkerFlags) => {
      const { workerCommand } = await import('./cli/worker-command.js');
      process.exitCode = await workerCommand(flags);
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
