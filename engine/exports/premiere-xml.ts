// Flags as Premiere Pro sequence markers. Premiere cannot import a marker CSV (its marker export is tab-separated UTF-16 that it does not read back), but it imports an
// FCP7 XML (xmeml version 4) sequence with <marker> elements: this writes one sequence holding the checked media as a
// single clip on V1, and one sequence marker per flag.
//
// - Frames count on the sequence rate: <timebase> is the integer rate (30 for 29.97) and <ntsc> TRUE for the
//   n×1000/1001 rates. Rates without an integer or NTSC timebase (e.g. 12.5) are written at the rounded timebase,
//   and marker frames are counted at that rate so they stay at the right time.
// - Marker <in>/<out> are the flag's first frame and the frame after its span (out − in = duration in frames).
// - The start timecode (default 00:00:00:00) only labels the timeline; markers are frames from the sequence start.
//   Its <displayformat> and separator follow the rate (DF with ";" at 29.97 and 59.94, NDF with ":" otherwise),
//   whatever separator the caller wrote, because Premiere's own FCP7 export is known to mislabel DF/NDF.
// - <pproColor> carries Premiere's marker colour (red for BLOCK, yellow for WATCH). The values come from public
//   writers that read them from Premiere's own XML export; other readers ignore the element.

import type { Flag } from '../types.js';
import { framesToTimecode, isDropFrame, parseTimecode, timecodeRate } from '../timecode.js';
import {
  EDITOR_EVENT_NAME,
  type EditorExportOptions,
  type EditorMarker,
  type XmlNode,
  editorMarkers,
  frameSize,
  markerNote,
  markerTitle,
  mediaFrameCount,
  mediaUrl,
  xmlDocument,
} from './fcpxml.js';

export const XMEML_VERSION = '4';
const INDENT = '\t';

/** Premiere marker colours, 0xAABBGGRR (UNCONFIRMED: read from third-party writers, not from Adobe documentation). */
export const PREMIERE_MARKER_COLOUR: Record<Flag['severity'], number> = { BLOCK: 4281740498, WATCH: 4281049552 };

interface SequenceRate {
  timebase: number;
  ntsc: boolean;
  /** Frames per second the sequence really runs at, used to count marker frames. */
  fps: number;
}

/** The xmeml rate of a frame rate: 29.97 → timebase 30, NTSC; 25 → 25, not NTSC. */
export function sequenceRate(fps: number): SequenceRate {
  const rate = timecodeRate(fps);
  const ntsc = rate.exact === (rate.nominal * 1000) / 1001;
  return { timebase: rate.nominal, ntsc, fps: ntsc ? rate.exact : rate.nominal };
}

function textNode(name: string, text: string | number): XmlNode {
  return { name, text };
}

function rateNode(rate: SequenceRate): XmlNode {
  return { name: 'rate', children: [textNode('timebase', rate.timebase), textNode('ntsc', rate.ntsc ? 'TRUE' : 'FALSE')] };
}

function timecodeNode(startTimecode: string, rate: SequenceRate): XmlNode {
  const startFrame = parseTimecode(startTimecode, rate.fps);
  return {
    name: 'timecode',
    children: [
      rateNode(rate),
      textNode('string', framesToTimecode(startFrame, rate.fps)),
      textNode('frame', startFrame),
      textNode('displayformat', isDropFrame(rate.fps) ? 'DF' : 'NDF'),
    ],
  };
}

function sampleCharacteristicsNode(options: EditorExportOptions, rate: SequenceRate): XmlNode {
  const { width, height } = frameSize(options);
  return {
    name: 'samplecharacteristics',
    children: [
      rateNode(rate),
      textNode('width', width),
      textNode('height', height),
      textNode('anamorphic', 'FALSE'),
      textNode('pixelaspectratio', 'square'),
      textNode('fielddominance', 'none'),
    ],
  };
}

function fileNode(options: EditorExportOptions, rate: SequenceRate, totalFrames: number): XmlNode {
  return {
    name: 'file',
    attributes: { id: 'file-1' },
    children: [
      textNode('name', options.mediaName),
      textNode('pathurl', mediaUrl(options.mediaName)),
      rateNode(rate),
      textNode('duration', totalFrames),
      { name: 'media', children: [{ name: 'video', children: [sampleCharacteristicsNode(options, rate)] }] },
    ],
  };
}

function clipItemNode(options: EditorExportOptions, rate: SequenceRate, totalFrames: number): XmlNode {
  return {
    name: 'clipitem',
    attributes: { id: 'clipitem-1' },
    children: [
      textNode('name', options.mediaName),
      textNode('enabled', 'TRUE'),
      textNode('duration', totalFrames),
      rateNode(rate),
      textNode('start', 0),
      textNode('end', totalFrames),
      textNode('in', 0),
      textNode('out', totalFrames),
      fileNode(options, rate, totalFrames),
    ],
  };
}

function markerNode(marker: EditorMarker): XmlNode {
  return {
    name: 'marker',
    children: [
      textNode('name', markerTitle(marker.flag)),
      textNode('comment', markerNote(marker.flag)),
      textNode('in', marker.startFrame),
      textNode('out', marker.startFrame + marker.durationFrames),
      textNode('pproColor', PREMIERE_MARKER_COLOUR[marker.flag.severity]),
    ],
  };
}

export function premiereXml(flags: readonly Flag[], options: EditorExportOptions): string {
  const rate = sequenceRate(options.fps);
  const totalFrames = mediaFrameCount(options.durationSeconds, rate.fps);
  const video = {
    name: 'video',
    children: [
      { name: 'format', children: [sampleCharacteristicsNode(options, rate)] },
      { name: 'track', children: [clipItemNode(options, rate, totalFrames)] },
    ],
  };
  const sequence = {
    name: 'sequence',
    attributes: { id: 'sequence-1' },
    children: [
      textNode('name', `${EDITOR_EVENT_NAME}: ${options.mediaName}`),
      textNode('duration', totalFrames),
      rateNode(rate),
      timecodeNode(options.startTimecode ?? '00:00:00:00', rate),
      { name: 'media', children: [video] },
      ...editorMarkers(flags, rate.fps, totalFrames).map(markerNode),
    ],
  };
  return xmlDocument('xmeml', { name: 'xmeml', attributes: { version: XMEML_VERSION }, children: [sequence] }, INDENT);
}
