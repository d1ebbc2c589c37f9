// Visual gates on the luma analysis signals: black picture, frozen or looped picture, padded canvas.
import type { FlagDraft, GateContext, GateDefinition, GateThresholds, VideoSignals } from '../types.js';
import { severityBand } from './kit/bands.js';
import { trimCommand } from './kit/commands.js';
import { gateResult, skippedGate } from './kit/result.js';
import { round, runsOf, type IndexSpan } from './kit/stats.js';
import { threshold, thresholdValues } from './kit/thresholds.js';
import { hms } from './kit/wording.js';
import { defineGate } from './define.js';
import { visualThresholds } from '../profiles/thresholds-visual.js';

type Span = IndexSpan;
const runs = runsOf;

const frameTime = (v: VideoSignals, i: number) => v.startSeconds + i / v.fps;
const spanSeconds = (v: VideoSignals, s: Span) => (s.last - s.first + 1) / v.fps;

function needVideo(ctx: GateContext, gate: string): VideoSignals | string {
  const v = ctx.signals.video;
  if (!v || v.frameCount === 0) return `needs video: no decodable picture`;
  if (gate !== 'canvas_fill' && !(v.fps > 0)) return 'needs video: a still image has no timeline';
  return v;
}

// ---------------------------------------------------------------- black_frames

