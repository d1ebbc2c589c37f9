// black_frames: runs of black analysis frames, with an allowance at the head and tail of the programme.
import type { FlagDraft, GateContext, GateResult, GateThresholds, VideoSignals } from '../../types.js';
import { t } from '../../profiles/threshold-values.js';
import { defineGate } from '../define.js';
import { severityBand } from '../kit/bands.js';
import { trimCommand } from '../kit/commands.js';
import { gateResult, skippedGate } from '../kit/result.js';
import { round, runsOf, type IndexSpan } from '../kit/stats.js';
import { threshold, thresholdValues } from '../kit/thresholds.js';
import { hms } from '../kit/wording.js';
import { decodedVideo, frameTime, spanSeconds } from './video-timeline.js';

function blackFramesThresholds(): GateThresholds {
  return {
    interiorWatchSeconds: t(0.5, 's', 'Preflight house rule: interior black ≥ 0.5 s is WATCH in every video profile', 'house'),
    interiorBlockSeconds: t(2.0, 's', 'Preflight house rule; Netflix source QC trims commercial black to ≤ 2 s', 'secondary'),
    headTailAllowanceSeconds: t(1.0, 's', 'Netflix source QC: 1 s of black at head and tail is normal', 'secondary'),
    pictureBlackRatio: t(0.98, 'fraction', 'ffmpeg blackdetect pic_th default; EBU QC 0016B minimum area', 'primary'),
    pixelBlackLevel: t(0.1, 'fraction of luma range', 'ffmpeg blackdetect pix_th default', 'primary'),
  };
}

function blackFrames(ctx: GateContext): GateResult {
  const v = decodedVideo(ctx);
  if (typeof v === 'string') return skippedGate('black_frames', v);
  const th = ctx.thresholds;
  const ratio = threshold(th, 'pictureBlackRatio');
  const watch = threshold(th, 'interiorWatchSeconds');
  const block = threshold(th, 'interiorBlockSeconds');
  const allowance = threshold(th, 'headTailAllowanceSeconds');
  const spans = runsOf(v.frameCount, (i) => v.frames.darkFraction[i] >= ratio);
  const flags: FlagDraft[] = [];
  const evidenceThresholds = thresholdValues(th, ['interiorWatchSeconds', 'interiorBlockSeconds', 'headTailAllowanceSeconds', 'pictureBlackRatio', 'pixelBlackLevel']);
  const end = frameTime(v, v.frameCount);
  let head = 0;
  let tail = 0;
  let longestInterior = 0;
  for (const s of spans) {
    const seconds = spanSeconds(v, s);
    const start = frameTime(v, s.first);
    const stop = frameTime(v, s.last + 1);
    const atHead = s.first === 0;
    const atTail = s.last === v.frameCount - 1;
    if (atHead && atTail) {
      flags.push({
        severity: 'BLOCK',
        start,
        end: stop,
        summary: `Picture is black for the whole file (${round(seconds)} s)`,
        evidence: { durationSeconds: round(seconds, 3), position: 'whole', threshold: evidenceThresholds },
        repair: {
          action: 're_render',
          reachable: false,
          instruction: 'The export contains no picture. Re-export from the edit with the video track enabled and check the timeline has picture.',
          verify: 'Re-run the check with checks=black_frames; expect no black_frames flag.',
        },
      });
      continue;
    }
    if (atHead) head = seconds;
    if (atTail) tail = seconds;
    const excess = atHead || atTail ? seconds - allowance : seconds;
    if (!atHead && !atTail) longestInterior = Math.max(longestInterior, seconds);
    const severity = severityBand(excess, watch, block);
    if (!severity) continue;
    const where = atHead ? 'head' : atTail ? 'tail' : 'interior';
    const span = `${hms(start)}-${hms(stop)}`;
    const cut = atHead ? trimCommand(ctx.media, 'head', stop - allowance) : atTail ? trimCommand(ctx.media, 'tail', start + allowance) : null;
    flags.push({
      severity,
      start,
      end: stop,
      summary:
        where === 'interior'
          ? `${round(seconds)} s of black picture mid-programme`
          : `${round(seconds)} s of black at the ${where} (${round(allowance)} s is normal)`,
      evidence: { durationSeconds: round(seconds, 3), position: where, picturePct: round(100 * minDark(v, s), 1), threshold: evidenceThresholds },
      repair:
        where === 'interior'
          ? {
              action: 're_render_span',
              reachable: true,
              instruction: `Replace ${span} with picture, or cut the span and re-render.`,
              verify: `Re-run the check with checks=black_frames; expect no black_frames flag in ${span}.`,
            }
          : {
              action: where === 'head' ? 'trim_head' : 'trim_tail',
              reachable: true,
              instruction: `Trim the ${where} black to at most ${allowance} s (${span} is black): ${cut}`,
              verify: `Re-run the check with checks=black_frames; expect no ${where} black_frames flag.`,
            },
    });
  }
  return gateResult(
    'black_frames',
    {
      blackSegments: spans.length,
      totalBlackSeconds: round(spans.reduce((a, s) => a + spanSeconds(v, s), 0), 3),
      longestInteriorBlackSeconds: round(longestInterior, 3),
      headBlackSeconds: round(head, 3),
      tailBlackSeconds: round(tail, 3),
      analysedSeconds: round(end - v.startSeconds, 3),
    },
    flags,
  );
}

function minDark(v: VideoSignals, s: IndexSpan): number {
  let m = 1;
  for (let i = s.first; i <= s.last; i++) m = Math.min(m, v.frames.darkFraction[i]);
  return m;
}

export const blackFramesGate = defineGate({
  id: 'black_frames',
  area: 'visual',
  title: 'Black picture inside the programme',
  algorithm:
    'Each analysis frame counts as black when at least pictureBlackRatio of its pixels are at or below pixelBlackLevel of the luma range ' +
    '(the ffmpeg blackdetect rule, on every frame of the single decode pass). Runs of black frames touching the start or end get headTailAllowanceSeconds ' +
    'free; any other run is judged by its length against the WATCH and BLOCK limits. A file that is black throughout is BLOCK. Runs are closed at end of file.',
  requires: { kinds: ['video'], signals: ['video'] },
  thresholds: blackFramesThresholds,
  run: blackFrames,
});
