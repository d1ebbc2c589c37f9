// av_sync: container start offsets, audio/video duration mismatch, and the offset measured in the content: between
// picture flashes and audio beeps (a sync pattern), else between cuts or flashes and the sharp sounds that mark them,
// else between an audiogram's motion and the sound's level.
import type { DeliveryProfileId } from '../../profiles/index.js';
import type { FlagDraft, GateContext, GateResult, GateThresholds, VideoSignals } from '../../types.js';
import { t } from '../../profiles/threshold-values.js';
import { defineGate } from '../define.js';
import { exceeds, reaches } from '../kit/bands.js';
import { gateResult, skippedGate, unmeasuredGate } from '../kit/result.js';
import { median, round } from '../kit/stats.js';
import { threshold, thresholdValues } from '../kit/thresholds.js';
import { estimateContentOffset, MAX_LAG_SECONDS, MIN_LEVEL_CORRELATION, MIN_PEAK_RATIO } from './av-sync-correlation.js';
import { MIN_MATCHED_EVENTS, MIN_MATCHED_SHARE, MIN_SALIENCE_DB, MIN_SCORE_RATIO } from './av-sync-events.js';

function avSyncThresholds(delivery: DeliveryProfileId): GateThresholds {
  const broadcast = delivery === 'broadcast_r128';
  const [watchSource, blockSource] = broadcast
    ? ['ATSC IS-191 (+15/−45 ms at the encoder input), via tvtechnology.com', 'EBU R37 (+40/−60 ms), via tvtechnology.com']
    : ['ITU-R BT.1359-1 detectability (+45/−125 ms), via tvtechnology.com', 'ITU-R BT.1359-1 acceptability (+90/−185 ms), via tvtechnology.com'];
  return {
    audioEarlyWatchMs: t(broadcast ? 15 : 45, 'ms', watchSource, 'secondary'),
    audioLateWatchMs: t(broadcast ? 45 : 125, 'ms', watchSource, 'secondary'),
    audioEarlyBlockMs: t(broadcast ? 40 : 90, 'ms', blockSource, 'secondary'),
    audioLateBlockMs: t(broadcast ? 60 : 185, 'ms', blockSource, 'secondary'),
    audioShortWatchFrames: t(2, 'frames', 'Telestream Qualify FC-108: audio shorter than video by more than 2 frames', 'secondary'),
    audioLongWatchSeconds: t(2, 's', 'Telestream Qualify FC-108: audio longer than video by more than 2 s', 'secondary'),
    durationMismatchBlockSeconds: t(5, 's', 'Preflight house rule: a mismatch this long leaves a silent picture or a blank screen', 'house'),
    syncPatternMinEvents: t(3, 'events', 'Preflight house rule: flash/beep pairs needed before a content-level offset is reported', 'house'),
  };
}

/** A flash is a run of at most this many frames at least FLASH_RISE brighter than the picture around it. */
const FLASH_MAX_FRAMES = 4;
const FLASH_RISE = 0.3;

/** A flash and a beep further apart than this are not one sync event. */
const PAIR_WINDOW_SECONDS = 0.5;

/** Media times of short bright flashes against darker surroundings. */
export function detectFlashes(v: VideoSignals): number[] {
  const means = v.frames.mean;
  const n = means.length;
  const out: number[] = [];
  let i = 0;
  while (i < n) {
    let j = i;
    const around = (k: number) => {
      const ctx: number[] = [];
      for (let d = FLASH_MAX_FRAMES + 1; d <= FLASH_MAX_FRAMES + 6; d++) {
        if (k - d >= 0) ctx.push(means[k - d]);
        if (k + d < n) ctx.push(means[k + d]);
      }
      return ctx.length ? median(ctx) : means[k];
    };
    while (j < n && j - i < FLASH_MAX_FRAMES + 1 && means[j] - around(i) >= FLASH_RISE) j++;
    if (j > i && j - i <= FLASH_MAX_FRAMES && (j >= n || means[j] - around(i) < FLASH_RISE)) {
      out.push(v.startSeconds + i / v.fps);
      i = j;
    } else i = Math.max(i + 1, j);
  }
  return out;
}

