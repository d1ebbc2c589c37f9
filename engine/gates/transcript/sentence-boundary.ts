// sentence_boundary: the programme ends on a finished sentence, with pre-roll before the first word and no long tail.
import type { DeliveryProfileId } from '../../profiles/index.js';
import { houseRule, VERTICAL_DELIVERIES } from '../../profiles/threshold-values.js';
import { type Token } from '../../text/match.js';
import { charSpan, quoteWords, tokenSpan, widenToWords, type Timeline, type TimeSpan } from '../../text/timeline.js';
import type { FlagDraft, GateContext, GateResult, GateThresholds } from '../../types.js';
import { defineGate } from '../define.js';
import { severityBand } from '../kit/bands.js';
import { trimCommand } from '../kit/commands.js';
import { gateResultAtMs, skippedGate } from '../kit/result.js';
import { round } from '../kit/stats.js';
import { threshold, thresholdValues } from '../kit/thresholds.js';
import { hms } from '../kit/wording.js';
import { hasMediaTimeline, located, timelineOf, timeSpanText, timingEvidence, verify } from './transcript-evidence.js';

function sentenceBoundaryThresholds(delivery: DeliveryProfileId): GateThresholds {
  const vertical = VERTICAL_DELIVERIES.includes(delivery);
  const podcast = delivery === 'podcast_delivery';
  const [tailWatch, tailBlock, tailWhy] = vertical
    ? [4, 10, 'a short loses viewers (and loops) on seconds without speech at the end']
    : podcast
      ? [30, 120, 'outro music after the last words is normal in a podcast; minutes of it are an export error']
      : [25, 60, 'video-site end screens last 5–20 s after the last words (YouTube Help, "Add end screens to videos"), plus a margin'];
  return {
    preRollWatchSeconds: houseRule(0.1, 's', 'speech starting this close to the first frame gets clipped by players and platforms that fade in or trim the start'),
    tailGapWatchSeconds: houseRule(tailWatch, 's', tailWhy),
    tailGapBlockSeconds: houseRule(tailBlock, 's', tailWhy),
    cutOffSeconds: houseRule(0.25, 's', 'an unfinished sentence whose last word ends this close to the media end was cut by the end of the file (BLOCK); further from the end it is WATCH'),
    overrunWatchSeconds: houseRule(0.5, 's', 'transcript times past the media end mean the file was cut short, or the transcript belongs to another version'),
  };
}