function blackFrames(ctx: GateContext): ReturnType<GateDefinition['run']> {
  const v = needVideo(ctx, 'black_frames');
  if (typeof v === 'string') return skippedGate('black_frames', v);
  const th = ctx.thresholds;
  const ratio = threshold(th, 'pictureBlackRatio');
  const watch = threshold(th, 'interiorWatchSeconds');
  const block = threshold(th, 'interiorBlockSeconds');
  const allowance = threshold(th, 'headTailAllowanceSeconds');
  const spans = runs(v.frameCount, (i) => v.frames[i].darkFraction >= ratio);
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

function minDark(v: VideoSignals, s: Span): number {
  let m = 1;
  for (let i = s.first; i <= s.last; i++) m = Math.min(m, v.frames[i].darkFraction);
  return m;
}

// ---------------------------------------------------------------- loop_freeze

function freezeFlags(ctx: GateContext, v: VideoSignals, th: GateThresholds): { flags: FlagDraft[]; longest: number; spans: number; whole: boolean } {
  const noise = threshold(th, 'freezeNoise');
  const watch = threshold(th, 'freezeWatchSeconds');
  const block = threshold(th, 'freezeBlockSeconds');
  // A frame is frozen when it matches its predecessor; black frames belong to black_frames (black wins).
  const frozen = (i: number) => i > 0 && v.frames[i].diff <= noise && v.frames[i].darkFraction < 0.98;
  const spans = runs(v.frameCount, frozen).map((s) => ({ first: s.first - 1, last: s.last }));
  const flags: FlagDraft[] = [];
  let longest = 0;
  const whole = spans.length === 1 && spans[0].first <= 0 && spans[0].last === v.frameCount - 1;
  for (const s of spans) {
    const seconds = spanSeconds(v, s);
    longest = Math.max(longest, seconds);
    let severity = severityBand(seconds, watch, block);
    if (!severity) continue;
    // A still picture throughout is an audiogram or slideshow more often than a broken render.
    if (whole && ctx.media.audio && ctx.deliveryProfile.id !== 'ai_render_gate') severity = 'WATCH';
    const start = frameTime(v, s.first);
    const stop = frameTime(v, s.last + 1);
    const span = `${hms(start)}-${hms(stop)}`;
    flags.push({
      severity,
      start,
      end: stop,
      summary: whole ? `Picture is still for the whole file (${round(seconds)} s)` : `Picture frozen for ${round(seconds)} s`,
      evidence: {
        kind: 'freeze',
        durationSeconds: round(seconds, 3),
        meanFrameDifference: round(maxDiff(v, s), 5),
        threshold: thresholdValues(th, ['freezeWatchSeconds', 'freezeBlockSeconds', 'freezeNoise']),
      },
      repair: {
        action: 're_render_span',
        reachable: false,
        instruction: whole
          ? 'The whole picture is one still frame. If that is intended (audiogram, cover art), keep it; otherwise re-export with the video track rendered.'
          : `Replace the frozen picture ${span} with moving footage (re-render the span from source, or cut it), then re-export.`,
        verify: `Re-run the check with checks=loop_freeze; expect no freeze flag in ${span}.`,
      },
    });
  }
  return { flags, longest, spans: spans.length, whole };
}

function maxDiff(v: VideoSignals, s: Span): number {
  let m = 0;
  for (let i = s.first + 1; i <= s.last; i++) m = Math.max(m, v.frames[i].diff);
  return m;
}

function loopFlags(v: VideoSignals, th: GateThresholds): { flags: FlagDraft[]; repeats: number; longest: number } {
  const watch = threshold(th, 'loopWatchSeconds');
  const block = threshold(th, 'loopBlockSeconds');
  const repeats = v.repeats;
  const flags: FlagDraft[] = [];
  let longest = 0;
  for (const r of repeats) {
    const seconds = r.frames / v.fps;
    longest = Math.max(longest, seconds);
    const severity = severityBand(seconds, watch, block);
    if (!severity) continue;
    const start = frameTime(v, r.repeatFrame);
    const stop = frameTime(v, r.repeatFrame + r.frames);
    const source = frameTime(v, r.sourceFrame);
    const span = `${hms(start)}-${hms(stop)}`;
    flags.push({
      severity,
      start,
      end: stop,
      summary: `${round(seconds)} s of picture repeats ${hms(source)} (looped sequence)`,
      evidence: {
        kind: 'loop',
        durationSeconds: round(seconds, 3),
        repeatOfStart: round(source, 3),
        repeatOfEnd: round(source + seconds, 3),
        offsetSeconds: round(start - source, 3),
        threshold: thresholdValues(th, ['loopWatchSeconds', 'loopBlockSeconds']),
      },
      repair: {
        action: 're_render_span',
        reachable: false,
        instruction: `The picture at ${span} repeats ${hms(source)}-${hms(source + seconds)} frame for frame. Replace the repeat with new footage (or re-generate the shot), or cut it if the repeat is unintended.`,
        verify: `Re-run the check with checks=loop_freeze; expect no loop flag in ${span}.`,
      },
    });
  }
  return { flags, repeats: repeats.length, longest };
}

function loopFreeze(ctx: GateContext): ReturnType<GateDefinition['run']> {
  const v = needVideo(ctx, 'loop_freeze');
  if (typeof v === 'string') return skippedGate('loop_freeze', v);
  const freeze = freezeFlags(ctx, v, ctx.thresholds);
  const loops = freeze.whole ? { flags: [], repeats: 0, longest: 0 } : loopFlags(v, ctx.thresholds);
  return gateResult(
    'loop_freeze',
    {
      freezeSegments: freeze.spans,
      longestFreezeSeconds: round(freeze.longest, 3),
      stillThroughout: freeze.whole,
      repeatedSequences: loops.repeats,
      longestRepeatSeconds: round(loops.longest, 3),
    },
    [...freeze.flags, ...loops.flags],
  );
}

// ---------------------------------------------------------------- canvas_fill

function canvasFill(ctx: GateContext): ReturnType<GateDefinition['run']> {
  const v = needVideo(ctx, 'canvas_fill');
  if (typeof v === 'string') return skippedGate('canvas_fill', v);
  const th = ctx.thresholds;
  const c = v.canvas;
  const minShare = threshold(th, 'minShareOfFrames');
  const bars = {
    top: c.barTopFraction,
    bottom: c.barBottomFraction,
    left: c.barLeftFraction,
    right: c.barRightFraction,
  };
  const fill = { top: c.blurTopFraction, bottom: c.blurBottomFraction, left: c.blurLeftFraction, right: c.blurRightFraction };
  const area = (e: typeof bars) => 100 * (1 - (1 - e.top - e.bottom) * (1 - e.left - e.right));
  const barsOn = c.barFramesShare >= minShare || (ctx.media.kind === 'image' && c.framesConsidered > 0);
  const fillOn = c.blurFramesShare >= minShare || (ctx.media.kind === 'image' && c.framesConsidered > 0);
  const barArea = barsOn ? area(bars) : 0;
  const fillArea = fillOn ? area(fill) : 0;
  const total = Math.min(100, barArea + fillArea);
  const measurements = {
    framesConsidered: c.framesConsidered,
    barsPct: { top: pct(bars.top), bottom: pct(bars.bottom), left: pct(bars.left), right: pct(bars.right) },
    fillPct: { top: pct(fill.top), bottom: pct(fill.bottom), left: pct(fill.left), right: pct(fill.right) },
    barFramesShare: round(c.barFramesShare, 3),
    fillFramesShare: round(c.blurFramesShare, 3),
    paddedAreaPct: round(total, 1),
  };
  const severity = c.framesConsidered === 0 ? null : total >= threshold(th, 'blockAreaPct') ? 'BLOCK' : total >= threshold(th, 'watchAreaPct') ? 'WATCH' : null;
  if (!severity) return gateResult('canvas_fill', measurements, []);
  const kind = barArea >= fillArea ? 'bars' : 'blurred or flat fill';
  const axis = bars.left + bars.right + fill.left + fill.right > bars.top + bars.bottom + fill.top + fill.bottom ? 'pillarbox' : 'letterbox';
  const start = v.startSeconds;
  const end = v.fps > 0 ? frameTime(v, v.frameCount) : 0;
  const w = ctx.media.video?.displayWidth ?? 0;
  const h = ctx.media.video?.displayHeight ?? 0;
  return gateResult('canvas_fill', measurements, [
    {
      severity,
      start,
      end,
      summary: `${round(total, 1)} % of the picture is ${kind} padding (${axis})`,
      evidence: { ...measurements, padding: kind, layout: axis, threshold: thresholdValues(th, ['watchAreaPct', 'blockAreaPct', 'minShareOfFrames']) },
      repair: {
        action: 'reframe',
        reachable: false,
        instruction:
          `Content fills only part of the ${w}×${h} canvas (${axis} ${kind}). Re-export with the content reframed to fill the canvas ` +
          `(crop/scale in the edit, or render at the content's own aspect ratio for a platform that accepts it) instead of padding it.`,
        verify: 'Re-run the check with checks=canvas_fill; expect no canvas_fill flag.',
      },
    },
  ]);
}

const pct = (f: number) => round(100 * f, 1);

export const visualGates: GateDefinition[] = [
  defineGate({
    id: 'black_frames',
    area: 'visual',
    title: 'Black picture inside the programme',
    algorithm:
      'Each analysis frame counts as black when at least pictureBlackRatio of its pixels are at or below pixelBlackLevel of the luma range ' +
      '(the ffmpeg blackdetect rule, on every frame of the single decode pass). Runs of black frames touching the start or end get headTailAllowanceSeconds ' +
      'free; any other run is judged by its length against the WATCH and BLOCK limits. A file that is black throughout is BLOCK. Runs are closed at end of file.',
    requires: { kinds: ['video'], signals: ['video'] },
    thresholds: (delivery) => visualThresholds(delivery).black_frames,
    run: blackFrames,
  }),
  defineGate({
    id: 'loop_freeze',
    area: 'visual',
    title: 'Frozen picture and repeated (looped) sequences',
    algorithm:
      'Freeze: consecutive frames whose mean absolute luma difference stays at or below freezeNoise, excluding black (black_frames owns black), ' +
      'judged by run length. Loop: every moving frame gets a 64-bit difference hash and a 24×24 thumbnail; a run of frames that matches an earlier ' +
      'run frame by frame (hash within 6 bits, thumbnail within 1 code value, at least 0.5 s apart, with different picture in between) is a ' +
      'repeated sequence, judged by its length. Detection runs during the decode pass.',
    requires: { kinds: ['video'], signals: ['video'] },
    thresholds: (delivery) => visualThresholds(delivery).loop_freeze,
    run: loopFreeze,
  }),
  defineGate({
    id: 'canvas_fill',
    area: 'visual',
    title: 'Letterbox/pillarbox bars and blurred-fill padding',
    algorithm:
      'On content frames only (mean luma ≥ 12 % and < 85 % dark, so black intros and fades do not vote): bars are flat near-black rows/columns from each edge; ' +
      'fill is a symmetric pair of side bands whose detail (luma gradient) is below blurDetailRatio of the centre, e.g. a blurred copy behind vertical footage. ' +
      'The median extents over content frames give the padded area, counted only when present in at least minShareOfFrames of them.',
    requires: { kinds: ['video', 'image'], signals: ['video'] },
    thresholds: (delivery) => visualThresholds(delivery).canvas_fill,
    run: canvasFill,
  }),
];