function beepOnsets(ctx: GateContext): number[] {
  const a = ctx.signals.audio;
  if (!a) return [];
  return a.stats.beepOnsets.map((t) => t + a.startSeconds);
}

/** Pairs each flash with the nearest beep; offset + means the beep (audio) comes first. */
export function pairOffsets(flashes: number[], beeps: number[]): number[] {
  const offsets: number[] = [];
  for (const f of flashes) {
    let best: number | null = null;
    for (const b of beeps) if (Math.abs(f - b) <= PAIR_WINDOW_SECONDS && (best === null || Math.abs(f - b) < Math.abs(f - best))) best = b;
    if (best !== null) offsets.push(f - best);
  }
  return offsets;
}

function offsetSeverity(ms: number, ctx: GateContext): 'BLOCK' | 'WATCH' | null {
  const th = ctx.thresholds;
  if (exceeds(ms, threshold(th, 'audioEarlyBlockMs')) || exceeds(-ms, threshold(th, 'audioLateBlockMs'))) return 'BLOCK';
  if (exceeds(ms, threshold(th, 'audioEarlyWatchMs')) || exceeds(-ms, threshold(th, 'audioLateWatchMs'))) return 'WATCH';
  return null;
}

type OffsetBasis = 'sync_pattern' | 'transient_events' | 'level_correlation' | 'container';

const MEASURED_ON: Record<OffsetBasis, string> = {
  sync_pattern: 'measured on flash/beep sync marks',
  transient_events: 'measured on cuts and flashes against the sharp sounds that mark them',
  level_correlation: "measured on the picture's motion against the sound's level",
  container: 'container start times',
};

function offsetFlag(ms: number, basis: OffsetBasis, ctx: GateContext, end: number, extra: Record<string, unknown>): FlagDraft | null {
  const severity = offsetSeverity(ms, ctx);
  if (!severity) return null;
  const early = ms > 0;
  const shift = round(Math.abs(ms) / 1000, 3);
  const command = early
    ? `ffmpeg -i <input> -itsoffset ${shift} -i <input> -map 0:v -map 1:a -c copy <output>`
    : `ffmpeg -itsoffset ${shift} -i <input> -i <input> -map 0:v -map 1:a -c copy <output>`;
  return {
    severity,
    start: 0,
    end,
    summary: `Audio is ${round(Math.abs(ms), 0)} ms ${early ? 'ahead of' : 'behind'} the picture (${MEASURED_ON[basis]})`,
    evidence: {
      offsetMs: round(ms, 1),
      basis: basis === 'container' ? 'container' : 'content',
      convention: '+ = audio early',
      ...extra,
      threshold: thresholdValues(ctx.thresholds, ['audioEarlyWatchMs', 'audioLateWatchMs', 'audioEarlyBlockMs', 'audioLateBlockMs']),
    },
    repair: {
      action: 'shift_audio',
      reachable: true,
      instruction: `${early ? 'Delay' : 'Advance'} the audio by ${round(Math.abs(ms), 0)} ms: ${command}`,
      verify: 'Re-run the check with checks=av_sync; expect no av_sync flag.',
    },
  };
}

