// Flags as a DaVinci Resolve marker EDL (Timelines → Import → Timeline Markers from EDL), in the layout Resolve
// itself exports (as in real exports published with open-source Resolve marker tools): CMX 3600 events with fixed
// widths, LF line ends, each event followed by a comment line ` |C:ResolveColor… |M:<name> |D:<frames>` and a blank
// line.
//
// - Timecodes are record timecodes: the flag's frame plus `startTimecode`, wrapped at 24 hours. Source and record
//   columns carry the same values, as in Resolve's own export.
// - 29.97 and 59.94 fps write `FCM: DROP FRAME` and drop-frame timecodes with ";"; other rates are non-drop.
// - Notes: "<id> <severity>: <repair instruction>"; marker name: "<gate>: <summary>". "|" is removed and line
//   breaks become spaces, because both would break Resolve's comment syntax.
// - CMX 3600 event numbers have three digits, so at most 999 markers are written. Beyond that, BLOCK flags are
//   kept before WATCH flags (earlier first), the kept ones are written in time order, and a final `*` comment
//   line (a CMX 3600 note, attached to no event) says how many were left out and where to find them.

import type { Flag } from '../types.js';
import { frameIndex, framesToTimecode, isDropFrame, parseTimecode } from '../timecode.js';
import { sortFlagsForExport } from './markers-csv.js';

export interface ResolveMarkerEdlOptions {
  fps: number;
  title?: string;
  /** Timeline start timecode the markers are offset by. */
  startTimecode?: string;
}

export const MAX_EDL_EVENTS = 999;
const SEVERITY_COLOUR: Record<Flag['severity'], string> = { BLOCK: 'Red', WATCH: 'Yellow' };
const REEL = '001';

/** Text safe for a Resolve comment line: no "|", no line breaks, single spaces. */
export function edlText(text: string): string {
  return text.replaceAll('|', '').replace(/\s+/g, ' ').trim();
}

function byPriority(a: Flag, b: Flag): number {
  const severityOrder = (flag: Flag) => (flag.severity === 'BLOCK' ? 0 : 1);
  return severityOrder(a) - severityOrder(b) || a.start - b.start;
}

function selectEventFlags(flags: readonly Flag[]): Flag[] {
  if (flags.length <= MAX_EDL_EVENTS) return sortFlagsForExport(flags);
  return sortFlagsForExport(sortFlagsForExport(flags).sort(byPriority).slice(0, MAX_EDL_EVENTS));
}

function durationFrames(flag: Flag, fps: number): number {
  return Math.max(1, frameIndex(flag.end, fps) - frameIndex(flag.start, fps));
}

function eventLine(eventNumber: number, recordIn: string, recordOut: string): string {
  const number = String(eventNumber).padStart(3, '0');
  return `${number}  ${REEL}      V     C        ${recordIn} ${recordOut} ${recordIn} ${recordOut}  `;
}

function commentLine(flag: Flag, frames: number): string {
  const notes = edlText(`${flag.id} ${flag.severity}: ${flag.repair.instruction}`);
  const name = edlText(`${flag.gate}: ${flag.summary}`);
  return `${notes} |C:ResolveColor${SEVERITY_COLOUR[flag.severity]} |M:${name} |D:${frames}`;
}

function markerEvent(flag: Flag, eventNumber: number, startFrame: number, fps: number): string {
  const framesPerDay = parseTimecode('24:00:00:00', fps);
  const recordTimecode = (frame: number) => framesToTimecode(frame % framesPerDay, fps);
  const inFrame = startFrame + frameIndex(flag.start, fps);
  const frames = durationFrames(flag, fps);
  return `${eventLine(eventNumber, recordTimecode(inFrame), recordTimecode(inFrame + frames))}\n${commentLine(flag, frames)}\n\n`;
}

function omittedNote(omitted: number): string {
  return `* PREFLIGHT: ${omitted} more flag${omitted === 1 ? '' : 's'} not exported (an EDL holds at most ${MAX_EDL_EVENTS} events); see the report or the marker CSV.\n`;
}

export function resolveMarkerEdl(flags: readonly Flag[], options: ResolveMarkerEdlOptions): string {
  const { fps, title = 'Preflight QC', startTimecode = '01:00:00:00' } = options;
  const startFrame = parseTimecode(startTimecode, fps);
  const header = `TITLE: ${edlText(title)}\nFCM: ${isDropFrame(fps) ? 'DROP FRAME' : 'NON-DROP FRAME'}\n\n`;
  const eventFlags = selectEventFlags(flags);
  const events = eventFlags.map((flag, index) => markerEvent(flag, index + 1, startFrame, fps)).join('');
  const omitted = flags.length - eventFlags.length;
  return header + events + (omitted > 0 ? omittedNote(omitted) : '');
}
