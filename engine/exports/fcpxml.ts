// Flags as Final Cut Pro markers: an FCPXML 1.9 document (Apple's FCPXML DTD) holding one project whose spine is the
// checked media as a single asset-clip, with one to-do marker (completed="0") per flag on that clip.
//
// - Times are rationals on the frame grid: a frame count times frameDuration, reduced ("3003/1000s", "2s"), never a
//   decimal. 29.97 is 1001/30000s, 23.976 1001/24000s, 25 1/25s.
// - Markers are children of the clip, so their start is in the clip's local time (media time from its first frame);
//   the sequence start timecode (tcStart, default 00:00:00:00) only changes what the timeline displays.
// - tcFormat is DF at 29.97 and 59.94 and NDF otherwise, written on both the sequence and the clip, the same rule
//   engine/timecode.ts uses for the report's timecodes.
// - Marker value "<SEVERITY> <gate>", note "<summary> — <instruction>". Text is XML-escaped; line breaks and tabs
//   become spaces and other control characters are removed (XML 1.0 cannot carry most of them at all).
//
// This module also holds what the three editor exporters share (options, marker spans, a small XML writer):
// avid-markers.ts and premiere-xml.ts import it from here.

import type { Flag } from '../types.js';
import { frameIndex, isDropFrame, parseTimecode, timecodeRate } from '../timecode.js';
import { sortFlagsForExport } from './markers-csv.js';

// ---------------------------------------------------------------------------------------------------------------
// Shared by the editor exporters (FCPXML, Premiere FCP7 XML, Avid marker text)

export interface EditorExportOptions {
  fps: number;
  /** Duration of the checked media: the clip length the markers sit on. */
  durationSeconds: number;
  /** File name of the checked media (a path is reduced to its last segment for links). */
  mediaName: string;
  /** Picture size; 1920×1080 when not given. */
  mediaWidth?: number;
  mediaHeight?: number;
  /** Timeline start timecode. Defaults: 00:00:00:00 for FCPXML and Premiere, 01:00:00:00 for Avid. */
  startTimecode?: string;
}

/** A flag placed on the media's frames. */
export interface EditorMarker {
  flag: Flag;
  /** First frame, counted from the media's first frame. */
  startFrame: number;
  /** Frames covered: at least 1, and never past the media's last frame. */
  durationFrames: number;
}

export const DEFAULT_FRAME_SIZE = { width: 1920, height: 1080 } as const;
export const EDITOR_EVENT_NAME = 'Preflight QC';

/** Whole frames in media of `durationSeconds` (at least 1, so even an empty file gets a one-frame clip). */
export function mediaFrameCount(durationSeconds: number, fps: number): number {
  if (!Number.isFinite(durationSeconds) || durationSeconds < 0) {
    throw new RangeError(`durationSeconds must be a non-negative number, got ${durationSeconds}`);
  }
  return Math.max(1, Math.round(durationSeconds * timecodeRate(fps).exact));
}

/**
 * Flags in report order (start, gate, id) as frame spans clamped to the media: a marker past the clip's end
 * would be dropped or refused by the editors.
 */
export function editorMarkers(flags: readonly Flag[], fps: number, totalFrames: number): EditorMarker[] {
  return sortFlagsForExport(flags).map((flag) => {
    const firstFrame = frameIndex(flag.start, fps);
    const spanFrames = Math.max(1, frameIndex(flag.end, fps) - firstFrame);
    const startFrame = Math.min(firstFrame, totalFrames - 1);
    return { flag, startFrame, durationFrames: Math.min(spanFrames, totalFrames - startFrame) };
  });
}

export function markerTitle(flag: Flag): string {
  return `${flag.severity} ${flag.gate}`;
}

