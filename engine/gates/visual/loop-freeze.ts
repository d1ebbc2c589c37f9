// loop_freeze: frozen picture (frames matching their predecessor) and repeated (looped) sequences found in the decode pass.
import type { DeliveryProfileId } from '../../profiles/index.js';
import type { FlagDraft, GateContext, GateResult, GateThresholds, VideoSignals } from '../../types.js';
import { t } from '../../profiles/threshold-values.js';
import { defineGate } from '../define.js';
import { severityBand } from '../kit/bands.js';
import { gateResult, skippedGate } from '../kit/result.js';
import { median, round, runsOf, type IndexSpan } from '../kit/stats.js';
import { threshold, thresholdFlag, thresholdSeverity, thresholdValues } from '../kit/thresholds.js';
import { STILL_CHANGE_CODES } from '../../video/frame-stats.js';
import { hms } from '../kit/wording.js';
import { CUT_DIFF, decodedVideo, frameTime, spanSeconds } from './video-timeline.js';

function loopFreezeThresholds(delivery: DeliveryProfileId): GateThresholds {
  const aiGate = delivery === 'ai_render_gate';
  return {
    freezeWatchSeconds: t(2.0, 's', 'ffmpeg freezedetect d default; SpectraQC 2 s minimum', 'secondary'),
    freezeBlockSeconds: t(aiGate ? 3.0 : 5.0, 's', 'Preflight house rule: a frozen picture this long reads as a broken render', 'house'),
    stillChangeCodes: t(
      STILL_CHANGE_CODES,
      'code values (mean absolute change of the most-changed 12×12 cell of the 192-px analysis picture)',
      'Preflight house rule: below this no part of the picture moved (decoded duplicates measure 0, an encoder refining a held picture under 0.35; a caret, a pointer or a 1.0→1.15 zoom over 8 s measure about 0.7 and more); also the static-frame floor of loop detection',
      'house',
    ),
    movingShare: t(
      0.25,
      'fraction of cells',
      'Preflight house rule: footage is moving when at least a quarter of the picture changes from frame to frame (median over the second before a still; a pan or zoom changes 0.8–1, ffmpeg testsrc2 0.3); a caret or a pointer over a still screen changes under 0.05 and is a still picture with local change',
      'house',
    ),
    flagHeldStills: t(
      aiGate,
      'yes/no',
      aiGate
        ? 'Preflight house rule: a generated shot is meant to move; a picture held still is judged like a freeze'
        : 'Preflight house rule: held slides, title cards, paused screen recordings and stills between cuts are content, not a defect',
      'house',
    ),
    loopWatchSeconds: t(1.0, 's', 'Preflight house rule: a repeated non-static sequence of 1 s is visible to viewers', 'house'),
    loopBlockSeconds: t(aiGate ? 1.5 : 3.0, 's', 'Preflight house rule: repeated sequences are a generation/edit artefact', 'house'),
    stillWithSoundMaxSeverity: t(
      aiGate ? 'BLOCK' : 'WATCH',
      'severity',
      aiGate
        ? 'Preflight house rule: a generated render that never moves failed, with or without sound; judged like any freeze'
        : 'Preflight house rule: a picture still for the whole file with sound is an audiogram or slideshow more often than a broken render, so it is at most WATCH',
      'house',
    ),
  };
}


type StillKind = 'freeze' | 'held' | 'whole';

interface StillSpan extends IndexSpan {
  kind: StillKind;
  seconds: number;
  movingBefore: number;
  motionAfter: boolean;
  cutBefore: boolean;
}

const medianOf = (column: Float64Array, first: number, last: number): number => (last >= first ? median(column.subarray(first, last + 1)) : 0);

/**
 * Runs of frames that repeat their predecessor (no cell changed), each with what surrounds it: motion under way before
 * it and no cut into it make it a freeze; a still that starts with the programme or after a cut, or over footage that
 * was not moving as a whole (a screen recording, an audiogram), is held.
 */
function stillSpans(v: VideoSignals, th: GateThresholds): StillSpan[] {
  const still = threshold(th, 'stillChangeCodes');
  const moving = threshold(th, 'movingShare');
  const second = Math.max(1, Math.round(v.fps));
  const repeats = (i: number) => i > 0 && v.frames.peakChange[i] < still && v.frames.darkFraction[i] < 0.98;
  const runs = runsOf(v.frameCount, repeats).map((r) => ({ first: r.first - 1, last: r.last }));
  return runs.map((r) => {
    const seconds = spanSeconds(v, r);
    if (r.first <= 0 && r.last === v.frameCount - 1) return { ...r, kind: 'whole', seconds, movingBefore: 0, motionAfter: false, cutBefore: false };
    const before = [Math.max(1, r.first - second), r.first - 1] as const;
    const movingBefore = medianOf(v.frames.changedShare, before[0], before[1]);
    const motionBefore = medianOf(v.frames.diff, before[0], before[1]);
    const entry = r.first > 0 ? v.frames.diff[r.first] : 0;
    const cutBefore = r.first <= 0 || (entry >= CUT_DIFF && entry >= 3 * motionBefore);
    const after = [r.last + 1, Math.min(v.frameCount - 1, r.last + second)] as const;
    const motionAfter = after[1] > after[0] && medianOf(v.frames.changedShare, after[0] + 1, after[1]) >= moving;
    const kind: StillKind = !cutBefore && movingBefore >= moving ? 'freeze' : 'held';
    return { ...r, kind, seconds, movingBefore, motionAfter, cutBefore };
  });
}

