// loudness: integrated loudness, true peak, and per profile max short-term loudness and loudness range, against the
// delivery profile's targets; flags carry gain and two-pass loudnorm commands with our measurements filled in.
import type { AudioSignals, FlagDraft, GateContext, GateResult, GateThresholds, Severity } from '../../types.js';
import type { DeliveryProfileId } from '../../profiles/index.js';
import { t } from '../../profiles/threshold-values.js';
import { defineGate } from '../define.js';
import { exceeds } from '../kit/bands.js';
import { audioOutputOptions, checkCommand } from '../kit/commands.js';
import { gateResult, skippedGate } from '../kit/result.js';
import { round } from '../kit/stats.js';
import { threshold, thresholdValues } from '../kit/thresholds.js';
import { fixed1, signed1, spanText } from '../kit/wording.js';
import { db1, mediaTime, NO_AUDIO, programmeEnd } from './programme-audio.js';

const R128 = 'EBU R 128 (2020, rev. 3) via EBU Tech 3343-2023 §5/§11';
const APPLE_PODCASTS = 'Apple Podcasts audio requirements (podcasters.apple.com/support/893-audio-requirements, as quoted by upliftorch.com)';
const PLATFORM_NOTE = 'YouTube, TikTok and Instagram publish no loudness number; ≈ −14 LUFS is derived from YouTube "Stats for nerds" and Spotify\'s documented −14 LUFS reference';

function broadcastLoudness(): GateThresholds {
  return {
    targetLufs: t(-23, 'LUFS', `${R128}: Programme Loudness −23.0 LUFS (BS.1770 gated integrated loudness)`, 'primary'),
    watchToleranceLu: t(0.2, 'LU', `${R128}: general tolerance ±0.2 LU (revision 3, 2020). Outside it and within ±1.0 LU the file passes only as a live programme, so WATCH`, 'primary'),
    blockBelowLufs: t(-24, 'LUFS', `${R128}: the ±1.0 LU tolerance for live programmes is the widest R 128 allows; quieter than −24.0 LUFS is BLOCK`, 'primary'),
    blockAboveLufs: t(-22, 'LUFS', `${R128}: louder than −22.0 LUFS is outside even the live tolerance, so BLOCK`, 'primary'),
    truePeakWatchDbtp: t(-1, 'dBTP', `${R128}: Maximum True-Peak −1 dBTP for production (linear PCM)`, 'primary'),
    truePeakBlockDbtp: t(-1, 'dBTP', `${R128}: a file over −1 dBTP fails delivery, so over the ceiling is BLOCK (MPEG-1 Layer II / AC-3 distribution needs −2 dBTP, Tech 3344)`, 'primary'),
    maxShortTermLufs: t(
      -18,
      'LUFS',
      'EBU R 128 s1 (short-form content: adverts, trailers, promos): Max Short-term Loudness ≤ −18.0 LUFS (+5 LU). WATCH rather than BLOCK because Preflight infers "short-form" from duration alone',
      'primary',
    ),
    shortFormMaxSeconds: t(120, 's', 'EBU R 128 s1: short-form content is usually under 60 s and at most 2 minutes; the max short-term rule applies up to this duration', 'primary'),
  };
}

function podcastLoudness(): GateThresholds {
  return {
    targetLufs: t(-16, 'LUFS', `${APPLE_PODCASTS}: −16 LKFS. A mono file is measured dual-mono, so −19 LUFS mono practice reads −16`, 'secondary'),
    watchToleranceLu: t(1, 'LU', `${APPLE_PODCASTS}: ±1 dB tolerance; outside it is WATCH`, 'secondary'),
    blockBelowLufs: t(
      -20,
      'LUFS',
      'AES TD1004.1.15-10 (2015): streaming/podcast range −16 … −20 LUFS (producenewmedia.com). Quieter than its floor is BLOCK: many podcast apps do not normalise, so listeners must turn up',
      'secondary',
    ),
    blockAboveLufs: t(-13, 'LUFS', 'Preflight house rule: 3 LU over the Apple target is a hot master that apps without normalisation play noticeably louder than other shows', 'house'),
    truePeakWatchDbtp: t(-1, 'dBTP', `${APPLE_PODCASTS}: true peak ≤ −1 dBFS`, 'secondary'),
    truePeakBlockDbtp: t(-1, 'dBTP', `${APPLE_PODCASTS}: true peak ≤ −1 dBFS; podcasts are delivered as lossy MP3/AAC, which clip overs, so over the ceiling is BLOCK`, 'secondary'),
    maxLoudnessRangeLu: t(
      15,
      'LU',
      'Preflight house rule: speech programmes usually measure 4–10 LU; above 15 LU quiet and loud voices force listeners to ride the volume. WATCH only, as EBU Tech 3343 §6 says LRA is no brick-wall parameter',
      'house',
    ),
  };
}