function durationFlag(audioEnd: number, videoEnd: number, fps: number, ctx: GateContext): FlagDraft | null {
  const th = ctx.thresholds;
  const diff = audioEnd - videoEnd;
  const shortBy = -diff;
  const watchShort = threshold(th, 'audioShortWatchFrames') / fps;
  const watchLong = threshold(th, 'audioLongWatchSeconds');
  const block = threshold(th, 'durationMismatchBlockSeconds');
  let severity: 'BLOCK' | 'WATCH' | null = null;
  if (reaches(Math.abs(diff), block)) severity = 'BLOCK';
  else if (exceeds(shortBy, watchShort) || exceeds(diff, watchLong)) severity = 'WATCH';
  if (!severity) return null;
  const shorter = diff < 0;
  const start = Math.min(audioEnd, videoEnd);
  return {
    severity,
    start,
    end: Math.max(audioEnd, videoEnd),
    summary: `Audio ${shorter ? 'ends' : 'runs'} ${round(Math.abs(diff), 2)} s ${shorter ? 'before' : 'past'} the picture`,
    evidence: {
      audioEndSeconds: round(audioEnd, 3),
      videoEndSeconds: round(videoEnd, 3),
      mismatchSeconds: round(diff, 3),
      threshold: thresholdValues(th, ['audioShortWatchFrames', 'audioLongWatchSeconds', 'durationMismatchBlockSeconds']),
    },
    repair: {
      action: shorter ? 'extend_audio_or_trim_video' : 'trim_audio',
      reachable: true,
      instruction: shorter
        ? `Audio stops at ${round(audioEnd, 3)} s but picture runs to ${round(videoEnd, 3)} s: extend the mix (room tone or music) to the picture end, or trim the picture: ffmpeg -i <input> -t ${round(audioEnd, 3)} -c copy <output>`
        : `Audio runs to ${round(audioEnd, 3)} s, past the picture end at ${round(videoEnd, 3)} s: trim it with ffmpeg -i <input> -c copy -shortest <output>, or extend the picture.`,
      verify: 'Re-run the check with checks=av_sync; expect no duration mismatch flag.',
    },
  };
}

function avSync(ctx: GateContext): GateResult {
  const v = ctx.signals.video;
  const a = ctx.signals.audio;
  if (!ctx.media.audio) return skippedGate('av_sync', 'needs video with audio: the file has no audio stream');
  if (!ctx.media.video || !v || !(v.fps > 0)) return skippedGate('av_sync', 'needs video with audio: the file has no video');
  if (!a) return skippedGate('av_sync', 'needs video with audio: audio could not be decoded');
  const containerOffsetMs = (v.startSeconds - a.startSeconds) * 1000;
  const flashes = detectFlashes(v);
  const beeps = beepOnsets(ctx);
  const offsets = pairOffsets(flashes, beeps);
  const minEvents = threshold(ctx.thresholds, 'syncPatternMinEvents');
  const patternOffsetMs = offsets.length >= minEvents ? median(offsets) * 1000 : null;
  const estimate = patternOffsetMs === null ? estimateContentOffset(v, a) : null;
  // Measured on presentation times, so a container offset is already part of it.
  const estimatedOffsetMs = estimate?.offsetMs ?? null;
  const contentOffsetMs = patternOffsetMs ?? estimatedOffsetMs;
  const method = patternOffsetMs !== null ? 'sync_pattern' : estimate?.method === 'events' ? 'transient_events' : estimate?.method === 'levels' ? 'level_correlation' : null;
  const videoEnd = v.startSeconds + v.frameCount / v.fps;
  const audioEnd = a.startSeconds + a.durationSeconds;
  const flags: FlagDraft[] = [];
  const offsetEvidence = { containerOffsetMs: round(containerOffsetMs, 1), syncEvents: offsets.length };
  const ev = estimate?.events;
  const eventEvidence = ev
    ? {
        pictureEvents: ev.pictureEvents,
        transients: ev.transients,
        salientTransients: ev.salientTransients,
        matchedEvents: ev.matchedEvents,
        agreementDb: round(ev.score, 1),
        runnerUpAgreementDb: round(ev.runnerUpScore, 1),
        spreadMs: ev.spreadMs === null ? null : round(ev.spreadMs, 1),
      }
    : null;
  const levelEvidence = estimate?.levels
    ? { peakCorrelation: round(estimate.levels.peakCorrelation, 3), runnerUpCorrelation: round(estimate.levels.runnerUpCorrelation, 3) }
    : null;
  const offset =
    patternOffsetMs !== null
      ? offsetFlag(patternOffsetMs, 'sync_pattern', ctx, videoEnd, { ...offsetEvidence, method, spreadMs: round((Math.max(...offsets) - Math.min(...offsets)) * 1000, 1) })
      : estimatedOffsetMs !== null
        ? offsetFlag(estimatedOffsetMs, method === 'level_correlation' ? 'level_correlation' : 'transient_events', ctx, videoEnd, { ...offsetEvidence, method, ...(method === 'level_correlation' ? levelEvidence : eventEvidence) })
        : offsetFlag(containerOffsetMs, 'container', ctx, videoEnd, offsetEvidence);
  if (offset) flags.push(offset);
  const duration = durationFlag(audioEnd, videoEnd, v.fps, ctx);
  if (duration) flags.push(duration);
  const measurements = {
    containerOffsetMs: round(containerOffsetMs, 1),
    contentOffsetMs: contentOffsetMs === null ? null : round(contentOffsetMs, 1),
    contentMethod: method,
    syncPattern: { flashes: flashes.length, beeps: beeps.length, pairs: offsets.length },
    ...(eventEvidence ? { transientEvents: eventEvidence } : {}),
    ...(levelEvidence ? { levelCorrelation: levelEvidence } : {}),
    audioEndSeconds: round(audioEnd, 3),
    videoEndSeconds: round(videoEnd, 3),
    durationMismatchSeconds: round(audioEnd - videoEnd, 3),
    convention: '+ = audio early',
  };
  if (contentOffsetMs !== null) return gateResult('av_sync', measurements, flags);
  const why = estimate?.reason ?? 'no sync events in the content';
  return unmeasuredGate(
    'av_sync',
    `Lip sync not measured: no flash/beep sync pattern; ${why}. Only the container start times and durations were checked.`,
    measurements,
    flags,
  );
}

