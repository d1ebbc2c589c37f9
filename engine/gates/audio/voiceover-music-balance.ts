// voiceover_music_balance: the declared voice and music levels of each segment, and whether the render's measured
// loudness matches them.
import { t } from '../../profiles/threshold-values.js';
import type { AudioSignals, FlagDraft, GateContext, GateResult, GateThresholds, Severity } from '../../types.js';
import { defineGate } from '../define.js';
import { exceeds, fallsBelow, severityBand } from '../kit/bands.js';
import { fieldPath, manifestOrSkip, isManifest, segmentName, segmentRef, type SegmentRef } from '../kit/manifest-refs.js';
import { gateResult } from '../kit/result.js';
import { median, round } from '../kit/stats.js';
import { threshold, thresholdValues } from '../kit/thresholds.js';
import { fixed1, reRunWithManifest, spanText } from '../kit/wording.js';

function voiceoverMusicBalanceThresholds(): GateThresholds {
  return {
    watchBelowDb: t(
      10,
      'dB (voice − music)',
      'Torcoli et al., "Preferred Levels for Background Ducking to Produce Esthetically Pleasing Audio for TV with Clear Speech", JAES 67(12), 2019: at least 10 LU for commentary over music; applied to the declared levels (WCAG technique G56 asks 20 dB for accessible audio)',
      'secondary',
    ),
    blockBelowDb: t(4, 'dB (voice − music)', 'Preflight house rule: music within 4 dB of the voice is about as loud as the speech and masks it for many listeners', 'house'),
    renderMismatchDb: t(
      6,
      'dB',
      'Preflight house rule: the measured segment loudness (median short-term LUFS) may differ from the declared voice + music level by up to 6 dB (scale differences between LUFS and dBFS, pauses, effects)',
      'house',
    ),
  };
}

/** Meter series: value k is the window ending (k + 1) × 100 ms after the audio start. */
const SERIES_STEP_SECONDS = 0.1;
const SHORT_TERM_SECONDS = 3;
const MOMENTARY_SECONDS = 0.4;

/** Float slack when converting segment times to series steps. */
const STEP_TOLERANCE = 1e-6;

interface MeasuredLevel {
  measure: 'short-term' | 'momentary';
  /** Median of the windows inside the segment above the −70 LUFS gate; null when all of them are silent. */
  lufs: number | null;
  windows: number;
}

/** Windows of a meter series lying wholly inside [start, end] (media time). */
function windowsInside(series: (number | null)[], a: AudioSignals, start: number, end: number, width: number): (number | null)[] {
  const steps = (seconds: number) => (seconds - a.startSeconds) / SERIES_STEP_SECONDS;
  const first = Math.ceil(steps(start + width) - STEP_TOLERANCE) - 1;
  const last = Math.floor(steps(end) + STEP_TOLERANCE) - 1;
  return series.slice(Math.max(0, first), Math.max(0, Math.min(series.length, last + 1)));
}

/** The segment's level from the short-term series, or the momentary one when the segment is shorter than 3 s. */
function measuredLevel(a: AudioSignals, ref: SegmentRef): MeasuredLevel | null {
  const candidates: [MeasuredLevel['measure'], (number | null)[], number][] = [
    ['short-term', a.loudness.shortTerm, SHORT_TERM_SECONDS],
    ['momentary', a.loudness.momentary, MOMENTARY_SECONDS],
  ];
  for (const [measure, series, width] of candidates) {
    const windows = windowsInside(series, a, ref.start, ref.end, width);
    if (windows.length === 0) continue;
    const audible = windows.filter((v): v is number => v !== null);
    return { measure, lufs: audible.length ? round(median(audible), 1) : null, windows: windows.length };
  }
  return null;
}

const powerSumDb = (levels: number[]) => 10 * Math.log10(levels.reduce((sum, db) => sum + 10 ** (db / 10), 0));

function marginPhrase(margin: number): string {
  if (margin > 0) return `Voice is only ${fixed1(margin)} dB above the music`;
  return margin === 0 ? 'Voice and music are equally loud' : `Music is ${fixed1(-margin)} dB louder than the voice`;
}

function balanceFlag(ref: SegmentRef, voice: number, music: number, severity: Severity, th: GateThresholds): FlagDraft {
  const name = segmentName(ref);
  const margin = round(voice - music, 1);
  const watch = threshold(th, 'watchBelowDb');
  const lowerBy = round(watch - margin, 1);
  return {
    severity,
    start: ref.start,
    end: ref.end,
    summary: `${marginPhrase(margin)} in ${name} (mix.voiceDb ${voice}, mix.musicDb ${music}); ${watch} dB or more keeps speech clear`,
    evidence: { segment: ref, field: fieldPath(ref.index, 'mix'), voiceDb: voice, musicDb: music, marginDb: margin, threshold: thresholdValues(th, ['watchBelowDb', 'blockBelowDb']) },
    repair: {
      action: 'rebalance_mix',
      reachable: false,
      instruction: `Lower the music under ${name} by at least ${fixed1(lowerBy)} dB (to ${fixed1(voice - watch)} dB or below, ${watch} dB under the voice) or duck it while the voice speaks, re-render the mix for ${spanText(ref.start, ref.end)} and update mix.musicDb.`,
      verify: reRunWithManifest('voiceover_music_balance', `no voiceover_music_balance flag for segments[${ref.index}]`),
    },
  };
}