function platformLoudness(): GateThresholds {
  return {
    targetLufs: t(-14, 'LUFS', `Video sites and social apps: about −14 LUFS. ${PLATFORM_NOTE}`, 'unconfirmed'),
    watchToleranceLu: t(1, 'LU', 'Preflight house rule: ±1 LU around the unofficial platform reference; outside it is WATCH', 'house'),
    blockBelowLufs: t(
      -20,
      'LUFS',
      'Preflight house rule: platforms turn loud uploads down but do not turn quiet ones up (YouTube), so an upload 6 LU under the reference plays noticeably quiet. −20 LUFS is also the floor of the EBU R 128 s2 distribution range (Tech 3343 §9.2)',
      'house',
    ),
    blockAboveLufs: t(
      -9,
      'LUFS',
      'Preflight house rule: platforms normalise loud uploads down, so only an extreme master is BLOCK. −9 LUFS is where Amazon Alexa rejects audio (developer.amazon.com "Normalizing the Loudness of Audio Content")',
      'house',
    ),
    truePeakWatchDbtp: t(-1, 'dBTP', `Platform advice: true peak ≤ −1 dBTP so the platform's lossy transcode does not clip. ${PLATFORM_NOTE}`, 'unconfirmed'),
    truePeakBlockDbtp: t(
      0,
      'dBTP',
      'Preflight house rule: above 0 dBTP the reconstructed waveform exceeds full scale and clips in every lossy transcode and fixed-point playback; between −1 and 0 dBTP is WATCH since the platforms publish no ceiling',
      'house',
    ),
  };
}

function loudnessThresholds(delivery: DeliveryProfileId): GateThresholds {
  if (delivery === 'broadcast_r128') return broadcastLoudness();
  if (delivery === 'podcast_delivery') return podcastLoudness();
  return platformLoudness();
}

/** loudnorm's dynamic mode overshoots its TP target by 0.1–0.3 dB (reported in dudarenok-maker/Castwright issue 1909), so commands aim this far under the ceiling. */
const LOUDNORM_TP_MARGIN_DB = 0.5;

/** loudnorm's LRA target: at least its default 7 LU, at most 20 LU (the limit of older builds such as the bundled 2018 one). */
const LOUDNORM_LRA_MIN = 7;
const LOUDNORM_LRA_MAX = 20;
const SHORT_TERM_WINDOW_SECONDS = 3;

interface LoudnessTargets {
  target: number;
  tolerance: number;
  blockBelow: number;
  blockAbove: number;
  truePeakWatch: number;
  truePeakBlock: number;
}

function loudnessTargets(th: GateThresholds): LoudnessTargets {
  return {
    target: threshold(th, 'targetLufs'),
    tolerance: threshold(th, 'watchToleranceLu'),
    blockBelow: threshold(th, 'blockBelowLufs'),
    blockAbove: threshold(th, 'blockAboveLufs'),
    truePeakWatch: threshold(th, 'truePeakWatchDbtp'),
    truePeakBlock: threshold(th, 'truePeakBlockDbtp'),
  };
}

function loudnormLraTarget(lra: number | null): number {
  return Math.min(LOUDNORM_LRA_MAX, Math.max(LOUDNORM_LRA_MIN, Math.ceil(lra ?? 0)));
}

/** The two-pass loudnorm fix with our measurements filled in (loudnorm needs measured_thresh, which only its pass 1 prints). */
function loudnormCommands(ctx: GateContext, a: AudioSignals, integratedLufs: number, truePeakTarget: number): string {
  const L = a.loudness;
  const lra = loudnormLraTarget(L.loudnessRangeLu);
  const base = `loudnorm=I=${loudnessTargets(ctx.thresholds).target}:TP=${fixed1(truePeakTarget)}:LRA=${lra}`;
  const measuredTp = L.truePeakDbtp === null ? '<input_tp from pass 1>' : fixed1(L.truePeakDbtp);
  const measuredLra = L.loudnessRangeLu === null ? '<input_lra from pass 1>' : fixed1(L.loudnessRangeLu);
  const measured = `measured_I=${fixed1(integratedLufs)}:measured_TP=${measuredTp}:measured_LRA=${measuredLra}:measured_thresh=<input_thresh from pass 1>`;
  return (
    `two-pass loudnorm: pass 1 \`ffmpeg -hide_banner -i <input> -af ${base}:print_format=json -f null -\`; ` +
    `then pass 2 with input_thresh from its JSON: \`ffmpeg -i <input> -af ${base}:${measured}:linear=true:print_format=summary ${audioOutputOptions(ctx.media, a)} <output>\`. ` +
    'Pass 2 must report "Normalization Type: Linear"; if it says Dynamic, loudnorm could not meet the peak ceiling with a plain gain and compressed the programme instead.'
  );
}

