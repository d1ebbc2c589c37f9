// `preflight check` over many files: expand the arguments, check each (bounded concurrency, reuse under
// --report-dir), show progress, then print the batch in the asked format and exit on the worst verdict.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import pLimit from 'p-limit';
import { loadConfig } from '../../config.js';
import { describeSkipped } from '../../describe-skipped.js';
import { checkFile } from './check-file.js';
import { parseExportKinds } from './exports.js';
import { batchJson } from './formats/json.js';
import { githubAnnotations } from './formats/github.js';
import { batchJunit } from './formats/junit.js';
import { batchTable } from './formats/text.js';
import { expandInputs, InputError } from './inputs.js';
import { defaultJobs, MAX_JOBS } from './jobs.js';
import { batchProgress } from './progress.js';
import { ReportDir } from './report-dir.js';
import { batchExitCode, type BatchRow } from './row.js';
import type { SharedSidecarFlags } from './sidecars.js';
import { BATCH_FORMATS, BatchUsageError, type BatchFormat } from './usage.js';

export { BATCH_FORMATS, BatchUsageError, type BatchFormat };

export interface BatchFlags extends SharedSidecarFlags {
  profile?: string;
  checks?: string;
  failOn: 'watch' | 'block';
  recursive?: boolean;
  jobs?: string;
  reportDir?: string;
  export?: string;
  reuse: boolean;
  format?: BatchFormat;
}

function jobsOf(given: string | undefined): number {
  if (given === undefined) return defaultJobs();
  const n = Number(given);
  if (!Number.isInteger(n) || n < 1 || n > MAX_JOBS) throw new BatchUsageError(`--jobs must be a whole number from 1 to ${MAX_JOBS}, got ${given}`);
  return n;
}

export async function batchCommand(args: readonly string[], flags: BatchFlags): Promise<number> {
  const t0 = performance.now();
  const config = loadConfig();
  const jobs = jobsOf(flags.jobs);
  let exports;
  try {
    exports = parseExportKinds(flags.export);
  } catch (err) {
    throw new BatchUsageError((err as Error).message);
  }
  if (exports.length && !flags.reportDir) throw new BatchUsageError('--export writes beside each report: give --report-dir too');
  let expanded;
  try {
    expanded = await expandInputs(args, { recursive: flags.recursive ?? false, exclude: flags.reportDir ? [flags.reportDir] : [] });
  } catch (err) {
    if (err instanceof InputError) throw new BatchUsageError(err.message);
    throw err;
  }
  if (args.length === 0) throw new BatchUsageError('give the files, globs or directories to check');
  if (expanded.files.length === 0) {
    const hint = flags.recursive ? '' : ' (sub-directories are read with --recursive)';
    const oneDirectory = args.length === 1 && (await stat(args[0]).catch(() => null))?.isDirectory();
    const where = oneDirectory ? `${args[0]} is a directory holding` : `${args.join(', ')} hold`;
    throw new BatchUsageError(`${where} no media files${hint}${describeSkipped(expanded.skipped.map(({ shown, reason }) => ({ file: shown, reason })))}`);
  }
  const reportDir = flags.reportDir ? new ReportDir(resolve(flags.reportDir)) : null;
  const progress = batchProgress(expanded.files.length);
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  const keys = new Map<string, string>();
  let rows: BatchRow[];
  try {
    rows = await pLimit(jobs).map(expanded.files, async (input) => {
      progress.started(input.shown);
      const { row, key } = await checkFile(input, {
        sidecars: flags,
        profile: flags.profile,
        checks: flags.checks,
        exports,
        reportDir,
        reuse: flags.reuse,
        keyPlace: { home: config.home, env: config.env },
        signal: controller.signal,
        onProgress: (pct, stage) => progress.update(input.shown, pct, stage),
      });
      if (key) keys.set(input.path, key);
      progress.finished(row);
      return row;
    });
  } finally {
    progress.done();
    process.off('SIGINT', onSigint);
  }
  reportDir?.writeIndex(rows, keys);
  const seconds = (performance.now() - t0) / 1000;
  const format = flags.format ?? 'text';
  const shownDir = flags.reportDir ?? null;
  if (format === 'json') process.stdout.write(`${batchJson(rows)}\n`);
  else if (format === 'junit') process.stdout.write(batchJunit(rows, flags.failOn, seconds));
  else if (format === 'github') {
    const annotations = githubAnnotations(rows, flags.failOn);
    process.stdout.write(`${[...annotations, batchTable(rows, shownDir)].join('\n')}\n`);
  } else process.stdout.write(`${batchTable(rows, shownDir)}\n`);
  if (controller.signal.aborted) return 2;
  return batchExitCode(rows, flags.failOn);
}
