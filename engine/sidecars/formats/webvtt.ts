// WebVTT (.vtt): a "WEBVTT" header, then cues of [identifier] / "MM:SS.mmm --> MM:SS.mmm [settings]" / payload.
// NOTE, STYLE and REGION blocks carry no speech and are skipped.
import { blocksOf, isTimingLine, missingTimingLine, timedCues, VTT_TIMESTAMP, type Cue, type RawCue } from './cues.js';
import { SidecarFormatError } from './format-error.js';

const HEADER = /^WEBVTT(?:[ \t].*)?$/;
const NON_CUE_BLOCK = /^(NOTE|STYLE|REGION)(?:[ \t].*)?$/;

export function parseWebVtt(text: string): Cue[] {
  const [header, ...blocks] = blocksOf(text);
  if (!header || header.firstLine !== 1 || !HEADER.test(header.lines[0])) {
    throw new SidecarFormatError(`expected the "WEBVTT" header on the first line, found ${JSON.stringify(text.split('\n', 1)[0])}`, { line: 1 });
  }
  // A cue block may also follow the header block directly when the header has no blank line after it.
  const headerCueStart = header.lines.findIndex(isTimingLine);
  if (headerCueStart > 0) {
    throw new SidecarFormatError('expected a blank line between the WEBVTT header and the first cue', { line: header.firstLine + headerCueStart });
  }
  const raw: RawCue[] = [];
  for (const block of blocks) {
    if (NON_CUE_BLOCK.test(block.lines[0]) && !isTimingLine(block.lines[0])) continue;
    const number = raw.length + 1;
    const timingIndex = isTimingLine(block.lines[0]) ? 0 : isTimingLine(block.lines[1] ?? '') ? 1 : -1;
    // Any line can be a cue identifier, so only a one-line block is plainly stray text.
    if (timingIndex < 0) throw missingTimingLine(block, number, VTT_TIMESTAMP, { name: 'cue identifier', present: block.lines.length > 1 });
    raw.push({
      number,
      timingLine: block.lines[timingIndex],
      timingLineNumber: block.firstLine + timingIndex,
      payload: block.lines.slice(timingIndex + 1),
    });
  }
  if (raw.length === 0) throw new SidecarFormatError('contains no cues after the WEBVTT header');
  return timedCues(raw, VTT_TIMESTAMP);
}
