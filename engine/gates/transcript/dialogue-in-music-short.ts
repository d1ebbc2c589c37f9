// dialogue_in_music_short: how little of a music-led short is speech, with the lines to check by ear.
import { houseRule, t } from '../../profiles/threshold-values.js';
import { quoteWords, type Timeline } from '../../text/timeline.js';
import type { GateContext, GateResult, GateThresholds } from '../../types.js';
import { defineGate } from '../define.js';
import { gateResultAtMs, skippedGate } from '../kit/result.js';
import { round } from '../kit/stats.js';
import { threshold, thresholdValues } from '../kit/thresholds.js';
import { hms } from '../kit/wording.js';
import { hasMediaTimeline, timelineOf, timingEvidence } from './transcript-evidence.js';

function dialogueInMusicShortThresholds(): GateThresholds {
  return {
    maxShortSeconds: t(180, 's', 'YouTube Shorts and Instagram Reels are at most 3 min (YouTube announcement of 15 Oct 2024 quoted by kapwing and hindustantimes; Instagram via gadinsider)', 'secondary'),
    sparseSpeechWatchPct: houseRule(
      30,
      '% of the duration',
      'speech under this share of a short makes it music-led, where a few spoken lines are easily buried under the music; a person should check the mix',
    ),
    assumedWordsPerSecond: houseRule(2.5, 'words/s', 'typical narration rate (about 150 words a minute), used to estimate speech time when the transcript has no timings'),
    lineGapSeconds: houseRule(1.0, 's', 'words closer than this belong to one spoken line'),
  };
}

/** Lines quoted in a dialogue_in_music_short flag. */
const LISTED_LINES = 10;

interface SpokenLine {
  first: number;
  last: number;
  start: number;
  end: number;
  /** Seconds covered by the line's words (their union, gaps inside the line excluded). */
  speech: number;
}

/** Consecutive spoken words closer than `gap` seconds form a line. */
function spokenLines(timeline: Timeline, gap: number): SpokenLine[] {
  const lines: SpokenLine[] = [];
  timeline.spoken.forEach((token, k) => {
    const start = timeline.starts[token.index];
    const end = Math.min(timeline.ends[token.index], timeline.end);
    const line = lines.at(-1);
    if (line && start - line.end < gap) {
      line.speech += Math.max(0, end - Math.max(start, line.end));
      line.last = k;
      line.end = Math.max(line.end, end);
    } else {
      lines.push({ first: k, last: k, start, end, speech: Math.max(0, end - start) });
    }
  });
  return lines;
}

function lineEvidence(timeline: Timeline, line: SpokenLine): Record<string, unknown> {
  const q = quoteWords(timeline.text, timeline.spoken[line.first].start, timeline.spoken[line.last].end);
  return { at: hms(line.start), start: round(line.start, 3), end: round(line.end, 3), quote: q };
}

function judgeDialogueInMusicShort(ctx: GateContext): GateResult {
  const transcript = ctx.sidecars.transcript;
  if (!transcript) return skippedGate('dialogue_in_music_short', 'needs transcript');
  if (!hasMediaTimeline(ctx)) return skippedGate('dialogue_in_music_short', 'needs the media duration: a sidecar-only check has none');
  const th = ctx.thresholds;
  const duration = ctx.media.durationSeconds;
  const maxShort = threshold(th, 'maxShortSeconds');
  if (duration > maxShort) return skippedGate('dialogue_in_music_short', `applies to shorts of at most ${maxShort} s; this media is ${round(duration, 1)} s`);
  const timeline = timelineOf(ctx, transcript);
  const words = timeline.spoken.length;
  const estimated = timeline.timing === 'none';
  const lines = estimated ? [] : spokenLines(timeline, threshold(th, 'lineGapSeconds'));
  const speech = estimated ? Math.min(duration, words / threshold(th, 'assumedWordsPerSecond')) : lines.reduce((sum, line) => sum + line.speech, 0);
  const coveragePct = (100 * speech) / duration;
  const measurements = {
    timing: timeline.timing,
    spokenWords: words,
    speechSeconds: round(speech, 2),
    speechEstimated: estimated,
    durationSeconds: round(duration, 3),
    speechCoveragePct: round(coveragePct, 1),
    lines: estimated ? null : lines.length,
  };
  const limit = threshold(th, 'sparseSpeechWatchPct');
  if (words === 0 || coveragePct >= limit) return gateResultAtMs('dialogue_in_music_short', measurements, []);
  const listed = lines.slice(0, LISTED_LINES).map((line) => lineEvidence(timeline, line));
  const span = estimated ? { start: 0, end: duration } : { start: lines[0].start, end: lines[lines.length - 1].end };
  const where = estimated
    ? `the spoken lines (no word timings; the transcript reads "${quoteWords(timeline.text, timeline.spoken[0].start, timeline.spoken[words - 1].end)}")`
    : listed.map((l) => `${l.at} "${l.quote}"`).join('; ');
  return gateResultAtMs('dialogue_in_music_short', measurements, [
    {
      severity: 'WATCH',
      start: span.start,
      end: span.end,
      summary: `Dialogue covers ${round(coveragePct, 1)} % of this ${round(duration, 1)} s short (${round(speech, 1)} s of speech${estimated ? ', estimated' : ` in ${lines.length} line${lines.length === 1 ? '' : 's'}`}): it may be buried under the music`,
      evidence: { ...measurements, spokenLines: estimated ? [] : listed, ...timingEvidence(timeline), threshold: thresholdValues(th, ['sparseSpeechWatchPct', 'maxShortSeconds']) },
      repair: {
        action: 'check_mix',
        reachable: false,
        instruction:
          `Listen to ${where}: in a music-led short these lines must sit clearly above the music. Duck the music under each line and caption it; ` +
          'if the short is meant to be music-only, remove the lines.',
        verify: 'This flag measures how little of the short is speech, not the mix: after the fix, confirm by ear that every listed line is intelligible over the music.',
      },
    },
  ]);
}

export const dialogueInMusicShortGate = defineGate({
  id: 'dialogue_in_music_short',
  area: 'transcript',
  title: 'Dialogue buried in a music short',
  algorithm:
    'For media of at most maxShortSeconds (else skipped). Whether dialogue is audible over music cannot be read from a transcript, and the mix is not ' +
      'separated into voice and music here; what is measured is how much of the short is speech: the union of the spoken words\u2019 times ' +
      '(words closer than lineGapSeconds form a line; cue times when there are no word timings; without any timings, words ÷ assumedWordsPerSecond, marked ' +
      'estimated) over the duration. Speech under sparseSpeechWatchPct of a short that has any speech is WATCH: a music-led short whose few lines are easily ' +
      'buried, listed with their times for a person to check by ear. No speech (music only) or more speech passes. Never BLOCK.',
  requires: { kinds: ['video', 'audio'], sidecars: ['transcript'] },
  thresholds: dialogueInMusicShortThresholds,
  run: judgeDialogueInMusicShort,
});