function mismatchFlag(ref: SegmentRef, voice: number, music: number | undefined, measured: MeasuredLevel, mismatchDb: number): FlagDraft {
  const name = segmentName(ref);
  const expected = round(powerSumDb(music === undefined ? [voice] : [voice, music]), 1);
  const declared = music === undefined ? `voice ${voice} dB` : `voice ${voice} dB + music ${music} dB ≈ ${fixed1(expected)} dB`;
  const heard = measured.lufs === null ? 'silence' : `${fixed1(measured.lufs)} LUFS (median ${measured.measure} loudness)`;
  return {
    severity: 'WATCH',
    start: ref.start,
    end: ref.end,
    summary: `Mix metadata does not match the render in ${name}: declared ${declared}, measured ${heard}`,
    evidence: {
      segment: ref,
      field: fieldPath(ref.index, 'mix'),
      voiceDb: voice,
      musicDb: music ?? null,
      declaredMixDb: expected,
      measuredLufs: measured.lufs,
      measure: measured.measure,
      windows: measured.windows,
      differenceDb: measured.lufs === null ? null : round(measured.lufs - expected, 1),
      threshold: { renderMismatchDb: mismatchDb },
    },
    repair: {
      action: 'check_mix_metadata',
      reachable: false,
      instruction: `Check that the mix levels of ${name} describe this render (same export, same scale, LUFS or dBFS): correct mix.voiceDb/mix.musicDb in the manifest, or re-export the mix of ${spanText(ref.start, ref.end)} if the render is wrong.`,
      verify: reRunWithManifest('voiceover_music_balance', `no voiceover_music_balance flag for segments[${ref.index}]`),
    },
  };
}

function balanceSeverity(margin: number, th: GateThresholds): Severity | null {
  return severityBand(margin, threshold(th, 'watchBelowDb'), threshold(th, 'blockBelowDb'), fallsBelow);
}

interface MixComparison {
  flag: FlagDraft | null;
  differenceDb: number | null;
}

function compareWithRender(a: AudioSignals, ref: SegmentRef, voice: number, music: number | undefined, mismatchDb: number): MixComparison | null {
  const measured = measuredLevel(a, ref);
  if (!measured) return null;
  const expected = powerSumDb(music === undefined ? [voice] : [voice, music]);
  const difference = measured.lufs === null ? null : round(measured.lufs - expected, 1);
  const mismatch = difference === null || exceeds(Math.abs(difference), mismatchDb);
  return { flag: mismatch ? mismatchFlag(ref, voice, music, measured, mismatchDb) : null, differenceDb: difference };
}

function voiceoverMusicBalance(ctx: GateContext): GateResult {
  const manifest = manifestOrSkip(ctx, 'voiceover_music_balance');
  if (!isManifest(manifest)) return manifest;
  const th = ctx.thresholds;
  const audio = ctx.signals.audio;
  const withMix = manifest.segments.flatMap((s, i) => (s.mix && (s.mix.voiceDb !== undefined || s.mix.musicDb !== undefined) ? [{ segment: s, ref: segmentRef(s, i) }] : []));
  const measurements: Record<string, unknown> = { segments: manifest.segments.length, segmentsWithMix: withMix.length };
  if (withMix.length === 0) return { gate: 'voiceover_music_balance', status: 'skipped', reason: 'needs mix levels (segments[].mix.voiceDb and musicDb) in the manifest', measurements, flags: [] };
  const flags: FlagDraft[] = [];
  const margins: number[] = [];
  const differences: number[] = [];
  let compared = 0;
  for (const { segment, ref } of withMix) {
    const { voiceDb: voice, musicDb: music } = segment.mix ?? {};
    if (voice !== undefined && music !== undefined) {
      margins.push(voice - music);
      const severity = balanceSeverity(round(voice - music, 1), th);
      if (severity) flags.push(balanceFlag(ref, voice, music, severity, th));
    }
    const comparison = audio && voice !== undefined ? compareWithRender(audio, ref, voice, music, threshold(th, 'renderMismatchDb')) : null;
    if (!comparison) continue;
    compared++;
    if (comparison.differenceDb !== null) differences.push(comparison.differenceDb);
    if (comparison.flag) flags.push(comparison.flag);
  }
  Object.assign(measurements, {
    segmentsWithBalance: margins.length,
    lowestVoiceOverMusicDb: margins.length ? round(Math.min(...margins), 1) : null,
    renderComparison: audio ? 'measured short-term loudness per segment' : 'not possible: the file has no audio',
    segmentsComparedWithRender: compared,
    largestRenderDifferenceDb: differences.length ? differences.reduce((a, b) => (Math.abs(b) > Math.abs(a) ? b : a)) : null,
  });
  return gateResult('voiceover_music_balance', measurements, flags);
}

export const voiceoverMusicBalanceGate = defineGate({
  id: 'voiceover_music_balance',
  area: 'audio',
  title: 'Voice-over against music balance',
  algorithm:
    'Per segment with mix.voiceDb and mix.musicDb: voice less than watchBelowDb above the music is WATCH, less than blockBelowDb BLOCK. When the file has audio, each segment declaring voiceDb is compared with the render: ' +
    'the median short-term loudness (3 s windows wholly inside the segment; 400 ms momentary windows for segments under 3 s) against the power sum of the declared voice and music levels; ' +
    'a difference over renderMismatchDb, or silence where a voice is declared, is WATCH (the mix metadata does not match the render). No mix levels in the manifest: skipped.',
  requires: { kinds: ['video', 'audio'], signals: ['audio'], sidecars: [{ sidecar: 'manifest', part: 'mix metadata' }] },
  thresholds: voiceoverMusicBalanceThresholds,
  run: voiceoverMusicBalance,
});
