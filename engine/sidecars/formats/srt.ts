// SubRip (.srt): blocks of [cue number] / "HH:MM:SS,mmm --> HH:MM:SS,mmm" / text lines, separated by blank lines.
import { blocksOf, isTimingLine, missingTimingLine, SRT_TIMESTAMP, timedCues, type Cue, type RawCue } from './cues.js';
import { SidecarFormatError } from './format-error.js';

export function parseSrt(text: string): Cue[] {
  const raw: RawCue[] = blocksOf(text).map((block, index) => {
    const number = index + 1;
    // The numeric counter line is optional in practice; the timing line is not.
    const timingIndex = isTimingLine(block.lines[0]) ? 0 : isTimingLine(block.lines[1] ?? '') ? 1 : -1;
    if (timingIndex < 0) throw missingTimingLine(block, number, SRT_TIMESTAMP, { name: 'cue number', present: /^\d+$/.test(block.lines[0].trim()) });
    return {
      number,
      timingLine: block.lines[timingIndex],
      timingLineNumber: block.firstLine + timingIndex,
      payload: block.lines.slice(timingIndex + 1),
    };
  });
  if (raw.length === 0) throw new SidecarFormatError('contains no subtitle cues');
  return timedCues(raw, SRT_TIMESTAMP);
}
