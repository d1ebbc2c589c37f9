// Flags as an Avid Media Composer marker file (Markers window → Import Markers), in the 8-field form of a current
// Avid export (as another marker tool reverse-engineered it from a real export): one marker per line, tab-separated,
// LF line ends, no header:
//
//   Name ⇥ Timecode ⇥ Track ⇥ Colour ⇥ Comment ⇥ Duration(frames) ⇥ (empty) ⇥ Colour
//
// The colour is written twice because Avid's export does (COLOR_EXTENDED and COLOR). Which variants Avid accepts on
// import (this one, the classic 5-field one, frame counts instead of timecodes) differs across Media Composer
// versions and is UNCONFIRMED: test on the target version.
//
// - Timecodes are record timecodes: the flag's frame plus `startTimecode` (default 01:00:00:00), wrapped at 24 hours;
//   drop-frame with ";" at 29.97 and 59.94.
// - Name "Preflight", track V1, colour Red for BLOCK and Yellow for WATCH (classic colours, capitalised as Avid
//   writes them). Comment "<SEVERITY> <gate>: <summary>", on one line without tabs or control characters, at most
//   32 000 characters.

import type { Flag } from '../types.js';
import { framesToTimecode, parseTimecode } from '../timecode.js';
import { type EditorExportOptions, type EditorMarker, editorMarkers, markerTitle, mediaFrameCount } from './fcpxml.js';

export const AVID_MARKER_NAME = 'Preflight';
export const AVID_TRACK = 'V1';
export const AVID_MAX_COMMENT_LENGTH = 32_000;
export const AVID_FIELD_COUNT = 8;
const AVID_COLOUR: Record<Flag['severity'], string> = { BLOCK: 'Red', WATCH: 'Yellow' };

/** One-line comment text: tabs and line breaks become spaces, other controls go, cut to 32 000 UTF-16 units. */
export function avidComment(text: string): string {
  const oneLine = text
    .replace(/[\t\n\r]+/g, ' ')
    .replace(/\p{Cc}/gu, '')
    .replace(/ {2,}/g, ' ')
    .trim();
  if (oneLine.length <= AVID_MAX_COMMENT_LENGTH) return oneLine;
  // Never end on the first half of a surrogate pair.
  return oneLine.slice(0, AVID_MAX_COMMENT_LENGTH).replace(/[\uD800-\uDBFF]$/, '');
}

function recordTimecode(frame: number, fps: number): string {
  const framesPerDay = parseTimecode('24:00:00:00', fps);
  return framesToTimecode(frame % framesPerDay, fps);
}

function markerLine(marker: EditorMarker, startFrame: number, fps: number): string {
  const { flag } = marker;
  const colour = AVID_COLOUR[flag.severity];
  const fields = [
    AVID_MARKER_NAME,
    recordTimecode(startFrame + marker.startFrame, fps),
    AVID_TRACK,
    colour,
    avidComment(`${markerTitle(flag)}: ${flag.summary}`),
    String(marker.durationFrames),
    '',
    colour,
  ];
  return fields.join('\t');
}

export function avidMarkers(flags: readonly Flag[], options: EditorExportOptions): string {
  const { fps, startTimecode = '01:00:00:00' } = options;
  const startFrame = parseTimecode(startTimecode, fps);
  const markers = editorMarkers(flags, fps, mediaFrameCount(options.durationSeconds, fps));
  return markers.map((marker) => `${markerLine(marker, startFrame, fps)}\n`).join('');
}