export function markerNote(flag: Flag): string {
  return `${flag.summary} — ${flag.repair.instruction}`;
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

export function frameSize(options: EditorExportOptions): { width: number; height: number } {
  return {
    width: positiveInteger(options.mediaWidth ?? DEFAULT_FRAME_SIZE.width, 'mediaWidth'),
    height: positiveInteger(options.mediaHeight ?? DEFAULT_FRAME_SIZE.height, 'mediaHeight'),
  };
}

/**
 * A file URL relative to the exported document ("file://./clip%2001.mov"). The editors cannot resolve it on their
 * own; it names the file so the relink dialog finds it.
 */
export function mediaUrl(mediaName: string): string {
  const fileName = mediaName.split(/[\\/]/).pop() ?? '';
  if (fileName.trim() === '') throw new RangeError(`mediaName must name a file, got "${mediaName}"`);
  const encoded = encodeURIComponent(fileName).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `file://./${encoded}`;
}

// ---------------------------------------------------------------------------------------------------------------
// A small XML writer (element trees only, no mixed content)

export interface XmlNode {
  name: string;
  attributes?: Record<string, string | number>;
  children?: XmlNode[];
  text?: string | number;
}

// Cc: C0, DEL and C1 controls. Cs: surrogates, which the u flag matches only when unpaired. FFFE/FFFF are not XML.
const NOT_XML_TEXT = /[\p{Cc}\p{Cs}\uFFFE\uFFFF]/gu;

/** Text safe in XML content and attribute values: one line, no control characters, markup characters escaped. */
export function xmlSafeText(text: string): string {
  return text
    .replace(/[\t\n\r]+/g, ' ')
    .replace(NOT_XML_TEXT, '')
    .replace(/ {2,}/g, ' ')
    .trim()
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

function openTag(node: XmlNode): string {
  const attributes = Object.entries(node.attributes ?? {}).map(([name, value]) => ` ${name}="${xmlSafeText(String(value))}"`);
  return `<${node.name}${attributes.join('')}`;
}

function xmlLines(node: XmlNode, indentUnit: string, depth: number): string[] {
  const indent = indentUnit.repeat(depth);
  if (node.text !== undefined) return [`${indent}${openTag(node)}>${xmlSafeText(String(node.text))}</${node.name}>`];
  const children = node.children ?? [];
  if (children.length === 0) return [`${indent}${openTag(node)}/>`];
  return [
    `${indent}${openTag(node)}>`,
    ...children.flatMap((child) => xmlLines(child, indentUnit, depth + 1)),
    `${indent}</${node.name}>`,
  ];
}

/** A UTF-8 XML document: declaration, DOCTYPE, the root element, LF line ends and a final newline. */
export function xmlDocument(doctype: string, root: XmlNode, indentUnit: string): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<!DOCTYPE ${doctype}>`, ...xmlLines(root, indentUnit, 0)];
  return lines.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------------------------
// FCPXML

export const FCPXML_VERSION = '1.9';
const FORMAT_ID = 'r1';
const ASSET_ID = 'r2';
const INDENT = '    ';

interface Rational {
  numerator: number;
  denominator: number;
}

function greatestCommonDivisor(a: number, b: number): number {
  return b === 0 ? a : greatestCommonDivisor(b, a % b);
}

function reduced({ numerator, denominator }: Rational): Rational {
  const divisor = greatestCommonDivisor(numerator, denominator) || 1;
  return { numerator: numerator / divisor, denominator: denominator / divisor };
}

/** Seconds per frame as an exact fraction: NTSC rates are 1001/(n×1000); other rates are read to 1/1000 fps. */
function frameDurationRational(fps: number): Rational {
  const rate = timecodeRate(fps);
  if (rate.exact === (rate.nominal * 1000) / 1001) return { numerator: 1001, denominator: rate.nominal * 1000 };
  if (Number.isInteger(rate.exact)) return { numerator: 1, denominator: rate.exact };
  const millihertz = Math.round(rate.exact * 1000);
  if (millihertz === 0) throw new RangeError(`fps must be at least 0.001, got ${fps}`);
  return reduced({ numerator: 1000, denominator: millihertz });
}

function fcpxTimeOf({ numerator, denominator }: Rational): string {
  if (numerator === 0) return '0s';
  return denominator === 1 ? `${numerator}s` : `${numerator}/${denominator}s`;
}

/** FCPXML frameDuration of a rate, e.g. "1001/30000s" for 29.97, "1/25s" for 25. */
export function fcpxFrameDuration(fps: number): string {
  return fcpxTimeOf(frameDurationRational(fps));
}

/** FCPXML time of a frame count: frames × frameDuration, reduced ("3003/1000s" for 90 frames at 29.97). */
export function fcpxTime(frames: number, fps: number): string {
  if (!Number.isInteger(frames) || frames < 0) throw new RangeError(`frames must be a non-negative integer, got ${frames}`);
  const frameDuration = frameDurationRational(fps);
  return fcpxTimeOf(reduced({ numerator: frames * frameDuration.numerator, denominator: frameDuration.denominator }));
}

function timecodeFormat(fps: number): 'DF' | 'NDF' {
  return isDropFrame(fps) ? 'DF' : 'NDF';
}

function markerNode(marker: EditorMarker, fps: number): XmlNode {
  return {
    name: 'marker',
    attributes: {
      start: fcpxTime(marker.startFrame, fps),
      duration: fcpxTime(marker.durationFrames, fps),
      value: markerTitle(marker.flag),
      note: markerNote(marker.flag),
      completed: '0',
    },
  };
}

function resourcesNode(options: EditorExportOptions, duration: string): XmlNode {
  const { width, height } = frameSize(options);
  const format = { name: 'format', attributes: { id: FORMAT_ID, frameDuration: fcpxFrameDuration(options.fps), width, height } };
  const mediaRep = { name: 'media-rep', attributes: { kind: 'original-media', src: mediaUrl(options.mediaName) } };
  const asset = {
    name: 'asset',
    attributes: { id: ASSET_ID, name: options.mediaName, start: '0s', duration, hasVideo: '1', format: FORMAT_ID },
    children: [mediaRep],
  };
  return { name: 'resources', children: [format, asset] };
}

function sequenceNode(options: EditorExportOptions, duration: string, markers: XmlNode[]): XmlNode {
  const { fps } = options;
  const tcStart = fcpxTime(parseTimecode(options.startTimecode ?? '00:00:00:00', fps), fps);
  const tcFormat = timecodeFormat(fps);
  const clip = {
    name: 'asset-clip',
    // The spine runs in sequence time, which begins at tcStart: the clip starts there.
    attributes: { ref: ASSET_ID, offset: tcStart, name: options.mediaName, duration, tcFormat },
    children: markers,
  };
  return {
    name: 'sequence',
    attributes: { format: FORMAT_ID, duration, tcStart, tcFormat },
    children: [{ name: 'spine', children: [clip] }],
  };
}

export function fcpxmlMarkers(flags: readonly Flag[], options: EditorExportOptions): string {
  const { fps } = options;
  const totalFrames = mediaFrameCount(options.durationSeconds, fps);
  const duration = fcpxTime(totalFrames, fps);
  const markers = editorMarkers(flags, fps, totalFrames).map((marker) => markerNode(marker, fps));
  const project = {
    name: 'project',
    attributes: { name: `${EDITOR_EVENT_NAME}: ${options.mediaName}` },
    children: [sequenceNode(options, duration, markers)],
  };
  const library = { name: 'library', children: [{ name: 'event', attributes: { name: EDITOR_EVENT_NAME }, children: [project] }] };
  const root = { name: 'fcpxml', attributes: { version: FCPXML_VERSION }, children: [resourcesNode(options, duration), library] };
  return xmlDocument('fcpxml', root, INDENT);
}
