// What the transcript gates share: the transcript as a timeline (word, cue or no timings), and how a flag locates
// and quotes the text it is about.
import type { Transcript } from '../../sidecars/formats/transcript.js';
import { quote, quoteWords, tokensInRange, transcriptTimeline, type Timeline, type TimeSpan } from '../../text/timeline.js';
import type { FlagDraft, GateContext } from '../../types.js';
import { round } from '../kit/stats.js';
import { hms, reRun } from '../kit/wording.js';

export const timeSpanText = (span: TimeSpan) => `${hms(span.start)}-${hms(span.end)}`;

const CONTEXT_WORDS = 5;

/** The media has a real timeline (a sidecar-only check has no streams; its duration is only the transcript's end). */
export function hasMediaTimeline(ctx: GateContext): boolean {
  return ctx.media.videoStreamCount + ctx.media.audioStreamCount > 0 && Number.isFinite(ctx.media.durationSeconds) && ctx.media.durationSeconds > 0;
}

export function timelineOf(ctx: GateContext, transcript: Transcript, stageWords?: readonly string[]): Timeline {
  return transcriptTimeline(transcript, hasMediaTimeline(ctx) ? ctx.media.durationSeconds : 0, stageWords);
}

export function timingEvidence(timeline: Timeline): Record<string, unknown> {
  if (timeline.timing === 'words') return { timing: 'words' };
  if (timeline.timing === 'segments') return { timing: 'segments', note: 'segment timings: the time is that of the cue(s) holding the text' };
  return { timing: 'none', note: 'no word timings: the flag spans the whole programme; find the quoted text in the transcript' };
}

export function located(span: TimeSpan): Record<string, unknown> {
  return { at: hms(span.start), start: round(span.start, 3), end: round(span.end, 3) };
}

/** A few words either side of a character range, to find the quote by ear or in the transcript. */
export function contextOf(timeline: Timeline, from: number, to: number): string {
  const range = tokensInRange(timeline, from, to);
  if (!range) return quote(timeline.text, from, to);
  const first = Math.max(0, range.first - CONTEXT_WORDS);
  const last = Math.min(timeline.tokens.length - 1, range.last + CONTEXT_WORDS);
  return quoteWords(timeline.text, Math.min(from, timeline.tokens[first].start), Math.max(to, timeline.tokens[last].end), 240);
}

export function verify(gate: string, span: TimeSpan, what = `${gate} flag`): string {
  return reRun(gate, `no ${what} at ${timeSpanText(span)}`);
}

/** The first `max` flags, BLOCK before WATCH then in time order; the rest are counted, not listed. */
export function capFlags(flags: FlagDraft[], max: number): { listed: FlagDraft[]; omitted: number } {
  if (flags.length <= max) return { listed: flags, omitted: 0 };
  const rank = (f: FlagDraft) => (f.severity === 'BLOCK' ? 0 : 1);
  const listed = [...flags].sort((x, y) => rank(x) - rank(y) || x.start - y.start).slice(0, max);
  return { listed: listed.sort((x, y) => x.start - y.start), omitted: flags.length - max };
}

export function missingSidecars(needed: [string, unknown][]): string | null {
  const missing = needed.filter(([, value]) => value === undefined).map(([name]) => name);
  return missing.length ? `needs ${missing.join(' and ')}` : null;
}

export const TIMING_RULE =
  'Flags carry the time of the quoted words: word timings when the transcript has them, else the times of the cue (segment) holding them, ' +
  'else the whole programme, with "no word timings" in the evidence.';
