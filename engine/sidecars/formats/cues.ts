// Shared pieces of the two subtitle formats: the cue record, timestamps, payload cleaning and ordering checks.
import { SidecarFormatError } from './format-error.js';
import { MAX_TIMELINE_SECONDS } from './limits.js';

export interface Cue {
  start: number;
  end: number;
  text: string;
}

/** A cue as found in the file, before its timing line is checked. */
export interface RawCue {
  number: number;
  timingLine: string;
  timingLineNumber: number;
  payload: string[];
}

export interface TimestampSyntax {
  pattern: RegExp;
  example: string;
  exampleTiming: string;
}

export const SRT_TIMESTAMP: TimestampSyntax = {
  pattern: /^(\d{1,3}):([0-5]\d):([0-5]\d)[,.](\d{3})$/,
  example: '00:01:02,500',
  exampleTiming: '00:00:01,000 --> 00:00:02,500',
};
// WebVTT allows the hours to be left out.
export const VTT_TIMESTAMP: TimestampSyntax = {
  pattern: /^(?:(\d{1,3}):)?([0-5]\d):([0-5]\d)\.(\d{3})$/,
  example: '00:01:02.500',
  exampleTiming: '00:00:01.000 --> 00:00:02.500',
};

const TIMING_LINE = /^(\S+)[ \t]+-->[ \t]+(\S+)(?:[ \t].*)?$/;

export function isTimingLine(line: string): boolean {
  return line.includes('-->');
}

export interface TextBlock {
  /** 1-based line number of the block's first line. */
  firstLine: number;
  lines: string[];
}

/** Split text into blocks separated by blank lines. */
export function blocksOf(text: string): TextBlock[] {
  const blocks: TextBlock[] = [];
  let current: TextBlock | null = null;
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') {
      current = null;
      return;
    }
    if (!current) {
      current = { firstLine: index + 1, lines: [] };
      blocks.push(current);
    }
    current.lines.push(line);
  });
  return blocks;
}

/**
 * The error for a block with no timing line where one belongs: after the cue's label (SRT number, WebVTT identifier),
 * or at the start of a stray block of text (often a cue whose text held a blank line, which splits it).
 */
export function missingTimingLine(block: TextBlock, cue: number, syntax: TimestampSyntax, label: { name: string; present: boolean }): SidecarFormatError {
  const expected = `expected a timing line like "${syntax.exampleTiming}"`;
  const [first, second] = block.lines;
  if (label.present) {
    const found = second === undefined ? 'nothing' : JSON.stringify(second);
    return new SidecarFormatError(`${expected} after the ${label.name}, found ${found}`, { cue, line: block.firstLine + 1 });
  }
  return new SidecarFormatError(`${expected}, found ${JSON.stringify(first)} (a blank line inside a cue's text splits the cue)`, { cue, line: block.firstLine });
}

/** Checks timings (well-formed, end ≥ start, starts in order, within bounds) and cleans the payloads. */
export function timedCues(raw: RawCue[], syntax: TimestampSyntax): Cue[] {
  const cues: Cue[] = [];
  for (const cue of raw) {
    const at = { cue: cue.number, line: cue.timingLineNumber };
    const match = TIMING_LINE.exec(cue.timingLine.trim());
    if (!match) {
      throw new SidecarFormatError(`invalid timing line ${JSON.stringify(cue.timingLine.trim())} (expected "${syntax.exampleTiming}")`, at);
    }
    const start = parseTimestamp(match[1], 'start', syntax, at);
    const end = parseTimestamp(match[2], 'end', syntax, at);
    if (end < start) throw new SidecarFormatError(`end ${match[2]} is before start ${match[1]}`, at);
    const previous = cues.at(-1);
    if (previous && start < previous.start) {
      throw new SidecarFormatError(`starts at ${match[1]}, before cue ${cue.number - 1} (cues must be in time order)`, at);
    }
    cues.push({ start, end, text: cleanPayload(cue.payload) });
  }
  return cues;
}

function parseTimestamp(value: string, which: 'start' | 'end', syntax: TimestampSyntax, at: { cue: number; line: number }): number {
  const match = syntax.pattern.exec(value);
  if (!match) throw new SidecarFormatError(`invalid ${which} time ${JSON.stringify(value)} (expected ${syntax.example})`, at);
  const [, hours = '0', minutes, seconds, millis] = match;
  const totalMillis = ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000 + Number(millis);
  const totalSeconds = totalMillis / 1000;
  if (totalSeconds > MAX_TIMELINE_SECONDS) throw new SidecarFormatError(`${which} time ${value} is beyond 24 hours`, at);
  return totalSeconds;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', lrm: '', rlm: '' };

/** Payload lines → one line of plain text: markup (<i>, <v Speaker>, {\an8}) removed, entities decoded, spaces collapsed. */
export function cleanPayload(lines: string[]): string {
  return lines
    .join(' ')
    .replace(/<[^>]*>/g, '')
    .replace(/\{\\[^}]*\}/g, '')
    .replace(/&(amp|lt|gt|quot|apos|nbsp|lrm|rlm);/g, (_, name: string) => ENTITIES[name])
    .replace(/\s+/g, ' ')
    .trim();
}