function gainCommand(ctx: GateContext, a: AudioSignals, gainDb: number): string {
  return `\`ffmpeg -i <input> -af volume=${fixed1(gainDb)}dB ${audioOutputOptions(ctx.media, a)} <output>\``;
}

function integratedSeverity(integrated: number, t: LoudnessTargets): Severity | null {
  if (exceeds(t.blockBelow, integrated) || exceeds(integrated, t.blockAbove)) return 'BLOCK';
  if (exceeds(Math.abs(round(integrated - t.target, 1)), t.tolerance)) return 'WATCH';
  return null;
}

function truePeakSeverity(truePeak: number, t: LoudnessTargets): Severity | null {
  if (exceeds(truePeak, t.truePeakBlock)) return 'BLOCK';
  if (exceeds(truePeak, t.truePeakWatch)) return 'WATCH';
  return null;
}

function loudnessVerify(t: LoudnessTargets): string {
  return `Run \`${checkCommand('loudness')}\`; expect integrated loudness ${t.target} ±${t.tolerance} LUFS, true peak at or under ${t.truePeakWatch} dBTP and no loudness flag.`;
}

function integratedFlag(ctx: GateContext, a: AudioSignals, t: LoudnessTargets): FlagDraft | null {
  const L = a.loudness;
  const integrated = db1(L.integratedLufs);
  if (integrated === null) return unmeasurableFlag(a);
  const severity = integratedSeverity(integrated, t);
  if (!severity) return null;
  const gain = round(t.target - integrated, 1);
  const truePeak = db1(L.truePeakDbtp);
  const truePeakAfterGain = truePeak === null ? null : round(truePeak + gain, 1);
  const gainFits = truePeakAfterGain !== null && !exceeds(truePeakAfterGain, t.truePeakWatch);
  const simple = gainFits
    ? `A plain gain of ${signed1(gain)} dB reaches the target (true peak becomes ${fixed1(truePeakAfterGain)} dBTP): ${gainCommand(ctx, a, gain)}. Or, equivalently, `
    : `A plain gain of ${signed1(gain)} dB would push the true peak to ${truePeakAfterGain === null ? 'an unknown level' : `${fixed1(truePeakAfterGain)} dBTP`}, over the ${t.truePeakWatch} dBTP ceiling: best re-export from the mix at the target with a true-peak limiter at ${t.truePeakWatch} dBTP. Mechanical fix (loudnorm limits the peaks in its dynamic mode), `;
  const direction = integrated > t.target ? 'louder' : 'quieter';
  return {
    severity,
    start: 0,
    end: programmeEnd(a),
    summary: `Integrated loudness ${fixed1(integrated)} LUFS is ${fixed1(Math.abs(integrated - t.target))} LU ${direction} than the ${t.target} LUFS target (±${t.tolerance} LU)`,
    evidence: {
      integratedLufs: integrated,
      deviationLu: round(integrated - t.target, 1),
      truePeakDbtp: truePeak,
      threshold: thresholdValues(ctx.thresholds, ['targetLufs', 'watchToleranceLu', 'blockBelowLufs', 'blockAboveLufs']),
    },
    repair: {
      action: 'normalize_loudness',
      reachable: true,
      instruction: `Bring the programme from ${fixed1(integrated)} to ${t.target} LUFS. ${simple}${loudnormCommands(ctx, a, integrated, gainFits ? t.truePeakWatch : t.truePeakWatch - LOUDNORM_TP_MARGIN_DB)}`,
      verify: loudnessVerify(t),
    },
  };
}

function unmeasurableFlag(a: AudioSignals): FlagDraft {
  return {
    severity: 'WATCH',
    start: 0,
    end: programmeEnd(a),
    summary: 'Integrated loudness is not measurable (programme shorter than 0.4 s or below the −70 LUFS gate)',
    evidence: { integratedLufs: null, durationSeconds: round(a.durationSeconds, 3) },
    repair: {
      action: 'check_audio',
      reachable: false,
      instruction: 'The audio is too short or too quiet to measure. Check that the export contains the programme audio (not a muted or empty track), then re-export.',
      verify: `Run \`${checkCommand('loudness')}\`; expect a measured integrated loudness.`,
    },
  };
}

