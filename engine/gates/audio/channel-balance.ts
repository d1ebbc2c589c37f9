// channel_balance: dead channels, level imbalance and dropouts, phase (polarity and out-of-phase spans) and DC offset.
import type { AudioSignals, FlagDraft, GateContext, GateResult, GateThresholds } from '../../types.js';
import type { ChannelStats } from '../../audio/stats.js';
import { t } from '../../profiles/threshold-values.js';
import { defineGate } from '../define.js';
import { exceeds, reaches, severityBand } from '../kit/bands.js';
import { audioOutputOptions, checkCommand } from '../kit/commands.js';
import { gateResult, skippedGate } from '../kit/result.js';
import { round, runsOf } from '../kit/stats.js';
import { threshold, thresholdValues } from '../kit/thresholds.js';
import { fixed1, spanText } from '../kit/wording.js';
import { db1, mediaTime, NO_AUDIO, programmeEnd } from './programme-audio.js';

function channelBalanceThresholds(): GateThresholds {
  return {
    imbalanceWatchDb: t(3, 'dB', 'Preflight house rule: programme RMS of the first two channels differs by 3 dB or more, WATCH (a pan or gain error is audible)', 'house'),
    imbalanceBlockDb: t(6, 'dB', 'Preflight house rule: 6 dB or more is a one-sided mix, BLOCK', 'house'),
    deadChannelBelowLoudestDb: t(
      40,
      'dB',
      'Preflight house rule: a channel 40 dB or more below the loudest over the programme is dead: BLOCK for the first two channels, WATCH for others (a quiet surround can be intended); LFE is ignored',
      'house',
    ),
    dropoutWatchSeconds: t(2, 's', 'Preflight house rule: a channel 40 dB below the loudest for 2 s or more while the programme is active is a dropout, WATCH', 'house'),
    activityFloorDbfs: t(-50, 'dBFS', 'Preflight house rule: 100 ms blocks and 1 s windows whose loudest channel is under −50 dBFS are too quiet to judge balance or phase', 'house'),
    phaseWindowCorrelationWatch: t(
      -0.3,
      'correlation',
      'Preflight house rule: Pearson correlation of L and R at or below −0.3 over a 1 s window means out-of-phase content that partly cancels in a mono fold-down, WATCH',
      'house',
    ),
    phaseSustainSeconds: t(1, 's', 'Preflight house rule: the negative correlation must last at least 1 s (one window)', 'house'),
    overallCorrelationBlock: t(
      -0.1,
      'correlation',
      'Preflight house rule: programme correlation below −0.1 means one channel is polarity-inverted or the mix collapses in mono (centred voice cancels), BLOCK. Not 0: fully decorrelated stereo measures 0 ± a few hundredths',
      'house',
    ),
    dcOffsetWatch: t(0.01, 'fraction of full scale', 'Preflight house rule: |DC offset| ≥ 0.01 (−40 dBFS) wastes headroom and clicks at edits, WATCH', 'house'),
  };
}

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

function judgeChannelBalance(ctx: GateContext): GateResult {
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

export const channelBalanceGate = defineGate({
  id: 'channel_balance',
  area: 'audio',
  title: 'Channel balance, dead channels, phase and DC offset',
  algorithm:
    'Per-channel programme RMS (LFE ignored): a channel 40 dB or more below the loudest is dead (BLOCK for the first two channels, WATCH for others). The first two channels: RMS difference of 3 dB is WATCH and 6 dB BLOCK; ' +
    'programme Pearson correlation below −0.1 is BLOCK (a mono fold-down cancels); 1 s windows at or below −0.3 for 1 s or more are WATCH; one channel 40 dB under the other for 2 s while the programme is active (100 ms blocks over −50 dBFS) is a dropout, WATCH. ' +
    'A mean sample value (DC offset) of 0.01 or more on any channel is WATCH.',
  requires: { kinds: ['video', 'audio'], signals: ['audio'] },
  thresholds: channelBalanceThresholds,
  run: judgeChannelBalance,
});