/** A trimmed tail keeps this much after the last word, so the programme does not end on the final syllable. */
const TAIL_KEEP_SECONDS = 1;
const TERMINAL = /[.!?…]/;
const PUNCTUATED = /[.!?…](?=[\s"'”’)\]]|$)|[,;:](?=\s)/;

/** The text after the last spoken word, annotations removed: does it close the sentence? */
function endsOnSentence(timeline: Timeline, last: Token): boolean {
  let tail = timeline.text.slice(last.end);
  for (const a of [...timeline.annotations].reverse()) {
    if (a.start >= last.end) tail = tail.slice(0, a.start - last.end) + tail.slice(a.end - last.end);
  }
  return TERMINAL.test(tail);
}

/** Character offset where the last sentence begins (after the last terminal punctuation before `end`). */
function lastSentenceStart(text: string, end: number): number {
  for (let i = end - 1; i >= 0; i--) if (TERMINAL.test(text[i])) return i + 1;
  return 0;
}

/** The text from `from` to the end of the word at `to`; a long quote keeps its end (where a sentence is cut). */
function tailQuote(text: string, from: number, to: number, max = 160): string {
  const slice = text
    .slice(from, widenToWords(text, to, to)[1])
    .replace(/\s+/g, ' ')
    .trim();
  return slice.length <= max ? slice : `…${slice.slice(slice.length - max + 1).trimStart()}`;
}

function midSentenceFlag(ctx: GateContext, timeline: Timeline, last: Token, timed: boolean): FlagDraft {
  const from = lastSentenceStart(timeline.text, last.end);
  const span = charSpan(timeline, from, last.end);
  const q = tailQuote(timeline.text, from, last.end);
  const cutOff = threshold(ctx.thresholds, 'cutOffSeconds');
  const lastEnd = timeline.ends[last.index];
  const cut = timed && hasMediaTimeline(ctx) && timeline.end - lastEnd <= cutOff;
  return {
    severity: cut ? 'BLOCK' : 'WATCH',
    start: span.start,
    end: span.end,
    summary: cut
      ? `Programme ends mid-sentence: "${q}" is cut by the end of the file at ${hms(timeline.end)}`
      : `Programme ends on an unfinished sentence: "${q}" (${timeSpanText(span)})`,
    evidence: {
      quote: q,
      ...located(span),
      lastWordEnd: round(lastEnd, 3),
      mediaEnd: round(timeline.end, 3),
      ...timingEvidence(timeline),
      threshold: thresholdValues(ctx.thresholds, ['cutOffSeconds']),
    },
    repair: cut
      ? {
          action: 're_export_ending',
          reachable: false,
          instruction: `The last sentence ("${q}") runs into the end of the file at ${hms(timeline.end)}. Re-export with the out point after the end of the sentence, or re-voice ${timeSpanText(span)} as a complete sentence.`,
          verify: verify('sentence_boundary', span, 'mid-sentence flag'),
        }
      : {
          action: 're_voice_span',
          reachable: false,
          instruction: `The programme's last words ("${q}", ${timeSpanText(span)}) do not finish a sentence. Finish the sentence in the script and re-voice it, or cut back to the end of the previous sentence.`,
          verify: verify('sentence_boundary', span, 'mid-sentence flag'),
        },
  };
}

function firstWords(timeline: Timeline, count = 8): { span: TimeSpan; q: string } {
  const spoken = timeline.spoken;
  const last = spoken[Math.min(spoken.length, count) - 1];
  return { span: tokenSpan(timeline, spoken[0].index, last.index), q: quoteWords(timeline.text, spoken[0].start, last.end) };
}

function preRollFlag(ctx: GateContext, timeline: Timeline): FlagDraft | null {
  const limit = threshold(ctx.thresholds, 'preRollWatchSeconds');
  const firstStart = timeline.starts[timeline.spoken[0].index];
  if (firstStart >= limit) return null;
  const { span, q } = firstWords(timeline);
  return {
    severity: 'WATCH',
    start: span.start,
    end: span.end,
    summary: `Speech starts at ${hms(firstStart)}, with no pre-roll: "${q}"`,
    evidence: { quote: q, firstWordStart: round(firstStart, 3), ...located(span), ...timingEvidence(timeline), threshold: thresholdValues(ctx.thresholds, ['preRollWatchSeconds']) },
    repair: {
      action: 'add_pre_roll',
      reachable: true,
      instruction: `The first word starts at ${hms(firstStart)}, inside the first ${limit} s. Add a short lead-in (e.g. 0.5 s of held first frame and silence) before "${q}" in the edit and re-export.`,
      verify: `Re-run the check with checks=sentence_boundary; expect the first word to start at or after ${limit} s.`,
    },
  };
}

function lastWords(timeline: Timeline, count = 8): { span: TimeSpan; q: string } {
  const spoken = timeline.spoken;
  const first = spoken[Math.max(0, spoken.length - count)];
  const last = spoken[spoken.length - 1];
  return { span: tokenSpan(timeline, first.index, last.index), q: tailQuote(timeline.text, first.start, last.end) };
}

function tailGapFlag(ctx: GateContext, timeline: Timeline, lastEnd: number): FlagDraft | null {
  const watch = threshold(ctx.thresholds, 'tailGapWatchSeconds');
  const block = threshold(ctx.thresholds, 'tailGapBlockSeconds');
  const gap = timeline.end - lastEnd;
  const severity = severityBand(gap, watch, block);
  if (!severity) return null;
  const { q } = lastWords(timeline);
  const span = { start: lastEnd, end: timeline.end };
  return {
    severity,
    start: span.start,
    end: span.end,
    summary: `${round(gap, 1)} s without speech after the last words ("${q}", ending ${hms(lastEnd)})`,
    evidence: {
      quote: q,
      lastWordEnd: round(lastEnd, 3),
      mediaEnd: round(timeline.end, 3),
      tailGapSeconds: round(gap, 3),
      ...timingEvidence(timeline),
      threshold: thresholdValues(ctx.thresholds, ['tailGapWatchSeconds', 'tailGapBlockSeconds']),
    },
    repair: {
      action: 'trim_tail',
      reachable: true,
      instruction:
        `Nothing is said in ${timeSpanText(span)} after "${q}". If that is not an intended end screen or outro (keep those under ${watch} s), ` +
        `trim the tail to ${TAIL_KEEP_SECONDS} s after the last word: ${trimCommand(ctx.media, 'tail', ctx.media.startSeconds + lastEnd + TAIL_KEEP_SECONDS)}`,
      verify: `Re-run the check with checks=sentence_boundary; expect under ${watch} s between the last word and the end.`,
    },
  };
}

function overrunFlag(ctx: GateContext, timeline: Timeline, lastEnd: number): FlagDraft | null {
  const limit = threshold(ctx.thresholds, 'overrunWatchSeconds');
  if (lastEnd - timeline.end <= limit) return null;
  const { q } = lastWords(timeline);
  const span = { start: timeline.end, end: lastEnd };
  return {
    severity: 'WATCH',
    start: span.start,
    end: span.end,
    summary: `Transcript runs ${round(lastEnd - timeline.end, 1)} s past the end of the media (last words "${q}" end at ${hms(lastEnd)})`,
    evidence: { quote: q, lastWordEnd: round(lastEnd, 3), mediaEnd: round(timeline.end, 3), ...timingEvidence(timeline), threshold: thresholdValues(ctx.thresholds, ['overrunWatchSeconds']) },
    repair: {
      action: 'check_export',
      reachable: false,
      instruction: `The transcript has speech until ${hms(lastEnd)} but the file ends at ${hms(timeline.end)}: either the export is cut short (re-export the full programme) or the transcript is of another version (transcribe this file).`,
      verify: 'Re-run the check with checks=sentence_boundary; expect no transcript time past the end of the media.',
    },
  };
}

function judgeSentenceBoundary(ctx: GateContext): GateResult {
  const transcript = ctx.sidecars.transcript;
  if (!transcript) return skippedGate('sentence_boundary', 'needs transcript');
  const timeline = timelineOf(ctx, transcript);
  const spoken = timeline.spoken;
  if (spoken.length === 0) return gateResultAtMs('sentence_boundary', { timing: timeline.timing, spokenWords: 0 }, []);
  const timed = timeline.timing !== 'none';
  const mediaKnown = timed && hasMediaTimeline(ctx);
  const last = spoken[spoken.length - 1];
  const lastEnd = spoken.reduce((latest, t) => Math.max(latest, timeline.ends[t.index]), 0);
  const punctuated = PUNCTUATED.test(timeline.text);
  const onSentence = punctuated ? endsOnSentence(timeline, last) : null;
  const overrun = mediaKnown ? overrunFlag(ctx, timeline, lastEnd) : null;
  const flags = [
    onSentence === false ? midSentenceFlag(ctx, timeline, last, timed) : null,
    timed ? preRollFlag(ctx, timeline) : null,
    mediaKnown && !overrun ? tailGapFlag(ctx, timeline, lastEnd) : null,
    overrun,
  ].filter((f): f is FlagDraft => f !== null);
  return gateResultAtMs(
    'sentence_boundary',
    {
      timing: timeline.timing,
      spokenWords: spoken.length,
      punctuated,
      endsOnSentence: onSentence,
      firstWordStart: timed ? round(timeline.starts[spoken[0].index], 3) : null,
      lastWordEnd: timed ? round(lastEnd, 3) : null,
      mediaEnd: mediaKnown ? round(timeline.end, 3) : null,
      tailGapSeconds: mediaKnown ? round(timeline.end - lastEnd, 3) : null,
    },
    flags.sort((x, y) => x.start - y.start),
  );
}

export const sentenceBoundaryGate = defineGate({
  id: 'sentence_boundary',
  area: 'transcript',
  title: 'Programme starts and ends on sentence boundaries',
  algorithm:
    'Ends mid-sentence: when the transcript is punctuated, the last spoken word (annotations such as [Music] left out) must be followed by . ! ? or …; ' +
      'if not, WATCH, and BLOCK when its word ends within cutOffSeconds of the media end (the file cuts the sentence). With timings: the first word starting ' +
      'before preRollWatchSeconds is WATCH (no pre-roll); the media running tailGapWatchSeconds (WATCH) or tailGapBlockSeconds (BLOCK) past the last word is a ' +
      'long tail gap; transcript times more than overrunWatchSeconds past the media end are WATCH. Without timings, or in a sidecar-only check, only the ' +
      'ending is judged. An unpunctuated transcript cannot show sentence ends, so its ending is not judged.',
  requires: { kinds: ['video', 'audio'], sidecars: ['transcript'] },
  thresholds: sentenceBoundaryThresholds,
  run: judgeSentenceBoundary,
});