/** The simplest mechanical fix for a true peak over the ceiling, given the integrated loudness. */
function truePeakRemedy(ctx: GateContext, a: AudioSignals, t: LoudnessTargets, truePeak: number, integrated: number | null): string {
  if (integrated === null) return '';
  const gainToTarget = round(t.target - integrated, 1);
  if (integratedSeverity(integrated, t) && !exceeds(truePeak + gainToTarget, t.truePeakWatch)) {
    return `The loudness correction fixes this too: a gain of ${signed1(gainToTarget)} dB brings the true peak to ${fixed1(truePeak + gainToTarget)} dBTP: ${gainCommand(ctx, a, gainToTarget)}.`;
  }
  const gainToCeiling = round(t.truePeakWatch - truePeak - 0.1, 1);
  const loudnessAfter = round(integrated + gainToCeiling, 1);
  if (integratedSeverity(loudnessAfter, t) === null) {
    return `Mechanical fix: lower the gain by ${fixed1(-gainToCeiling)} dB (loudness becomes ${fixed1(loudnessAfter)} LUFS, still within ±${t.tolerance} LU): ${gainCommand(ctx, a, gainToCeiling)}.`;
  }
  return `Mechanical fix (loudnorm limits the peaks in its dynamic mode), ${loudnormCommands(ctx, a, integrated, t.truePeakWatch - LOUDNORM_TP_MARGIN_DB)}`;
}

function truePeakFlag(ctx: GateContext, a: AudioSignals, t: LoudnessTargets): FlagDraft | null {
  const L = a.loudness;
  const truePeak = db1(L.truePeakDbtp);
  if (truePeak === null) return null;
  const severity = truePeakSeverity(truePeak, t);
  if (!severity) return null;
  const integrated = db1(L.integratedLufs);
  return {
    severity,
    start: 0,
    end: programmeEnd(a),
    summary: `True peak ${fixed1(truePeak)} dBTP is over the ${t.truePeakWatch} dBTP ceiling`,
    evidence: {
      truePeakDbtp: truePeak,
      samplePeakDbfs: db1(L.samplePeakDbfs),
      integratedLufs: integrated,
      threshold: thresholdValues(ctx.thresholds, ['truePeakWatchDbtp', 'truePeakBlockDbtp']),
    },
    repair: {
      action: 'limit_true_peak',
      reachable: true,
      instruction: `Best: re-export from the mix with a true-peak limiter at ${t.truePeakWatch} dBTP as the last process (oversampling/true-peak mode on). ${truePeakRemedy(ctx, a, t, truePeak, integrated)}`.trim(),
      verify: loudnessVerify(t),
    },
  };
}

function shortTermFlag(ctx: GateContext, a: AudioSignals): FlagDraft | null {
  const th = ctx.thresholds;
  if (!('maxShortTermLufs' in th) || !('shortFormMaxSeconds' in th)) return null;
  const limit = threshold(th, 'maxShortTermLufs');
  const maxShortTerm = db1(a.loudness.maxShortTermLufs);
  const at = a.loudness.maxShortTermAtSeconds;
  if (a.durationSeconds > threshold(th, 'shortFormMaxSeconds') || maxShortTerm === null || at === null) return null;
  if (!exceeds(maxShortTerm, limit)) return null;
  // The meter reports the start of the loudest 3 s window.
  const start = mediaTime(a, at);
  const end = Math.min(programmeEnd(a), mediaTime(a, at + SHORT_TERM_WINDOW_SECONDS));
  const over = round(maxShortTerm - limit, 1);
  return {
    severity: 'WATCH',
    start,
    end,
    summary: `Max short-term loudness ${fixed1(maxShortTerm)} LUFS exceeds the short-form limit of ${limit} LUFS by ${fixed1(over)} LU`,
    evidence: {
      maxShortTermLufs: maxShortTerm,
      atSeconds: start,
      durationSeconds: round(a.durationSeconds, 3),
      threshold: thresholdValues(th, ['maxShortTermLufs', 'shortFormMaxSeconds']),
    },
    repair: {
      action: 'remix_span',
      reachable: false,
      instruction: `The loudest 3 s, ${spanText(start, end)}, reach ${fixed1(maxShortTerm)} LUFS; EBU R 128 s1 allows ${limit} LUFS for short-form content (adverts, trailers, promos). Lower that passage by at least ${fixed1(over)} LU in the mix (fader or compressor), re-export, then re-check the integrated loudness.`,
      verify: `Run \`${checkCommand('loudness')}\`; expect max short-term loudness at or under ${limit} LUFS and no loudness flag in ${spanText(start, end)}.`,
    },
  };
}

