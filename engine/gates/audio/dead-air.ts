// dead_air: silences of the loudest channel, with an allowance at the head and tail of the programme.
import type { AudioSignals, FlagDraft, GateContext, GateResult, GateThresholds, MediaInfo, Severity } from '../../types.js';
import type { DeliveryProfileId } from '../../profiles/index.js';
import { t, VERTICAL_DELIVERIES } from '../../profiles/threshold-values.js';
import { defineGate } from '../define.js';
import { reaches, severityBand } from '../kit/bands.js';
import { checkCommand, reencodeOptions, trimCommand } from '../kit/commands.js';
import { gateResult, skippedGate } from '../kit/result.js';
import { round, runsOf } from '../kit/stats.js';
import { threshold, thresholdValues } from '../kit/thresholds.js';
import { spanText } from '../kit/wording.js';
import { mediaTime, NO_AUDIO } from './programme-audio.js';

function deadAirThresholds(delivery: DeliveryProfileId): GateThresholds {
  const podcast = delivery === 'podcast_delivery';
  const shortForm = VERTICAL_DELIVERIES.includes(delivery);
  const [watch, block] = podcast ? [3, 8] : shortForm ? [1.5, 3] : [2, 5];
  const why = podcast
    ? 'speech has natural pauses of 2–3 s; a podcast allows longer ones'
    : shortForm
      ? 'in a video of at most a few minutes a silent gap this long reads as a broken export'
      : 'a gap this long reads as missing audio';
  return {
    silenceThresholdDbfs: t(-60, 'dBFS', 'ffmpeg silencedetect default noise level n = −60 dB; applied to the RMS of the loudest channel over 10 ms', 'primary'),
    interiorWatchSeconds: t(watch, 's', `Preflight house rule (ffmpeg silencedetect's default minimum is 2 s): ${why}; WATCH`, 'house'),
    interiorBlockSeconds: t(block, 's', `Preflight house rule: interior silence this long is dead air, BLOCK`, 'house'),
    headTailAllowanceSeconds: t(
      podcast ? 2 : 1,
      's',
      podcast ? 'Preflight house rule: up to 2 s of silence before the first and after the last sound is normal for a podcast' : 'Preflight house rule, as for black picture: up to 1 s of silence at head and tail is normal',
      'house',
    ),
  };
}

/** A cut dead-air pause keeps this much silence. */
const KEPT_PAUSE_SECONDS = 0.5;

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

function judgeDeadAir(ctx: GateContext): GateResult {
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

export const deadAirGate = defineGate({
  id: 'dead_air',
  area: 'audio',
  title: 'Silence and dead air',
  algorithm:
    'The RMS of the loudest channel over 10 ms blocks; a silence is a run of blocks at or under −60 dBFS. Interior silences at or over the WATCH and BLOCK durations of the profile are flagged; ' +
    'silence at head or tail is flagged only for the part beyond the allowance; a file with no block above the threshold is BLOCK.',
  requires: { kinds: ['video', 'audio'], signals: ['audio'] },
  thresholds: deadAirThresholds,
  run: judgeDeadAir,
});
