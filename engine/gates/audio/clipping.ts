// clipping: the five Netflix AudioClippingInspector criteria on the decoded PCM, per channel; clipped runs located
// in time and merged into spans.
import type { AudioSignals, FlagDraft, GateContext, GateResult, GateThresholds, Severity } from '../../types.js';
import type { ChannelStats } from '../../audio/stats.js';
import { t } from '../../profiles/threshold-values.js';
import { defineGate } from '../define.js';
import { exceeds, reaches } from '../kit/bands.js';
import { checkCommand } from '../kit/commands.js';
import { gateResult, skippedGate } from '../kit/result.js';
import { round } from '../kit/stats.js';
import { threshold, thresholdValues } from '../kit/thresholds.js';
import { spanText } from '../kit/wording.js';
import { mediaTime, NO_AUDIO, programmeEnd } from './programme-audio.js';

const NETFLIX_CLIPPING = 'Netflix AudioClippingInspector (partnerhelp.netflixstudios.com article 228299408)';

function clippingThresholds(): GateThresholds {
  return {
    runLevelDbfs: t(-0.45, 'dBFS', `${NETFLIX_CLIPPING}, criterion 1: a run of equal samples at or above −0.45 dBFS is a clip`, 'primary'),
    minRunSamples: t(3, 'samples', 'Preflight house rule: a run is at least 3 equal consecutive samples; two equal samples occur naturally at the crest of loud low-frequency 16-bit audio', 'house'),
    clippedRunsWatch: t(1, 'runs', `${NETFLIX_CLIPPING}, criterion 1: one clipped run flags the asset; Preflight makes 1–9 runs WATCH (a few isolated flat tops are often inaudible)`, 'primary'),
    clippedRunsBlock: t(10, 'runs', `Preflight house rule using ${NETFLIX_CLIPPING} criterion 2's count: 10 or more clipped runs at ≥ −0.45 dBFS is audible clipping, BLOCK`, 'house'),
    fullScaleSharePct: t(0.01, '% of samples', `${NETFLIX_CLIPPING}, criterion 3: more than 0.01 % of samples at ±1.0 (full scale) is BLOCK`, 'primary'),
    loudestLevelRuns: t(
      10,
      'runs',
      `${NETFLIX_CLIPPING}, criterion 2: 10 or more distinct runs at the asset's loudest level. Below −0.45 dBFS this is audio clipped and then turned down: WATCH`,
      'primary',
    ),
    loudestAboveNextDb: t(1, 'dB', `${NETFLIX_CLIPPING}, criterion 4: loudest samples more than 1 dB above the rest (WATCH)`, 'primary'),
    loudestOverNextPct: t(25, '%', `${NETFLIX_CLIPPING}, criterion 5: 25 % or more samples at the loudest level than at the next quieter level (WATCH)`, 'primary'),
    minLoudestLevelSamples: t(10, 'samples', 'Preflight house rule: criterion 5 needs at least 10 samples at the loudest level, else two coincident peaks would trigger it', 'house'),
    lossyCrowdingPct: t(
      0.1,
      '% of samples',
      'Preflight house rule: in a lossy decode (AAC, MP3, ...) clipped tops come back as ringing, not as flat runs; 0.1 % or more of all samples crowding at ≥ −0.45 dBFS in non-tonal 10 ms blocks (8+ such samples a block) is clipping, BLOCK. Corpus: clipped AAC 0.37–0.48 %, clean masters 0 %',
      'house',
    ),
    levelCriteriaFloorDbfs: t(
      -30,
      'dBFS',
      'Preflight house rule: criteria 2, 4 and 5 are judged only when the loudest sample reaches −30 dBFS; below that, quantisation steps make sample-level statistics meaningless',
      'house',
    ),
  };
}

/** Spans listed in a clipping flag's instruction and evidence. */
const LISTED_CLIP_SPANS = 10;
const EVIDENCE_CLIP_SPANS = 50;

type ClipCriterion = 'clipped_runs' | 'loudest_level_runs' | 'full_scale_share' | 'loudest_above_rest' | 'loudest_level_pileup' | 'lossy_full_scale_crowding';

