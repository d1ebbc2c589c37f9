// `preflight check` of one file (or of sidecars alone). The marker exports, the HTML report and the receipt load only
// when their option is given: a plain check starts decoding without them.
import { randomUUID } from 'node:crypto';
import { timecodeFpsOf } from '../../engine/check.js';
import type { Receipt } from '../../engine/receipt.js';
import { checkFile } from '../check-file.js';
import { loadConfig } from '../config.js';
import { ServiceError } from '../errors.js';
import { loadSidecars } from '../sidecars/index.js';
import { CliError, EXIT } from './exit.js';
import { progressBar } from './progress.js';
import { startupTrace } from './startup-trace.js';
import { renderSummary } from './summary.js';
import { writeOutput } from './write-output.js';

export interface CheckFlags {
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

type FileCheck = Awaited<ReturnType<typeof checkFile>>;

async function writeEditorExports(result: FileCheck, flags: CheckFlags): Promise<void> {
  if (!(flags.markers || flags.edl || flags.fcpxml || flags.avid || flags.premiereXml)) return;
  const [{ markersCsv }, { resolveMarkerEdl }, { editorExportOptions }, { fcpxmlMarkers }, { avidMarkers }, { premiereXml }] = await Promise.all([
    import('../../engine/exports/markers-csv.js'),
    import('../../engine/exports/resolve-edl.js'),
    import('../../engine/exports/editor-options.js'),
    import('../../engine/exports/fcpxml.js'),
    import('../../engine/exports/avid-markers.js'),
    import('../../engine/exports/premiere-xml.js'),
  ]);
  const { report, media } = result;
  const fps = timecodeFpsOf(media);
  if (flags.markers) writeOutput(flags.markers, markersCsv(report.flags, fps), 'marker CSV');
  if (flags.edl) writeOutput(flags.edl, resolveMarkerEdl(report.flags, { fps }), 'marker EDL');
  const editor = editorExportOptions(report, media, fps);
  if (flags.fcpxml) writeOutput(flags.fcpxml, fcpxmlMarkers(report.flags, editor), 'FCPXML');
  if (flags.avid) writeOutput(flags.avid, avidMarkers(report.flags, editor), 'Avid markers');
  if (flags.premiereXml) writeOutput(flags.premiereXml, premiereXml(report.flags, editor), 'Premiere XML');
}

export async function checkCommand(file: string | undefined, flags: CheckFlags): Promise<number> {
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
  const trace = startupTrace();
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
      onProgress: (pct, stage) => {
        trace?.(pct, stage);
        bar.update(pct, stage);
      },
    });
  } finally {
    bar.done();
    process.off('SIGINT', onSigint);
  }
  const { report } = result;
  await writeEditorExports(result, flags);
  let receipt: Receipt | null = null;
  let withheld: string | null = null;
  if (flags.receipt) {
    const { issueReceipt } = await import('../receipts.js');
    try {
      receipt = issueReceipt(report, `local_${randomUUID().replaceAll('-', '').slice(0, 20)}`, { home: config.home, env: config.env });
      writeOutput(flags.receipt, `${JSON.stringify(receipt, null, 2)}\n`, 'receipt');
    } catch (err) {
      if (!(err instanceof ServiceError && err.code === 'receipt_incomplete_check')) throw err;
      withheld = err.message;
    }
  }
  if (flags.html) {
    const { renderReportHtml } = await import('../../engine/report-html/index.js');
    writeOutput(flags.html, renderReportHtml({ report, signals: result.signals, receipt }), 'HTML report');
  }
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
