// The report (preflight-report/1): verdict, gates with measurements, timestamped flags. Deterministic: the same
// media and options give byte-identical `gates` and `flags`; ids follow the sorted flag order, times live elsewhere.
import { basename } from 'node:path';
import { checkCoverage, incompleteCheckReason, mediaShapeOf, type CheckCoverage } from './delivery-requirements.js';
import type { GateSummary, MediaSummary, Report } from './report-schema.js';
import { formatTimecode, formatTimestamp, frameIndex } from './timecode.js';
import type { Flag, GateResult, GateStatus, MediaInfo, Verdict } from './types.js';

export { REPORT_SCHEMA_VERSION, type GateSummary, type Report } from './report-schema.js';

/** The one sentence every surface (CLI, visual report, agent tools) says about the verdict of a complete check. */
export const UPLOAD_READINESS: Record<Verdict, string> = {
  PASS: 'Upload-ready. No gate raised a flag.',
  WATCH: 'Upload-ready with WATCH flags: review them before publishing.',
  BLOCK: 'Not upload-ready: fix every BLOCK flag and re-run the check.',
};

/**
 * The coverage of a report; reports written before coverage was recorded get it from their gates (their sidecars
 * are unknown, so only the media gates are judged).
 */
export function coverageOf(report: Pick<Report, 'deliveryProfile' | 'media' | 'gates'> & { coverage?: CheckCoverage }): CheckCoverage {
  if (report.coverage) return report.coverage;
  const media = report.media.sha256 ? mediaShapeOf(report.media) : null;
  return checkCoverage({ deliveryProfile: report.deliveryProfile, media, sidecars: [], narrowed: false, results: report.gates });
}

/**
 * Upload-ready: the whole delivery profile was checked and no BLOCK flag remains (WATCH is upload-ready, receipted
 * as PASS). A narrowed check is a repair step: it never calls the asset upload-ready.
 */
export function uploadReadiness(report: Pick<Report, 'verdict' | 'deliveryProfile' | 'media' | 'gates'> & { coverage?: CheckCoverage }): { ready: boolean; sentence: string } {
  if (report.verdict === 'BLOCK') return { ready: false, sentence: UPLOAD_READINESS.BLOCK };
  const gap = incompleteCheckReason(coverageOf(report));
  if (gap) return { ready: false, sentence: `Not upload-ready yet: ${report.verdict} on the gates that ran, but ${gap}.` };
  return { ready: true, sentence: UPLOAD_READINESS[report.verdict] };
}

export function verdictOf(flags: { severity: string }[]): Verdict {
  if (flags.some((f) => f.severity === 'BLOCK')) return 'BLOCK';
  if (flags.some((f) => f.severity === 'WATCH')) return 'WATCH';
  return 'PASS';
}

export function mediaSummary(media: MediaInfo): Omit<MediaSummary, 'sha256'> {
  const v = media.video;
  const a = media.audio;
  return {
    fileName: basename(media.path),
    kind: media.kind,
    container: media.container,
    durationSeconds: Math.round(media.durationSeconds * 1000) / 1000,
    sizeBytes: media.sizeBytes,
    video: v
      ? {
          codec: v.codec,
          width: v.width,
          height: v.height,
          displayWidth: v.displayWidth,
          displayHeight: v.displayHeight,
          rotation: v.rotation,
          fps: Math.round(v.fps * 1000) / 1000,
          variableFrameRate: v.variableFrameRate,
          pixelFormat: v.pixelFormat,
          hdr: v.hdr,
        }
      : null,
    audio: a ? { codec: a.codec, sampleRate: a.sampleRate, channels: a.channels, channelLayout: a.channelLayout } : null,
    streams: { video: media.videoStreamCount, audio: media.audioStreamCount, subtitle: media.subtitleStreamCount, other: media.otherStreams.length },
  };
}

const SEVERITY_ORDER = { BLOCK: 0, WATCH: 1 } as const;

/** Sorts flags by start time, then gate, severity, end and summary, and gives them ids and timestamps. */
export function finaliseFlags(results: GateResult[], fps: number): Flag[] {
  const drafts = results.flatMap((r) => r.flags.map((f) => ({ ...f, gate: r.gate })));
  drafts.sort(
    (a, b) =>
      a.start - b.start ||
      a.gate.localeCompare(b.gate) ||
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      a.end - b.end ||
      a.summary.localeCompare(b.summary),
  );
  return drafts.map((f, i) => ({
    id: `f_${String(i + 1).padStart(4, '0')}`,
    gate: f.gate,
    severity: f.severity,
    timestamp: formatTimestamp(Math.max(0, f.start)),
    start: round3(f.start),
    end: round3(f.end),
    timecode: formatTimecode(Math.max(0, f.start), fps),
    frame: frameIndex(Math.max(0, f.start), fps),
    summary: f.summary,
    evidence: f.evidence,
    repair: f.repair,
  }));
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

export function gateSummaries(results: GateResult[]): GateSummary[] {
  return results.map(({ flags, ...rest }) => ({ ...rest, flagCount: flags.length }));
}

export function countStatuses(results: GateResult[], status: GateStatus): number {
  return results.filter((r) => r.status === status).length;
}