/** Netflix AudioClippingInspector criterion numbers, for the evidence. */
const NETFLIX_CRITERION: Record<ClipCriterion, number> = {
  clipped_runs: 1,
  loudest_level_runs: 2,
  full_scale_share: 3,
  loudest_above_rest: 4,
  loudest_level_pileup: 5,
  lossy_full_scale_crowding: 0,
};

/** Codecs that store the samples exactly; everything else is decoded from a lossy encoding. */
const LOSSLESS_CODEC = /^(pcm_|flac$|alac$|wavpack$|tta$|ape$|mlp$|truehd$|s302m$)/;

function isLossy(codec: string | undefined): boolean {
  return codec !== undefined && !LOSSLESS_CODEC.test(codec);
}

function channelCriteria(ch: ChannelStats, th: GateThresholds, lossy: boolean): ClipCriterion[] {
  const c = ch.clipping;
  // Exact samples at full scale with no flat run and nothing beyond 1.0 are crests touching the rail (a peak-normalised
  // sine), not clipping; in a lossy decode every full-scale sample is a reconstruction, so criterion 3 stands.
  const fullScaleIsClipping = lossy || c.clippedRuns > 0 || c.oversSamples > 0;
  const judgeLevels = c.loudestLevelDbfs !== null && reaches(c.loudestLevelDbfs, threshold(th, 'levelCriteriaFloorDbfs'));
  const met: ClipCriterion[] = [];
  if (c.clippedRuns >= threshold(th, 'clippedRunsWatch')) met.push('clipped_runs');
  if (judgeLevels && c.loudestLevelRuns >= threshold(th, 'loudestLevelRuns')) met.push('loudest_level_runs');
  if (fullScaleIsClipping && exceeds(100 * c.fullScaleShare, threshold(th, 'fullScaleSharePct'))) met.push('full_scale_share');
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
    netflixCriteria: criteria.map((k) => NETFLIX_CRITERION[k]).filter((n) => n > 0),
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
  'lossyCrowdingPct',
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

/** Share of all samples (every channel) crowding at full scale in non-tonal blocks, %. */
function crowdingPct(a: AudioSignals): number {
  const all = a.stats.frames * a.stats.channels.length;
  return all > 0 ? (100 * a.stats.clipping.nearFullScaleSpanSamples) / all : 0;
}

function clippedRunsFlag(ctx: GateContext, a: AudioSignals, verdicts: ChannelVerdict[]): FlagDraft {
  const th = ctx.thresholds;
  const stats = a.stats.clipping;
  const totalRuns = a.stats.channels.reduce((n, ch) => n + ch.clipping.clippedRuns, 0);
  const fullScale = verdicts.some((v) => v.criteria.includes('full_scale_share'));
  const crowding = verdicts.some((v) => v.criteria.includes('lossy_full_scale_crowding'));
  const severity: Severity = fullScale || crowding || totalRuns >= threshold(th, 'clippedRunsBlock') ? 'BLOCK' : 'WATCH';
  const runSpans = stats.spans.map((s) => ({ start: mediaTime(a, s.start), end: mediaTime(a, s.end), runs: s.runs, channels: s.channels }));
  // A lossy decode keeps few flat runs: then the blocks crowding at full scale say where the clipping is.
  const spans = runSpans.length
    ? runSpans
    : stats.nearFullScaleSpans.map((s) => ({ start: mediaTime(a, s.start), end: mediaTime(a, s.end), runs: 0, channels: a.stats.channels.map((ch) => ch.name) }));
  const spanCount = runSpans.length ? stats.spanCount : stats.nearFullScaleSpanCount;
  const where = spans.length ? { start: spans[0].start, end: spans[spans.length - 1].end } : levelCriteriaSpan(a, verdicts);
  const listed = spans.slice(0, LISTED_CLIP_SPANS).map((s) => `${spanText(s.start, s.end)} (${s.channels.join('+')}${runSpans.length ? `, ${s.runs} runs` : ''})`);
  const more = spanCount > listed.length ? ` and ${spanCount - listed.length} more` : '';
  const fullScalePct = Math.max(...verdicts.map((v) => 100 * v.ch.clipping.fullScaleShare));
  const summaryParts = [
    totalRuns > 0 ? `${totalRuns} clipped run${totalRuns === 1 ? '' : 's'} at ≥ ${threshold(th, 'runLevelDbfs')} dBFS` : null,
    fullScale ? `${round(fullScalePct, 3)} % of samples at full scale` : null,
    crowding ? `${round(crowdingPct(a), 3)} % of samples crowding at ≥ ${threshold(th, 'runLevelDbfs')} dBFS in a lossy decode` : null,
  ].filter(Boolean);
  const inSpans = spanCount ? ` in ${spanCount} span${spanCount === 1 ? '' : 's'}` : '';
  return {
    severity,
    start: where.start,
    end: where.end,
    summary: `Clipped audio${inSpans}: ${summaryParts.join(', ')}`,
    evidence: {
      clippedRuns: totalRuns,
      channels: verdicts.map((v) => channelClipEvidence(v.ch, v.criteria)),
      spans: spans.slice(0, EVIDENCE_CLIP_SPANS),
      spanCount,
      spansFrom: runSpans.length ? 'clipped_runs' : 'near_full_scale_blocks',
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

function judgeClipping(ctx: GateContext): GateResult {
  const a = ctx.signals.audio;
  if (!a) return skippedGate('clipping', NO_AUDIO);
  const th = ctx.thresholds;
  const lossy = isLossy(ctx.media.audio?.codec);
  const crowded = lossy && reaches(crowdingPct(a), threshold(th, 'lossyCrowdingPct'));
  const all = a.stats.channels.map((ch) => {
    const criteria = channelCriteria(ch, th, lossy);
    if (crowded && ch.clipping.nearFullScaleSamples > 0) criteria.push('lossy_full_scale_crowding');
    return { ch, criteria };
  });
  const flagged = all.filter((v) => v.criteria.length > 0);
  const hardEvidence = flagged.some((v) => v.criteria.some((k) => k === 'clipped_runs' || k === 'full_scale_share' || k === 'lossy_full_scale_crowding'));
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
      lossyDecode: lossy,
      crowdingPct: round(crowdingPct(a), 4),
      loudestLevelDbfs: Number.isFinite(loudest) ? round(loudest, 2) : null,
      netflixCriteriaMet: [...new Set(flagged.flatMap((v) => v.criteria.map((k) => NETFLIX_CRITERION[k])))].sort(),
      channels: all.map((v) => channelClipEvidence(v.ch, v.criteria)),
    },
    flags,
  );
}

export const clippingGate = defineGate({
  id: 'clipping',
  area: 'audio',
  title: 'Clipped or flat-topped audio',
  algorithm:
    "Netflix AudioClippingInspector's five criteria on the decoded PCM, per channel: (1) runs of 3 or more identical consecutive samples at or above −0.45 dBFS; (2) 10 or more such runs at the channel's loudest level, at any level; " +
    '(3) more than 0.01 % of samples at full scale (16-bit positive full scale or beyond); (4) the loudest sample level more than 1 dB above the next distinct level; (5) 25 % or more samples at the loudest level than at the next (with at least 10 there). ' +
    'Criteria 2, 4 and 5 are judged only when the loudest sample reaches −30 dBFS. In exact (PCM, lossless) audio, full-scale samples with no flat run and none beyond 1.0 are crests touching the rail (a peak-normalised sine) and do not count for (3). ' +
    'A lossy decode (AAC, MP3, ...) rings around clipped tops instead of keeping flat runs, so there lossyCrowdingPct or more of all samples at ≥ −0.45 dBFS in non-tonal 10 ms blocks (8 or more a block) is clipping too. ' +
    'Full-scale samples, lossy crowding or 10 or more clipped runs are BLOCK, fewer clipped runs WATCH, criteria 2, 4 and 5 alone WATCH. ' +
    'Clipped runs (or, in a lossy decode without runs, the crowded blocks) are located in 10 ms blocks and merged into spans when less than 0.5 s apart.',
  requires: { kinds: ['video', 'audio'], signals: ['audio'] },
  thresholds: clippingThresholds,
  run: judgeClipping,
});