export const avSyncGate = defineGate({
  id: 'av_sync',
  area: 'audio',
  title: 'Audio/video sync and duration match',
  algorithm:
    'Container offset = video start − audio start (+ = audio early), judged against the lip-sync limits of the delivery profile (BT.1359 for web, R37 for broadcast). ' +
    'When the content carries a sync pattern (short full-picture flashes and short audio beeps), each flash is paired with the nearest beep within 0.5 s; ' +
    'with at least syncPatternMinEvents pairs the median flash−beep offset replaces the container offset. ' +
    'Without a pattern, picture events (cuts and flashes: rises of the frame-to-frame change well above the usual) are matched to sharp sounds: ' +
    'rises of at least 9 dB in the high-passed 10 ms level (clicks, claps, a slate; tones barely register), each weighed by its salience, ' +
    `its rise above the largest other sharp sound within ±${MAX_LAG_SECONDS * 1000} ms, so a beat, a hi-hat or syllables that repeat as strongly weigh nothing. ` +
    `Every lag in ±${MAX_LAG_SECONDS * 1000} ms (10 ms steps) sums the salience of the sound nearest each picture event (within half a frame and one block); ` +
    `the winning lag counts when at least ${MIN_MATCHED_EVENTS} picture events, and ${MIN_MATCHED_SHARE * 100} % of them, meet a sound of ≥ ${MIN_SALIENCE_DB} dB salience there ` +
    `and its sum is ${MIN_SCORE_RATIO}× that of any lag more than 150 ms away; the content offset is the median of the matched pairs' own offsets. ` +
    `Failing that, a picture that moves with the sound's level (an audiogram) is cross-correlated with the sound's amplitude (the 10 ms RMS, linear as a drawn waveform is, averaged over each frame) over ±${MAX_LAG_SECONDS * 1000} ms ` +
    `(correlation ≥ ${MIN_LEVEL_CORRELATION} and ${MIN_PEAK_RATIO}× any lag 150 ms away). ` +
    'When nothing measures (no sync events, periodic sounds as sharp as the marks, speech over cuts) the gate reports status unmeasured with the reason, never a plain pass; container offset and duration flags still apply. ' +
    'Audio ending more than 2 frames before the picture, or running more than 2 s past it, is WATCH; a mismatch of durationMismatchBlockSeconds is BLOCK. ' +
    'There is no lip reading: speech over a still or a talking head without cuts or flashes is unmeasured.',
  requires: { kinds: ['video'], signals: ['video', 'audio'] },
  thresholds: avSyncThresholds,
  run: avSync,
});
