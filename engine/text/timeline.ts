// A transcript as timed tokens: the words of the transcript (match.ts tokens) each with a start and end time taken
// from the word timings, else from the segment (cue) holding it, else the whole programme.
import type { Transcript } from '../sidecars/formats/transcript.js';
import { findAnnotations, STAGE_DIRECTION_WORDS, type Annotation } from './annotations.js';
import { tokenize, type Token } from './match.js';

export type TimingSource = 'words' | 'segments' | 'none';

export interface Timeline {
  /** The text the tokens and annotations index into (timed words or cues joined by single spaces). */
  text: string;
  tokens: Token[];
  starts: number[];
  ends: number[];
  timing: TimingSource;
  annotations: Annotation[];
  /** Tokens outside annotations, i.e. speech; `index` still points into `tokens`. */
  spoken: Token[];
  /** End of the programme: the media duration, or the last transcript time when there is no media duration. */
  end: number;
}

export interface TimeSpan {
  start: number;
  end: number;
}

interface TimedPiece {
  text: string;
  start: number;
  end: number;
}

function piecesOf(transcript: Transcript, programmeEnd: number): { pieces: TimedPiece[]; timing: TimingSource } {
  if (transcript.words?.length) return { pieces: transcript.words, timing: 'words' };
  if (transcript.segments?.length) return { pieces: transcript.segments, timing: 'segments' };
  return { pieces: [{ text: transcript.text, start: 0, end: programmeEnd }], timing: 'none' };
}

function lastTime(transcript: Transcript): number {
  const items = transcript.words ?? transcript.segments ?? [];
  return items.reduce((latest, item) => Math.max(latest, item.end), 0);
}

/** Joins the pieces with single spaces and gives every token the times of the piece it falls in. */
function timeTokens(pieces: readonly TimedPiece[]): { text: string; tokens: Token[]; starts: number[]; ends: number[] } {
  const offsets: number[] = [];
  let text = '';
  for (const piece of pieces) {
    if (text !== '') text += ' ';
    offsets.push(text.length);
    text += piece.text;
  }
  const tokens = tokenize(text);
  const starts: number[] = [];
  const ends: number[] = [];
  let piece = 0;
  for (const token of tokens) {
    while (piece + 1 < pieces.length && offsets[piece + 1] <= token.start) piece++;
    starts.push(pieces[piece].start);
    ends.push(pieces[piece].end);
  }
  return { text, tokens, starts, ends };
}

/** The tokens not inside any annotation (annotations in text order). */
export function outsideAnnotations(tokens: readonly Token[], annotations: readonly Annotation[]): Token[] {
  const spoken: Token[] = [];
  let a = 0;
  for (const token of tokens) {
    while (a < annotations.length && annotations[a].end <= token.start) a++;
    const inside = a < annotations.length && annotations[a].start <= token.start;
    if (!inside) spoken.push(token);
  }
  return spoken;
}

/**
 * `mediaSeconds` is the media duration; pass 0 when there is no media (sidecar-only checks). `stageWords` decide which
 * round-bracketed asides are annotations (annotations.ts).
 */
export function transcriptTimeline(transcript: Transcript, mediaSeconds: number, stageWords: readonly string[] = STAGE_DIRECTION_WORDS): Timeline {
  const end = Number.isFinite(mediaSeconds) && mediaSeconds > 0 ? mediaSeconds : lastTime(transcript);
  const { pieces, timing } = piecesOf(transcript, end);
  const { text, tokens, starts, ends } = timeTokens(pieces);
  const annotations = findAnnotations(text, stageWords);
  return { text, tokens, starts, ends, timing, annotations, spoken: outsideAnnotations(tokens, annotations), end };
}

/** Times of the tokens first..last (indices into `tokens`). */
export function tokenSpan(timeline: Timeline, first: number, last: number): TimeSpan {
  const start = timeline.starts[first];
  return { start, end: Math.max(start, timeline.ends[last], timeline.ends[first]) };
}

/**
 * Times of a character range: the tokens it overlaps, else the next token after it, else the one before it
 * (a range holding only punctuation, such as "**").
 */
export function charSpan(timeline: Timeline, from: number, to: number): TimeSpan {
  const { tokens } = timeline;
  if (tokens.length === 0) return { start: 0, end: timeline.end };
  const first = firstTokenEndingAfter(tokens, from);
  if (first === tokens.length) return tokenSpan(timeline, tokens.length - 1, tokens.length - 1);
  let last = first;
  while (last + 1 < tokens.length && tokens[last + 1].start < to) last++;
  return tokenSpan(timeline, first, last);
}

function firstTokenEndingAfter(tokens: readonly Token[], offset: number): number {
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tokens[mid].end <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The text of a character range, cut to `max` characters with an ellipsis, whitespace collapsed. */
export function quote(text: string, from: number, to: number, max = 160): string {
  const slice = text.slice(from, to).replace(/\s+/g, ' ').trim();
  return slice.length <= max ? slice : `${slice.slice(0, max - 1).trimEnd()}…`;
}

/** A character range widened to whole whitespace-separated words, so punctuation attached to them is kept ("beat."). */
export function widenToWords(text: string, from: number, to: number): [number, number] {
  while (from > 0 && !/\s/.test(text[from - 1])) from--;
  while (to < text.length && !/\s/.test(text[to])) to++;
  return [from, to];
}

/** The words of a character range with their punctuation, cut to `max` characters with an ellipsis. */
export function quoteWords(text: string, from: number, to: number, max = 160): string {
  return quote(text, ...widenToWords(text, from, to), max);
}

/** Indices (into `tokens`) of the first and last token overlapping a character range, or null when none does. */
export function tokensInRange(timeline: Timeline, from: number, to: number): { first: number; last: number } | null {
  const { tokens } = timeline;
  const first = firstTokenEndingAfter(tokens, from);
  if (first === tokens.length || tokens[first].start >= to) return null;
  let last = first;
  while (last + 1 < tokens.length && tokens[last + 1].start < to) last++;
  return { first, last };
}
