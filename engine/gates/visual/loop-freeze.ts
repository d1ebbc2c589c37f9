// loop_freeze: frozen picture (frames matching their predecessor) and repeated (looped) sequences found in the decode pass.
import type { DeliveryProfileId } from '../../profiles/index.js';
import type { FlagDraft, GateContext, GateResult, GateThresholds, VideoSignals } from '../../types.js';
import { t } from '../../profiles/threshold-values.js';
import { defineGate } from '../define.js';
import { severityBand } from '../kit/bands.js';
import { gateResult, skippedGate } from '../kit/result.js';
import { round, runsOf, type IndexSpan } from '../kit/stats.js';
import { threshold, thresholdSeverity, thresholdValues } from '../kit/thresholds.js';
import { hms } from '../kit/wording.js';
import { decodedVideo, frameTime, spanSeconds } from './video-timeline.js';

function loopFreezeThresholds(delivery: DeliveryProfileId): GateThresholds {
  const aiGate = delivery === 'ai_render_gate';
  return {
    freezeWatchSeconds: t(2.0, 's', 'ffmpeg freezedetect d default; SpectraQC 2 s minimum', 'secondary'),
    freezeBlockSeconds: t(aiGate ? 3.0 : 5.0, 's', 'Preflight house rule: a frozen picture this long reads as a broken render', 'house'),
    freezeNoise: t(0.002, 'mean abs luma difference', 'Preflight house rule, on the 192-px analysis picture (freezedetect n=−60 dB is 0.001 at full size); also the static-frame floor of loop detection', 'house'),
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

function freezeFlags(ctx: GateContext, v: VideoSignals, th: GateThresholds): { flags: FlagDraft[]; longest: number; spans: number; whole: boolean } {
  const noise = threshold(th, 'freezeNoise');
  const watch = threshold(th, 'freezeWatchSeconds');
  const block = threshold(th, 'freezeBlockSeconds');
  // A frame is frozen when it matches its predecessor; black frames belong to black_frames (black wins).
  const frozen = (i: number) => i > 0 && v.frames[i].diff <= noise && v.frames[i].darkFraction < 0.98;
  const spans = runsOf(v.frameCount, frozen).map((s) => ({ first: s.first - 1, last: s.last }));
  const flags: FlagDraft[] = [];
  let longest = 0;
  const whole = spans.length === 1 && spans[0].first <= 0 && spans[0].last === v.frameCount - 1;
  for (const s of spans) {
    const seconds = spanSeconds(v, s);
    longest = Math.max(longest, seconds);
    let severity = severityBand(seconds, watch, block);
    if (!severity) continue;
    if (whole && ctx.media.audio && thresholdSeverity(th, 'stillWithSoundMaxSeverity') === 'WATCH') severity = 'WATCH';
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

function maxDiff(v: VideoSignals, s: IndexSpan): number {
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

function loopFreeze(ctx: GateContext): GateResult {
  const v = decodedVideo(ctx);
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

export const loopFreezeGate = defineGate({
  id: 'loop_freeze',
  area: 'visual',
  title: 'Frozen picture and repeated (looped) sequences',
  algorithm:
    'Freeze: consecutive frames whose mean absolute luma difference stays at or below freezeNoise, excluding black (black_frames owns black), ' +
    'judged by run length. Loop: every moving frame gets a 64-bit difference hash and a 24×24 thumbnail; a run of frames that matches an earlier ' +
    'run frame by frame (hash within 6 bits, thumbnail within 1 code value, at least 0.5 s apart, with different picture in between) is a ' +
    'repeated sequence, judged by its length. Detection runs during the decode pass. A picture still for the whole file with sound is at most ' +
    'stillWithSoundMaxSeverity (an audiogram or slideshow is normal on video sites; an AI render that never moves failed).',
  requires: { kinds: ['video'], signals: ['video'] },
  thresholds: loopFreezeThresholds,
  run: loopFreeze,
});
