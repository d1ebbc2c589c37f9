// Transcript sidecar: plain text, JSON (object with text/words/segments, or a bare array of words), SRT or WebVTT,
// normalised to one shape. Word and segment times are seconds from the start of the media.
import { z } from 'zod';
import type { Cue } from './cues.js';
import { failAt, parseWithSchema, SidecarFormatError } from './format-error.js';
import { jsonPath, type JsonPathSegment } from './json-path.js';
import { MAX_TIMELINE_SECONDS } from './limits.js';
import { isBlank, normaliseLineBreaks } from './plain-text.js';
import { parseSrt } from './srt.js';
import { describeType, isPlainObject } from './value-type.js';
import { parseWebVtt } from './webvtt.js';

export type TranscriptFormat = 'text' | 'json' | 'srt' | 'vtt';

export interface TranscriptWord {
  text: string;
  start: number;
  end: number;
}

export interface TranscriptSegment {
  start: number;
  end: number;
  text: string;
}

export interface Transcript {
  /** The whole transcript as one string (words or cues joined by single spaces when no text was given). */
  text: string;
  /** Word timings, when the source had them (JSON words). */
  words: TranscriptWord[] | null;
  /** Timed segments: SRT/WebVTT cues, or JSON `segments`. */
  segments: TranscriptSegment[] | null;
  format: TranscriptFormat;
}

const seconds = (what: string) =>
  z
    .number()
    .min(0, `must be ≥ 0 (${what} in seconds)`)
    .max(MAX_TIMELINE_SECONDS, `must be ≤ ${MAX_TIMELINE_SECONDS} (24 h); times are seconds, not milliseconds`)
    .meta({ description: `${what[0].toUpperCase()}${what.slice(1)} in seconds from the start of the media.` });

export const TranscriptWordSchema = z
  .object({
    text: z.string().optional().meta({ description: 'The word as spoken. Either text or word is required.' }),
    word: z.string().optional().meta({ description: 'Alternative name for text (as written by common ASR tools).' }),
    start: seconds('word start'),
    end: seconds('word end').meta({ description: 'Word end in seconds; ≥ start.' }),
  })
  .loose()
  .refine((word) => word.text !== undefined || word.word !== undefined, { message: 'missing (expected a text or word field)' })
  .meta({ anyOf: [{ required: ['text'] }, { required: ['word'] }] });

export const TranscriptSegmentSchema = z
  .object({
    start: seconds('segment start'),
    end: seconds('segment end').meta({ description: 'Segment end in seconds; ≥ start.' }),
    text: z.string().meta({ description: 'What is said in the segment.' }),
  })
  .loose();

const WordsSchema = z.array(TranscriptWordSchema).meta({ description: 'Timed words in spoken order: starts never decrease.' });

export const TranscriptObjectSchema = z
  .object({
    text: z.string().optional().meta({ description: 'The whole transcript. Built from words or segments when absent.' }),
    words: WordsSchema.optional(),
    segments: z.array(TranscriptSegmentSchema).optional().meta({ description: 'Timed segments in order: starts never decrease.' }),
  })
  .loose()
  .meta({ anyOf: [{ required: ['text'] }, { required: ['words'] }, { required: ['segments'] }] });

/** JSON Schema source for the JSON forms (text, SRT and WebVTT transcripts are not JSON). */
export const TranscriptJsonSchema = z.union([TranscriptObjectSchema, WordsSchema]).meta({
  title: 'Preflight transcript sidecar (JSON form)',
  description:
    'A transcript as JSON: an object with text, words and/or segments, or a bare array of words. Times are seconds. ' +
    'Words and segments: end ≥ start, starts never decrease. Unknown fields are kept and ignored. ' +
    'Plain text, SRT and WebVTT transcripts are also accepted (see docs/sidecars.md).',
});

export function transcriptFromText(text: string): Transcript {
  const normalised = normaliseLineBreaks(text).trim();
  if (isBlank(normalised)) throw new SidecarFormatError('transcript is empty');
  return { text: normalised, words: null, segments: null, format: 'text' };
}

export function transcriptFromSrt(text: string): Transcript {
  return fromCues(parseSrt(normaliseLineBreaks(text)), 'srt');
}

export function transcriptFromWebVtt(text: string): Transcript {
  return fromCues(parseWebVtt(normaliseLineBreaks(text)), 'vtt');
}

function fromCues(cues: Cue[], format: 'srt' | 'vtt'): Transcript {
  const segments = cues.map(({ start, end, text }) => ({ start, end, text }));
  return { text: joinTexts(segments), words: null, segments, format };
}

/** A parsed JSON value (object or bare array of words) → Transcript. */
export function transcriptFromJson(value: unknown): Transcript {
  if (Array.isArray(value)) {
    const words = normaliseWords(parseWithSchema(WordsSchema, value), []);
    if (words.length === 0) throw new SidecarFormatError('transcript is empty (no words)');
    return { text: joinTexts(words), words, segments: null, format: 'json' };
  }
  if (!isPlainObject(value)) return failAt('', `expected an object or an array of words, received ${describeType(value)}`);
  const parsed = parseWithSchema(TranscriptObjectSchema, value);
  if (parsed.text === undefined && !parsed.words && !parsed.segments) return failAt('', 'expected a text, words or segments field');
  const words = parsed.words ? normaliseWords(parsed.words, ['words']) : null;
  const segments = parsed.segments ? normaliseSegments(parsed.segments) : null;
  const text = parsed.text !== undefined ? normaliseLineBreaks(parsed.text).trim() : joinTexts(words ?? segments ?? []);
  if (isBlank(text)) return failAt('', 'transcript is empty (no text, words or segments with text)');
  return { text, words, segments, format: 'json' };
}

function normaliseWords(words: z.output<typeof WordsSchema>, basePath: JsonPathSegment[]): TranscriptWord[] {
  const timed = words.map((word) => ({ text: (word.text ?? word.word ?? '').trim(), start: word.start, end: word.end }));
  checkTimeOrder(timed, basePath, 'word');
  return timed;
}

function normaliseSegments(segments: z.output<typeof TranscriptSegmentSchema>[]): TranscriptSegment[] {
  const timed = segments.map((segment) => ({ start: segment.start, end: segment.end, text: normaliseLineBreaks(segment.text).trim() }));
  checkTimeOrder(timed, ['segments'], 'segment');
  return timed;
}

/** The first item whose end precedes its start, or whose start precedes the previous item's start, is an error. */
export function checkTimeOrder(items: readonly { start: number; end: number }[], basePath: JsonPathSegment[], noun: string): void {
  items.forEach((item, index) => {
    if (item.end < item.start) failAt(jsonPath([...basePath, index, 'end']), `must be ≥ start (${item.end} < ${item.start})`);
    const previous = items[index - 1];
    if (previous && item.start < previous.start) {
      failAt(jsonPath([...basePath, index, 'start']), `must be ≥ the previous ${noun}'s start (${item.start} < ${previous.start}); ${noun}s must be in time order`);
    }
  });
}

function joinTexts(items: readonly { text: string }[]): string {
  return items
    .map((item) => item.text)
    .filter((text) => text !== '')
    .join(' ');
}
