// Audio gates on the single-pass audio signals: loudness, clipping, dead air, channel balance.
// Stats times are seconds from the audio start; flags are in media time (audio start added).
// Commands in repair instructions use the placeholders <input> and <output>: the engine never prints server paths.
import type { ChannelStats } from '../audio/stats.js';
import type { AudioSignals, FlagDraft, GateContext, GateDefinition, GateResult, GateThresholds, MediaInfo, Severity } from '../types.js';
import { exceeds, reaches, severityBand } from './kit/bands.js';
import { audioOutputOptions, checkCommand, reencodeOptions, trimCommand } from './kit/commands.js';
import { gateResult, skippedGate } from './kit/result.js';
import { round, runsOf } from './kit/stats.js';
import { threshold, thresholdValues } from './kit/thresholds.js';
import { fixed1, signed1, spanText } from './kit/wording.js';
import { defineGate } from './define.js';
import { audioThresholds } from '../profiles/thresholds-audio.js';

const NO_AUDIO = 'needs audio: the file has no audio stream';
/** loudnorm's dynamic mode overshoots its TP target by 0.1–0.3 dB (REFERENCE.md §3), so commands aim this far under the ceiling. */
const LOUDNORM_TP_MARGIN_DB = 0.5;
/** loudnorm's LRA target: at least its default 7 LU, at most 20 LU (the limit of older builds such as the bundled 2018 one). */
const LOUDNORM_LRA_MIN = 7;
const LOUDNORM_LRA_MAX = 20;
const SHORT_TERM_WINDOW_SECONDS = 3;
/** Spans listed in a clipping flag's instruction and evidence. */
const LISTED_CLIP_SPANS = 10;
const EVIDENCE_CLIP_SPANS = 50;
/** A cut dead-air pause keeps this much silence. */
const KEPT_PAUSE_SECONDS = 0.5;

const db1 = (value: number | null) => (value === null ? null : round(value, 1));

/** Media time of an audio-relative time, rounded to the millisecond. */
function mediaTime(a: AudioSignals, seconds: number): number {
  return round(a.startSeconds + seconds, 3);
}

function programmeEnd(a: AudioSignals): number {
  return mediaTime(a, a.durationSeconds);
}

// ---------------------------------------------------------------- loudness

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