function freezeFlags(ctx: GateContext, v: VideoSignals, th: GateThresholds): { flags: FlagDraft[]; spans: StillSpan[]; whole: boolean } {
  const watch = threshold(th, 'freezeWatchSeconds');
  const block = threshold(th, 'freezeBlockSeconds');
  const flagHeld = thresholdFlag(th, 'flagHeldStills');
  const spans = stillSpans(v, th);
  const whole = spans.length === 1 && spans[0].kind === 'whole';
  const flags: FlagDraft[] = [];
  for (const s of spans) {
    if (s.kind === 'held' && !flagHeld) continue;
    let severity = severityBand(s.seconds, watch, block);
    if (!severity) continue;
    if (whole && ctx.media.audio && thresholdSeverity(th, 'stillWithSoundMaxSeverity') === 'WATCH') severity = 'WATCH';
    const start = frameTime(v, s.first);
    const stop = frameTime(v, s.last + 1);
    const span = `${hms(start)}-${hms(stop)}`;
    const seconds = round(s.seconds);
    const seen = {
      freeze: `exact repeat inside moving footage${s.motionAfter ? ', motion resumes after it' : ''}`,
      held: s.cutBefore ? (s.first <= 0 ? 'held still from the start' : 'held still after a cut') : 'held still, only small local change before it',
      whole: 'the same picture throughout',
    }[s.kind];
    const summary = {
      freeze: `Picture frozen for ${seconds} s inside moving footage (exact repeat)`,
      held: `Picture held still for ${seconds} s (no motion)`,
      whole: `Picture is still for the whole file (${seconds} s)`,
    }[s.kind];
    const instruction = {
      freeze: `Replace the frozen picture ${span} with moving footage (re-render the span from source, or cut it), then re-export.`,
      held: `The shot holds one still picture ${span}. If the hold is intended, keep it; otherwise re-generate the shot with motion, then re-export.`,
      whole: 'The whole picture is one still frame. If that is intended (audiogram, cover art), keep it; otherwise re-export with the video track rendered.',
    }[s.kind];
    flags.push({
      severity,
      start,
      end: stop,
      summary,
      evidence: {
        kind: 'freeze',
        seen,
        durationSeconds: round(s.seconds, 3),
        largestCellChange: round(maxPeak(v, s), 3),
        movingShareBefore: round(s.movingBefore, 2),
        threshold: thresholdValues(th, ['freezeWatchSeconds', 'freezeBlockSeconds', 'stillChangeCodes', 'movingShare', 'flagHeldStills']),
      },
      repair: {
        action: 're_render_span',
        reachable: false,
        instruction,
        verify: `Re-run the check with checks=loop_freeze; expect no freeze flag in ${span}.`,
      },
    });
  }
  return { flags, spans, whole };
}

/** The largest change of any cell inside a still span (code values): 0 for decoded duplicates. */
function maxPeak(v: VideoSignals, s: IndexSpan): number {
  let m = 0;
  for (let i = s.first + 1; i <= s.last; i++) m = Math.max(m, v.frames.peakChange[i]);
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

function loopFreeze(ctx: GateContext): GateResult {
  const v = decodedVideo(ctx);
  if (typeof v === 'string') return skippedGate('loop_freeze', v);
  const freeze = freezeFlags(ctx, v, ctx.thresholds);
  const loops = freeze.whole ? { flags: [], repeats: 0, longest: 0 } : loopFlags(v, ctx.thresholds);
  const watch = threshold(ctx.thresholds, 'freezeWatchSeconds');
  const counted = (kind: StillKind) => freeze.spans.filter((s) => (kind === 'held' ? s.kind === 'held' : s.kind !== 'held') && s.seconds >= watch).length;
  const longest = (kinds: StillKind[]) => round(Math.max(0, ...freeze.spans.filter((s) => kinds.includes(s.kind)).map((s) => s.seconds)), 3);
  return gateResult(
    'loop_freeze',
    {
      freezeSegments: counted('freeze'),
      longestFreezeSeconds: longest(['freeze', 'whole']),
      heldStills: counted('held'),
      longestHeldStillSeconds: longest(['held']),
      stillThroughout: freeze.whole,
      repeatedSequences: loops.repeats,
      longestRepeatSeconds: round(loops.longest, 3),
    },
    [...freeze.flags, ...loops.flags],
  );
}

export const loopFreezeGate = defineGate({
  id: 'loop_freeze',
  area: 'visual',
  title: 'Frozen picture and repeated (looped) sequences',
  algorithm:
    'Change is measured per cell (about 12×12 pixels of the 192-px analysis picture), so a caret, a pointer or a slow zoom counts as motion. ' +
    'Still: consecutive frames in which no cell changed by stillChangeCodes or more (an exact repeat), excluding black (black_frames owns black). ' +
    'A still is a freeze when motion was under way before it (at least movingShare of the cells changing, median over the second before) and ' +
    'no cut leads into it; a still after a cut, from the start, or over footage that only changed locally (a screen recording, an audiogram) is ' +
    'held: content, flagged only where flagHeldStills says so (ai_render_gate), with its own wording. Both are judged by run length. ' +
    'Loop: every moving frame gets a 64-bit difference hash and a 24×24 thumbnail; a run of frames that matches an earlier ' +
    'run frame by frame (hash within 6 bits, thumbnail within 1 code value on average and 6 in every cell, at least 0.5 s apart, with different ' +
    'picture in between) is a repeated sequence, judged by its length. Detection runs during the decode pass. A picture still for the whole file ' +
    'with sound is at most stillWithSoundMaxSeverity (an audiogram or slideshow is normal on video sites; an AI render that never moves failed).',
  requires: { kinds: ['video'], signals: ['video'] },
  thresholds: loopFreezeThresholds,
  run: loopFreeze,
});