function loudnessRangeFlag(ctx: GateContext, a: AudioSignals, t: LoudnessTargets): FlagDraft | null {
  const th = ctx.thresholds;
  if (!('maxLoudnessRangeLu' in th)) return null;
  const limit = threshold(th, 'maxLoudnessRangeLu');
  const lra = db1(a.loudness.loudnessRangeLu);
  if (lra === null || !exceeds(lra, limit)) return null;
  const levelling = `loudnorm=I=${t.target}:TP=${fixed1(t.truePeakWatch - LOUDNORM_TP_MARGIN_DB)}:LRA=${Math.min(LOUDNORM_LRA_MAX, Math.floor(limit) - 4)}`;
  return {
    severity: 'WATCH',
    start: 0,
    end: programmeEnd(a),
    summary: `Loudness range ${fixed1(lra)} LU is wider than ${limit} LU: quiet and loud passages differ a lot`,
    evidence: { loudnessRangeLu: lra, threshold: thresholdValues(th, ['maxLoudnessRangeLu']) },
    repair: {
      action: 'level_dynamics',
      reachable: true,
      instruction: `Level the voices (a leveller or compressor per speaker) and re-export. Mechanical fix: single-pass loudnorm in its dynamic mode levels the programme: \`ffmpeg -i <input> -af ${levelling} ${audioOutputOptions(ctx.media, a)} <output>\`.`,
      verify: `Run \`${checkCommand('loudness')}\`; expect a loudness range at or under ${limit} LU.`,
    },
  };
}

function judgeLoudness(ctx: GateContext): GateResult {
  const a = ctx.signals.audio;
  if (!a) return skippedGate('loudness', NO_AUDIO);
  const t = loudnessTargets(ctx.thresholds);
  const L = a.loudness;
  const measurements = {
    integratedLufs: db1(L.integratedLufs),
    loudnessRangeLu: db1(L.loudnessRangeLu),
    truePeakDbtp: db1(L.truePeakDbtp),
    samplePeakDbfs: db1(L.samplePeakDbfs),
    maxMomentaryLufs: db1(L.maxMomentaryLufs),
    maxShortTermLufs: db1(L.maxShortTermLufs),
    targetLufs: t.target,
    toleranceLu: t.tolerance,
    truePeakCeilingDbtp: t.truePeakWatch,
  };
  const flags = [integratedFlag(ctx, a, t), truePeakFlag(ctx, a, t), shortTermFlag(ctx, a), loudnessRangeFlag(ctx, a, t)];
  return gateResult('loudness', measurements, flags.filter((f): f is FlagDraft => f !== null));
}

export const loudnessGate = defineGate({
  id: 'loudness',
  area: 'audio',
  title: 'Programme loudness and true peak on target',
  algorithm:
    'Our own ITU-R BS.1770-5 meter (K-weighting, 400 ms blocks on a 100 ms hop, −70 LUFS and −10 LU gates; mono measured dual-mono) gives integrated loudness, loudness range (EBU Tech 3342 on a short-term value every second over full 3 s windows, as libebur128 reads it), max momentary/short-term (10 ms hop) and BS.1770 Annex 2 oversampled true peak, all rounded to 0.1 as R 128 displays them. ' +
    'It agrees with libebur128 (loudgain) and ffmpeg ebur128=peak=true within 0.1 LU integrated, 0.5 LU range and 0.3 dB true peak on the accuracy corpus. Intended differences: a mono file reads 3.01 LU louder than libebur128 reports it (dual mono, as heard on two loudspeakers; ffmpeg with dualmono=true agrees), and 7.1 back surrounds weigh 1.0 per BS.1770-5 where ffmpeg weighs them 1.41. ' +
    "Integrated loudness outside the profile's tolerance is WATCH and outside its wider band BLOCK; true peak over the ceiling is WATCH or BLOCK per profile. " +
    'Broadcast short-form (≤ 120 s) also checks max short-term loudness (R 128 s1) and points at the loudest 3 s; podcasts also check loudness range. Each flag gives a gain command when a plain gain fits under the peak ceiling, and the two-pass ffmpeg loudnorm commands with our measurements filled in.',
  requires: { kinds: ['video', 'audio'], signals: ['audio'] },
  thresholds: loudnessThresholds,
  run: judgeLoudness,
});