function loudnessGate(ctx: GateContext): GateResult {
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

// ---------------------------------------------------------------- clipping

type ClipCriterion = 'clipped_runs' | 'loudest_level_runs' | 'full_scale_share' | 'loudest_above_rest' | 'loudest_level_pileup';

/** Netflix AudioClippingInspector criterion numbers, for the evidence. */
const NETFLIX_CRITERION: Record<ClipCriterion, number> = {
  clipped_runs: 1,
  loudest_level_runs: 2,
  full_scale_share: 3,
  loudest_above_rest: 4,
  loudest_level_pileup: 5,
};

function channelCriteria(ch: ChannelStats, th: GateThresholds): ClipCriterion[] {
  const c = ch.clipping;
  const judgeLevels = c.loudestLevelDbfs !== null && reaches(c.loudestLevelDbfs, threshold(th, 'levelCriteriaFloorDbfs'));
  const met: ClipCriterion[] = [];
  if (c.clippedRuns >= threshold(th, 'clippedRunsWatch')) met.push('clipped_runs');
  if (judgeLevels && c.loudestLevelRuns >= threshold(th, 'loudestLevelRuns')) met.push('loudest_level_runs');
  if (exceeds(100 * c.fullScaleShare, threshold(th, 'fullScaleSharePct'))) met.push('full_scale_share');
  if (judgeLevels && c.loudestAboveNextDb !== null && exceeds(c.loudestAboveNextDb, threshold(th, 'loudestAboveNextDb'))) met.push('loudest_above_rest');
  if (
    judgeLevels &&
    c.loudestOverNextPct !== null &&
    reaches(c.loudestOverNextPct, threshold(th, 'loudestOverNextPct')) &&
    c.loudestLevelSamples >= threshold(th, 'minLoudestLevelSamples')
  ) {
    met.push('loudest_level_pileup');
  }
  return met;
}

function channelClipEvidence(ch: ChannelStats, criteria: ClipCriterion[]) {
  const c = ch.clipping;
  return {
    channel: ch.name,
    netflixCriteria: criteria.map((k) => NETFLIX_CRITERION[k]),
    clippedRuns: c.clippedRuns,
    longestClippedRunSamples: c.longestClippedRunSamples,
    fullScalePct: round(100 * c.fullScaleShare, 4),
    loudestLevelDbfs: c.loudestLevelDbfs === null ? null : round(c.loudestLevelDbfs, 2),
    loudestLevelSamples: c.loudestLevelSamples,
    loudestLevelRuns: c.loudestLevelRuns,
    loudestAboveNextDb: c.loudestAboveNextDb === null ? null : round(c.loudestAboveNextDb, 2),
    loudestOverNextPct: c.loudestOverNextPct === null ? null : round(c.loudestOverNextPct, 1),
  };
}

const CLIP_THRESHOLD_KEYS = [
  'runLevelDbfs',
  'minRunSamples',
  'clippedRunsWatch',
  'clippedRunsBlock',
  'fullScaleSharePct',
  'loudestLevelRuns',
  'loudestAboveNextDb',
  'loudestOverNextPct',
  'minLoudestLevelSamples',
  'levelCriteriaFloorDbfs',
];

interface ChannelVerdict {
  ch: ChannelStats;
  criteria: ClipCriterion[];
}

/** Where the level-statistics criteria point: runs at the loudest level, else the loudest sample. */
function levelCriteriaSpan(a: AudioSignals, verdicts: ChannelVerdict[]): { start: number; end: number } {
  const starts: number[] = [];
  const ends: number[] = [];
  for (const { ch } of verdicts) {
    const c = ch.clipping;
    const first = c.loudestLevelRunsFirstAt ?? c.loudestAtSeconds;
    const last = c.loudestLevelRunsLastAt ?? c.loudestAtSeconds;
    if (first !== null) starts.push(first);
    if (last !== null) ends.push(last);
  }
  if (starts.length === 0) return { start: 0, end: programmeEnd(a) };
  const blockEnd = Math.max(...ends) + a.stats.envelope.blockSeconds;
  return { start: mediaTime(a, Math.min(...starts)), end: mediaTime(a, Math.min(a.durationSeconds, blockEnd)) };
}

function clippedRunsFlag(ctx: GateContext, a: AudioSignals, verdicts: ChannelVerdict[]): FlagDraft {
  const th = ctx.thresholds;
  const stats = a.stats.clipping;
  const totalRuns = a.stats.channels.reduce((n, ch) => n + ch.clipping.clippedRuns, 0);
  const fullScale = verdicts.some((v) => v.criteria.includes('full_scale_share'));
  const severity: Severity = fullScale || totalRuns >= threshold(th, 'clippedRunsBlock') ? 'BLOCK' : 'WATCH';
  const spans = stats.spans.map((s) => ({ start: mediaTime(a, s.start), end: mediaTime(a, s.end), runs: s.runs, channels: s.channels }));
  const where = spans.length ? { start: spans[0].start, end: spans[spans.length - 1].end } : levelCriteriaSpan(a, verdicts);
  const listed = spans.slice(0, LISTED_CLIP_SPANS).map((s) => `${spanText(s.start, s.end)} (${s.channels.join('+')}, ${s.runs} runs)`);
  const more = stats.spanCount > listed.length ? ` and ${stats.spanCount - listed.length} more` : '';
  const fullScalePct = Math.max(...verdicts.map((v) => 100 * v.ch.clipping.fullScaleShare));
  const summaryParts = [
    totalRuns > 0 ? `${totalRuns} clipped run${totalRuns === 1 ? '' : 's'} at ≥ ${threshold(th, 'runLevelDbfs')} dBFS` : null,
    fullScale ? `${round(fullScalePct, 3)} % of samples at full scale` : null,
  ].filter(Boolean);
  const inSpans = stats.spanCount ? ` in ${stats.spanCount} span${stats.spanCount === 1 ? '' : 's'}` : '';
  return {
    severity,
    start: where.start,
    end: where.end,
    summary: `Clipped audio${inSpans}: ${summaryParts.join(', ')}`,
    evidence: {
      clippedRuns: totalRuns,
      channels: verdicts.map((v) => channelClipEvidence(v.ch, v.criteria)),
      spans: spans.slice(0, EVIDENCE_CLIP_SPANS),
      spanCount: stats.spanCount,
      threshold: thresholdValues(th, CLIP_THRESHOLD_KEYS),
    },
    repair: {
      action: 're_export_with_headroom',
      reachable: false,
      instruction:
        `Clipping at ${listed.length ? listed.join(', ') + more : `${spanText(where.start, where.end)}`}. ` +
        'Re-export from the source (mix or render) with headroom: lower the master gain until peaks sit under -1 dBTP, or put a true-peak limiter at -1 dBTP last in the chain. ' +
        'Turning this file down does not remove clipping that is already baked in; as a last resort `ffmpeg -i <input> -af adeclip <output>` repairs some of it.',
      verify: `Run \`${checkCommand('clipping')}\`; expect no clipping flag (no clipped runs, no samples at full scale).`,
    },
  };
}

function levelCriteriaSentence(verdicts: ChannelVerdict[]): string {
  const sentences: string[] = [];
  for (const { ch, criteria } of verdicts) {
    const c = ch.clipping;
    const level = c.loudestLevelDbfs === null ? '' : `${round(c.loudestLevelDbfs, 2)} dBFS`;
    if (criteria.includes('loudest_level_runs')) {
      sentences.push(`${ch.name}: ${c.loudestLevelRuns} runs of identical samples at its loudest level (${level}): the audio was clipped or hard-limited, then turned down.`);
    }
    if (criteria.includes('loudest_above_rest') && c.loudestAboveNextDb !== null) {
      sentences.push(`${ch.name}: the loudest sample (${level}) sits ${round(c.loudestAboveNextDb, 1)} dB above every other sample: an isolated spike or click.`);
    }
    if (criteria.includes('loudest_level_pileup') && c.loudestOverNextPct !== null) {
      sentences.push(`${ch.name}: ${c.loudestLevelSamples} samples at the loudest level (${level}) against ${c.nextLevelSamples} at the next: the peaks are pinned at one level.`);
    }
  }
  return sentences.join(' ');
}

function levelCriteriaFlag(ctx: GateContext, a: AudioSignals, verdicts: ChannelVerdict[]): FlagDraft {
  const where = levelCriteriaSpan(a, verdicts);
  return {
    severity: 'WATCH',
    start: where.start,
    end: where.end,
    summary: `Peak-level statistics suggest clipping or limiting (Netflix clipping criteria ${[...new Set(verdicts.flatMap((v) => v.criteria.map((k) => NETFLIX_CRITERION[k])))].sort().join(', ')})`,
    evidence: {
      channels: verdicts.map((v) => channelClipEvidence(v.ch, v.criteria)),
      threshold: thresholdValues(ctx.thresholds, CLIP_THRESHOLD_KEYS),
    },
    repair: {
      action: 'inspect_peaks',
      reachable: false,
      instruction:
        `${levelCriteriaSentence(verdicts)} Listen around ${spanText(where.start, where.end)}. ` +
        'If the peaks were clipped, re-export from the unclipped source with a true-peak limiter at -1 dBTP; remove an isolated click with `ffmpeg -i <input> -af adeclick <output>` or in an editor.',
      verify: `Run \`${checkCommand('clipping')}\`; expect no clipping flag.`,
    },
  };
}

function clippingGate(ctx: GateContext): GateResult {
  const a = ctx.signals.audio;
  if (!a) return skippedGate('clipping', NO_AUDIO);
  const th = ctx.thresholds;
  const all = a.stats.channels.map((ch) => ({ ch, criteria: channelCriteria(ch, th) }));
  const flagged = all.filter((v) => v.criteria.length > 0);
  const hardEvidence = flagged.some((v) => v.criteria.includes('clipped_runs') || v.criteria.includes('full_scale_share'));
  const flags: FlagDraft[] = [];
  if (hardEvidence) flags.push(clippedRunsFlag(ctx, a, flagged));
  else if (flagged.length) flags.push(levelCriteriaFlag(ctx, a, flagged));
  const loudest = Math.max(...a.stats.channels.map((ch) => ch.clipping.loudestLevelDbfs ?? -Infinity));
  return gateResult(
    'clipping',
    {
      clippedRuns: a.stats.clipping.clippedRuns,
      clippedSpans: a.stats.clipping.spanCount,
      fullScaleSamples: a.stats.clipping.fullScaleSamples,
      fullScalePct: round(100 * a.stats.clipping.fullScaleShare, 4),
      loudestLevelDbfs: Number.isFinite(loudest) ? round(loudest, 2) : null,
      netflixCriteriaMet: [...new Set(flagged.flatMap((v) => v.criteria.map((k) => NETFLIX_CRITERION[k])))].sort(),
      channels: all.map((v) => channelClipEvidence(v.ch, v.criteria)),
    },
    flags,
  );
}

// ---------------------------------------------------------------- dead_air



type SilencePosition = 'head' | 'tail' | 'interior';

interface Silence {
  start: number;
  end: number;
  seconds: number;
  position: SilencePosition | 'whole';
}

function silences(a: AudioSignals, thresholdDbfs: number): Silence[] {
  const env = a.stats.envelope;
  const step = env.blockSeconds;
  const count = env.rmsDbfs.length;
  return runsOf(count, (i) => env.rmsDbfs[i] <= thresholdDbfs).map((s) => {
    const start = s.first * step;
    const end = Math.min(a.durationSeconds, (s.last + 1) * step);
    const atHead = s.first === 0;
    const atTail = s.last === count - 1;
    const position = atHead && atTail ? 'whole' : atHead ? 'head' : atTail ? 'tail' : 'interior';
    return { start: mediaTime(a, start), end: mediaTime(a, end), seconds: round(end - start, 3), position };
  });
}

/** A stream that decoded to no samples is as silent as a file can be. */
function noAudioDecoded(a: AudioSignals): Silence {
  return { start: mediaTime(a, 0), end: mediaTime(a, 0), seconds: 0, position: 'whole' };
}

function cutCommand(media: MediaInfo, from: number, to: number): string {
  const keep = `not(between(t,${round(from, 3)},${round(to, 3)}))`;
  const audio = `-af "aselect='${keep}',asetpts=N/SR/TB"`;
  const video = media.video ? `-vf "select='${keep}',setpts=N/FRAME_RATE/TB" ` : '';
  return `\`ffmpeg -i <input> ${video}${audio} ${reencodeOptions(media)} <output>\``.replace(/ {2,}/g, ' ');
}


function silenceFlag(ctx: GateContext, s: Silence, severity: Severity, allowance: number): FlagDraft {
  const th = ctx.thresholds;
  const level = threshold(th, 'silenceThresholdDbfs');
  const span = spanText(s.start, s.end);
  const evidence = {
    durationSeconds: s.seconds,
    position: s.position,
    threshold: thresholdValues(th, ['silenceThresholdDbfs', 'interiorWatchSeconds', 'interiorBlockSeconds', 'headTailAllowanceSeconds']),
  };
  const verify = `Run \`${checkCommand('dead_air')}\`; expect no dead_air flag in ${span}.`;
  if (s.position === 'whole') {
    return {
      severity: 'BLOCK',
      start: s.start,
      end: s.end,
      summary: `The audio is silent for the whole file (${s.seconds} s at or under ${level} dBFS)`,
      evidence,
      repair: {
        action: 're_export_audio',
        reachable: false,
        instruction: 'The export contains no audible audio. Re-export with the audio track enabled and unmuted, and check that the intended mix was rendered.',
        verify: `Run \`${checkCommand('dead_air')}\`; expect no dead_air flag.`,
      },
    };
  }
  if (s.position === 'interior') {
    const cutFrom = s.start + KEPT_PAUSE_SECONDS / 2;
    const cutTo = s.end - KEPT_PAUSE_SECONDS / 2;
    return {
      severity,
      start: s.start,
      end: s.end,
      summary: `${s.seconds} s of silence mid-programme (dead air)`,
      evidence,
      repair: {
        action: 'fill_or_cut_span',
        reachable: true,
        instruction:
          `${span} is silent (${s.seconds} s at or under ${level} dBFS). If audio is missing there (a failed render or a muted clip), re-render the span from the source. ` +
          `If it is an unwanted pause, shorten it to ${KEPT_PAUSE_SECONDS} s: ${cutCommand(ctx.media, cutFrom, cutTo)}.`,
        verify,
      },
    };
  }
  const keepUntil = s.position === 'head' ? s.end - allowance : s.start + allowance;
  return {
    severity,
    start: s.start,
    end: s.end,
    summary: `${s.seconds} s of silence at the ${s.position} (${allowance} s is normal)`,
    evidence,
    repair: {
      action: s.position === 'head' ? 'trim_head' : 'trim_tail',
      reachable: true,
      instruction: `Trim the ${s.position} silence to at most ${allowance} s (${span} is silent): \`${trimCommand(ctx.media, s.position, keepUntil)}\`.`,
      verify,
    },
  };
}

function deadAirGate(ctx: GateContext): GateResult {
  const a = ctx.signals.audio;
  if (!a) return skippedGate('dead_air', NO_AUDIO);
  const th = ctx.thresholds;
  const watch = threshold(th, 'interiorWatchSeconds');
  const block = threshold(th, 'interiorBlockSeconds');
  const allowance = threshold(th, 'headTailAllowanceSeconds');
  const found = a.stats.frames > 0 ? silences(a, threshold(th, 'silenceThresholdDbfs')) : [noAudioDecoded(a)];
  const flags: FlagDraft[] = [];
  for (const s of found) {
    const judged = s.position === 'head' || s.position === 'tail' ? s.seconds - allowance : s.seconds;
    const severity = s.position === 'whole' ? 'BLOCK' : severityBand(judged, watch, block);
    if (severity) flags.push(silenceFlag(ctx, s, severity, allowance));
  }
  const secondsAt = (position: Silence['position']) => found.find((s) => s.position === position)?.seconds ?? 0;
  const interior = found.filter((s) => s.position === 'interior');
  return gateResult(
    'dead_air',
    {
      silenceThresholdDbfs: threshold(th, 'silenceThresholdDbfs'),
      audioSeconds: round(a.durationSeconds, 3),
      wholeFileSilent: found.some((s) => s.position === 'whole'),
      headSilenceSeconds: secondsAt('head'),
      tailSilenceSeconds: secondsAt('tail'),
      longestInteriorSilenceSeconds: interior.reduce((m, s) => Math.max(m, s.seconds), 0),
      interiorSilencesOverWatch: interior.filter((s) => reaches(s.seconds, watch)).length,
      totalSilenceSeconds: round(
        found.reduce((sum, s) => sum + s.seconds, 0),
        3,
      ),
    },
    flags,
  );
}

// ---------------------------------------------------------------- channel_balance

const isLfe = (name: string) => name.startsWith('LFE');

/** A pan command that keeps every channel except those given an expression in `outputs`. */
function panCommand(ctx: GateContext, a: AudioSignals, outputs: Record<number, string>): string {
  const layout = ctx.media.audio?.channelLayout ?? (a.channels === 2 ? 'stereo' : `${a.channels}c`);
  const terms = Array.from({ length: a.channels }, (_, c) => `c${c}=${outputs[c] ?? `c${c}`}`);
  return `\`ffmpeg -i <input> -af "pan=${layout}|${terms.join('|')}" ${audioOutputOptions(ctx.media, a)} <output>\``;
}

function balanceVerify(what: string): string {
  return `Run \`${checkCommand('channel_balance')}\`; expect ${what}.`;
}

function deadChannelFlags(ctx: GateContext, a: AudioSignals, loudestDb: number, loudestName: string): { flags: FlagDraft[]; dead: Set<number> } {
  const th = ctx.thresholds;
  const below = threshold(th, 'deadChannelBelowLoudestDb');
  const flags: FlagDraft[] = [];
  const dead = new Set<number>();
  a.stats.channels.forEach((ch, c) => {
    if (isLfe(ch.name)) return;
    const level = ch.rmsDbfs ?? -Infinity;
    if (!reaches(loudestDb - level, below)) return;
    dead.add(c);
    const mainPair = c < 2;
    const gap = Number.isFinite(level) ? `${fixed1(loudestDb - level)} dB below ${loudestName}` : 'digital silence';
    const partner = c === 1 ? 0 : 1;
    flags.push({
      severity: mainPair ? 'BLOCK' : 'WATCH',
      start: 0,
      end: programmeEnd(a),
      summary: `Channel ${ch.name} is dead (${gap})`,
      evidence: {
        channel: ch.name,
        rmsDbfs: db1(ch.rmsDbfs),
        loudestChannel: loudestName,
        loudestRmsDbfs: db1(loudestDb),
        threshold: thresholdValues(th, ['deadChannelBelowLoudestDb']),
      },
      repair: mainPair
        ? {
            action: 'restore_channel',
            reachable: true,
            instruction: `${ch.name} carries no programme (${gap}): the export lost a channel or a mono source was routed to one side. Re-export with both channels; if the source is mono, copy ${a.stats.channels[partner].name} into ${ch.name}: ${panCommand(ctx, a, { [c]: `c${partner}` })}.`,
            verify: balanceVerify(`no channel_balance flag for ${ch.name}`),
          }
        : {
            action: 're_export_audio',
            reachable: false,
            instruction: `${ch.name} is ${gap} over the whole programme. If the mix should use it, re-export from the source with ${ch.name} routed; if it is intentionally empty, ignore this flag.`,
            verify: balanceVerify(`no channel_balance flag for ${ch.name}`),
          },
    });
  });
  return { flags, dead };
}

function imbalanceFlag(ctx: GateContext, a: AudioSignals): FlagDraft | null {
  const [left, right] = a.stats.channels;
  if (left.rmsDbfs === null || right.rmsDbfs === null) return null;
  const th = ctx.thresholds;
  const difference = round(Math.abs(left.rmsDbfs - right.rmsDbfs), 1);
  const severity = severityBand(difference, threshold(th, 'imbalanceWatchDb'), threshold(th, 'imbalanceBlockDb'));
  if (!severity) return null;
  const [louder, quieter, louderIndex] = left.rmsDbfs > right.rmsDbfs ? [left, right, 0] : [right, left, 1];
  const gain = round(10 ** (-difference / 20), 3);
  return {
    severity,
    start: 0,
    end: programmeEnd(a),
    summary: `${quieter.name} is ${fixed1(difference)} dB quieter than ${louder.name} over the programme`,
    evidence: {
      differenceDb: difference,
      rmsDbfs: { [left.name]: db1(left.rmsDbfs), [right.name]: db1(right.rmsDbfs) },
      threshold: thresholdValues(th, ['imbalanceWatchDb', 'imbalanceBlockDb']),
    },
    repair: {
      action: 'rebalance_channels',
      reachable: true,
      instruction:
        `${louder.name} (${fixed1(louder.rmsDbfs!)} dBFS) is ${fixed1(difference)} dB louder than ${quieter.name} (${fixed1(quieter.rmsDbfs!)} dBFS). ` +
        `If the imbalance is not intended, lower ${louder.name} by ${fixed1(difference)} dB: ${panCommand(ctx, a, { [louderIndex]: `${gain}*c${louderIndex}` })}, then re-check loudness (the programme gets quieter).`,
      verify: balanceVerify(`a channel difference under ${threshold(th, 'imbalanceWatchDb')} dB`),
    },
  };
}

function polarityFlag(ctx: GateContext, a: AudioSignals): FlagDraft | null {
  const stereo = a.stats.stereo;
  if (!stereo || stereo.correlation === null) return null;
  const th = ctx.thresholds;
  const correlation = round(stereo.correlation, 2);
  if (!exceeds(threshold(th, 'overallCorrelationBlock'), correlation)) return null;
  const [left, right] = stereo.channels;
  return {
    severity: 'BLOCK',
    start: 0,
    end: programmeEnd(a),
    summary: `${left} and ${right} are out of phase over the programme (correlation ${correlation}): a mono fold-down cancels`,
    evidence: {
      correlation,
      midDbfs: db1(stereo.midDbfs),
      sideDbfs: db1(stereo.sideDbfs),
      threshold: thresholdValues(th, ['overallCorrelationBlock']),
    },
    repair: {
      action: 'fix_polarity',
      reachable: true,
      instruction:
        `The side signal (${fixed1(stereo.sideDbfs ?? -Infinity)} dBFS) is louder than the mid (${stereo.midDbfs === null ? 'silent' : `${fixed1(stereo.midDbfs)} dBFS`}), so centred sound such as voice vanishes in mono. ` +
        `A correlation near −1 means ${right}'s polarity is inverted; invert it back: ${panCommand(ctx, a, { 1: '-1*c1' })}. Otherwise fix the phase of the source (mic alignment, stereo widener) and re-export.`,
      verify: balanceVerify('a positive correlation and no channel_balance flag'),
    },
  };
}

function phaseWindowFlags(ctx: GateContext, a: AudioSignals): FlagDraft[] {
  const stereo = a.stats.stereo;
  if (!stereo) return [];
  const th = ctx.thresholds;
  const floor = threshold(th, 'activityFloorDbfs');
  const limit = threshold(th, 'phaseWindowCorrelationWatch');
  const sustain = threshold(th, 'phaseSustainSeconds');
  const windows = stereo.windows;
  const outOfPhase = (i: number) => {
    const w = windows[i];
    return w.correlation !== null && w.levelDbfs !== null && w.levelDbfs >= floor && !exceeds(w.correlation, limit);
  };
  return runsOf(windows.length, outOfPhase)
    .map((r) => ({ start: windows[r.first].start, end: windows[r.last].end, lowest: Math.min(...windows.slice(r.first, r.last + 1).map((w) => w.correlation!)) }))
    .filter((s) => reaches(s.end - s.start, sustain))
    .map((s) => {
      const start = mediaTime(a, s.start);
      const end = mediaTime(a, s.end);
      return {
        severity: 'WATCH' as const,
        start,
        end,
        summary: `${stereo.channels[0]} and ${stereo.channels[1]} out of phase for ${round(s.end - s.start, 1)} s (correlation down to ${round(s.lowest, 2)})`,
        evidence: {
          lowestCorrelation: round(s.lowest, 2),
          durationSeconds: round(s.end - s.start, 3),
          threshold: thresholdValues(th, ['phaseWindowCorrelationWatch', 'phaseSustainSeconds', 'activityFloorDbfs']),
        },
        repair: {
          action: 'fix_phase_span',
          reachable: false,
          instruction: `Listen to ${spanText(start, end)} in mono: out-of-phase content there partly cancels. Fix the phase of the source in that span (a polarity-flipped clip, a stereo widener, a delayed mic) and re-export.`,
          verify: balanceVerify(`no channel_balance flag in ${spanText(start, end)}`),
        },
      };
    });
}

/** Spans where one of the first two channels is ≥ N dB below the louder one while the programme is active. */
function dropoutFlags(ctx: GateContext, a: AudioSignals, dead: Set<number>): FlagDraft[] {
  const th = ctx.thresholds;
  const below = threshold(th, 'deadChannelBelowLoudestDb');
  const floor = threshold(th, 'activityFloorDbfs');
  const minSeconds = threshold(th, 'dropoutWatchSeconds');
  const [left, right] = a.stats.channels;
  const blocks = Math.min(left.rms100ms.length, right.rms100ms.length);
  const step = 0.1;
  const flags: FlagDraft[] = [];
  for (const [c, other] of [
    [0, 1],
    [1, 0],
  ] as const) {
    if (dead.has(c)) continue;
    const mine = a.stats.channels[c].rms100ms;
    const theirs = a.stats.channels[other].rms100ms;
    const droppedOut = (i: number) => theirs[i] >= floor && theirs[i] - mine[i] >= below;
    for (const r of runsOf(blocks, droppedOut)) {
      const seconds = (r.last - r.first + 1) * step;
      if (!reaches(seconds, minSeconds)) continue;
      const start = mediaTime(a, r.first * step);
      const end = mediaTime(a, Math.min(a.durationSeconds, (r.last + 1) * step));
      const name = a.stats.channels[c].name;
      flags.push({
        severity: 'WATCH',
        start,
        end,
        summary: `${name} drops out for ${round(seconds, 1)} s while ${a.stats.channels[other].name} carries programme`,
        evidence: { channel: name, durationSeconds: round(seconds, 3), threshold: thresholdValues(th, ['deadChannelBelowLoudestDb', 'dropoutWatchSeconds', 'activityFloorDbfs']) },
        repair: {
          action: 're_render_span',
          reachable: false,
          instruction: `${name} is ${below} dB or more below ${a.stats.channels[other].name} in ${spanText(start, end)}. Re-render that span from the source with both channels.`,
          verify: balanceVerify(`no channel_balance flag in ${spanText(start, end)}`),
        },
      });
    }
  }
  return flags;
}

function dcOffsetFlag(ctx: GateContext, a: AudioSignals): FlagDraft | null {
  const th = ctx.thresholds;
  const limit = threshold(th, 'dcOffsetWatch');
  const offsets = a.stats.channels.filter((ch) => reaches(Math.abs(round(ch.dcOffset, 4)), limit));
  if (offsets.length === 0) return null;
  const list = offsets.map((ch) => `${ch.name} ${round(ch.dcOffset, 4)}`).join(', ');
  return {
    severity: 'WATCH',
    start: 0,
    end: programmeEnd(a),
    summary: `DC offset on ${offsets.map((ch) => ch.name).join(', ')} (${list})`,
    evidence: { dcOffset: Object.fromEntries(offsets.map((ch) => [ch.name, round(ch.dcOffset, 4)])), threshold: thresholdValues(th, ['dcOffsetWatch']) },
    repair: {
      action: 'remove_dc_offset',
      reachable: true,
      instruction: `Remove the DC offset (${list}; full scale = 1) with a 10 Hz high-pass: \`ffmpeg -i <input> -af highpass=f=10 ${audioOutputOptions(ctx.media, a)} <output>\`.`,
      verify: balanceVerify(`every |DC offset| under ${limit}`),
    },
  };
}

function lowestActiveCorrelation(a: AudioSignals, floor: number): number | null {
  const values = (a.stats.stereo?.windows ?? []).filter((w) => w.levelDbfs !== null && w.levelDbfs >= floor && w.correlation !== null).map((w) => w.correlation!);
  return values.length ? round(Math.min(...values), 2) : null;
}

function channelBalanceGate(ctx: GateContext): GateResult {
  const a = ctx.signals.audio;
  if (!a) return skippedGate('channel_balance', NO_AUDIO);
  const th = ctx.thresholds;
  const channels = a.stats.channels;
  const judged = channels.filter((ch) => !isLfe(ch.name));
  const loudest = judged.reduce<ChannelStats | null>((best, ch) => ((ch.rmsDbfs ?? -Infinity) > (best?.rmsDbfs ?? -Infinity) ? ch : best), null);
  const flags: FlagDraft[] = [];
  let deadNames: string[] = [];
  if (loudest?.rmsDbfs != null && channels.length >= 2) {
    const { flags: deadFlags, dead } = deadChannelFlags(ctx, a, loudest.rmsDbfs, loudest.name);
    deadNames = [...dead].map((c) => channels[c].name);
    flags.push(...deadFlags);
    const pairAlive = !dead.has(0) && !dead.has(1);
    if (pairAlive) {
      const imbalance = imbalanceFlag(ctx, a);
      const polarity = polarityFlag(ctx, a);
      if (imbalance) flags.push(imbalance);
      if (polarity) flags.push(polarity);
      else flags.push(...phaseWindowFlags(ctx, a));
    }
    flags.push(...dropoutFlags(ctx, a, dead));
  }
  const dc = dcOffsetFlag(ctx, a);
  if (dc) flags.push(dc);
  const [left, right] = channels;
  const stereo = a.stats.stereo;
  return gateResult(
    'channel_balance',
    {
      channels: channels.map((ch) => ({ name: ch.name, rmsDbfs: db1(ch.rmsDbfs), peakDbfs: db1(ch.peakDbfs), dcOffset: round(ch.dcOffset, 4) })),
      pairDifferenceDb: right && left.rmsDbfs !== null && right.rmsDbfs !== null ? round(Math.abs(left.rmsDbfs - right.rmsDbfs), 1) : null,
      correlation: stereo?.correlation == null ? null : round(stereo.correlation, 2),
      lowestWindowCorrelation: lowestActiveCorrelation(a, threshold(th, 'activityFloorDbfs')),
      midDbfs: db1(stereo?.midDbfs ?? null),
      sideDbfs: db1(stereo?.sideDbfs ?? null),
      deadChannels: deadNames,
    },
    flags.sort((x, y) => x.start - y.start),
  );
}

// ---------------------------------------------------------------- definitions

function audioGate(id: string, title: string, algorithm: string, run: (ctx: GateContext) => GateResult): GateDefinition {
  return defineGate({ id, area: 'audio', title, algorithm, requires: { kinds: ['video', 'audio'], signals: ['audio'] }, thresholds: (delivery) => audioThresholds(delivery)[id], run });
}

export const audioGates: GateDefinition[] = [
  audioGate(
    'loudness',
    'Programme loudness and true peak on target',
    'Our own ITU-R BS.1770-5 meter (K-weighting, 400 ms blocks on a 100 ms hop, −70 LUFS and −10 LU gates; mono measured dual-mono) gives integrated loudness, loudness range (EBU Tech 3342), max momentary/short-term (10 ms hop) and BS.1770 Annex 2 oversampled true peak, all rounded to 0.1 as R 128 displays them. ' +
    "Integrated loudness outside the profile's tolerance is WATCH and outside its wider band BLOCK; true peak over the ceiling is WATCH or BLOCK per profile. " +
    'Broadcast short-form (≤ 120 s) also checks max short-term loudness (R 128 s1) and points at the loudest 3 s; podcasts also check loudness range. Each flag gives a gain command when a plain gain fits under the peak ceiling, and the two-pass ffmpeg loudnorm commands with our measurements filled in.',
    loudnessGate,
  ),
  audioGate(
    'clipping',
    'Clipped or flat-topped audio',
    "Netflix AudioClippingInspector's five criteria on the decoded PCM, per channel: (1) runs of 3 or more identical consecutive samples at or above −0.45 dBFS; (2) 10 or more such runs at the channel's loudest level, at any level; " +
    '(3) more than 0.01 % of samples at full scale (16-bit positive full scale or beyond); (4) the loudest sample level more than 1 dB above the next distinct level; (5) 25 % or more samples at the loudest level than at the next (with at least 10 there). ' +
    'Criteria 2, 4 and 5 are judged only when the loudest sample reaches −30 dBFS. Full-scale samples or 10 or more clipped runs are BLOCK, fewer clipped runs WATCH, criteria 2, 4 and 5 alone WATCH. ' +
    'Clipped runs are located in 10 ms blocks and merged into spans when less than 0.5 s apart.',
    clippingGate,
  ),
  audioGate(
    'dead_air',
    'Silence and dead air',
    'The RMS of the loudest channel over 10 ms blocks; a silence is a run of blocks at or under −60 dBFS. Interior silences at or over the WATCH and BLOCK durations of the profile are flagged; ' +
    'silence at head or tail is flagged only for the part beyond the allowance; a file with no block above the threshold is BLOCK.',
    deadAirGate,
  ),
  audioGate(
    'channel_balance',
    'Channel balance, dead channels, phase and DC offset',
    'Per-channel programme RMS (LFE ignored): a channel 40 dB or more below the loudest is dead (BLOCK for the first two channels, WATCH for others). The first two channels: RMS difference of 3 dB is WATCH and 6 dB BLOCK; ' +
    'programme Pearson correlation below −0.1 is BLOCK (a mono fold-down cancels); 1 s windows at or below −0.3 for 1 s or more are WATCH; one channel 40 dB under the other for 2 s while the programme is active (100 ms blocks over −50 dBFS) is a dropout, WATCH. ' +
    'A mean sample value (DC offset) of 0.01 or more on any channel is WATCH.',
    channelBalanceGate,
  ),
];
