// What format_spec and shorts_format read from the probe: the container as a file type, scan, channels, sizes,
// and the evidence shape of a deviation from a delivery target (measured value, target, unit, source, confidence).
import { extname } from 'node:path';
import type { GateThresholds, MediaInfo, VideoStreamInfo } from '../../types.js';
import { round } from '../kit/stats.js';

/** Evidence for a flag: what was measured against which threshold, and where the threshold comes from. */
export function targetEvidence(th: GateThresholds, key: string, measured: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const entry = th[key];
  return {
    measured,
    threshold: { [key]: entry?.value ?? null },
    ...(entry?.unit ? { unit: entry.unit } : {}),
    source: entry?.source ?? null,
    confidence: entry?.confidence ?? null,
    ...extra,
  };
}

const MOV_FAMILY_BY_EXTENSION: Record<string, string> = { mov: 'mov', qt: 'mov', mp4: 'mp4', m4v: 'mp4', m4a: 'm4a', '3gp': '3gp', '3g2': '3gp' };
const IMAGE_FORMAT_BY_CODEC: Record<string, string> = { mjpeg: 'jpeg', jpegls: 'jpeg', png: 'png', gif: 'gif', bmp: 'bmp', webp: 'webp', tiff: 'tiff' };
const INTERLACED_FIELD_ORDERS = new Set(['tt', 'bb', 'tb', 'bt']);
export const TOP_FIELD_FIRST = new Set(['tt', 'tb']);

/**
 * ffprobe names demuxers, not file types: "mov,mp4,m4a,3gp,3g2,mj2" is one demuxer for all of them, so the
 * extension decides within that family (MediaInfo carries no ftyp brand).
 */
export function containerOf(media: MediaInfo): string {
  const tokens = media.container.split(',');
  const extension = extname(media.path).slice(1).toLowerCase();
  if (tokens.includes('mov') || tokens.includes('mp4')) return MOV_FAMILY_BY_EXTENSION[extension] ?? 'mp4';
  if (tokens.includes('matroska') || tokens.includes('webm')) return extension === 'webm' ? 'webm' : 'mkv';
  return tokens[0];
}

export function imageFormatOf(video: VideoStreamInfo): string {
  return IMAGE_FORMAT_BY_CODEC[video.codec] ?? video.codec;
}

export function scanOf(video: VideoStreamInfo): 'progressive' | 'interlaced' | 'unknown' {
  if (video.fieldOrder === 'progressive') return 'progressive';
  return video.fieldOrder && INTERLACED_FIELD_ORDERS.has(video.fieldOrder) ? 'interlaced' : 'unknown';
}

/** Several mono streams are discrete tracks (common in broadcast MXF): count them as channels. */
export function effectiveChannels(media: MediaInfo): number {
  const audio = media.audio;
  if (!audio) return 0;
  return media.audioStreamCount > 1 && audio.channels === 1 ? media.audioStreamCount : audio.channels;
}

export const sizeLabel = (width: number, height: number): string => `${width}x${height}`;

export function describe(media: MediaInfo, legalLevels: unknown): Record<string, unknown> {
  const v = media.video;
  const a = media.audio;
  return {
    kind: media.kind,
    container: containerOf(media),
    formatName: media.container,
    durationSeconds: round(media.durationSeconds, 3),
    sizeBytes: media.sizeBytes,
    videoCodec: v?.codec ?? null,
    videoProfile: v?.profile ?? null,
    pixelFormat: v?.pixelFormat ?? null,
    bitDepth: v?.bitDepth ?? null,
    hdr: v?.hdr ?? null,
    colorRange: v?.colorRange ?? null,
    colorSpace: v?.colorSpace ?? null,
    colorTransfer: v?.colorTransfer ?? null,
    codedSize: v ? sizeLabel(v.width, v.height) : null,
    displaySize: v ? sizeLabel(v.displayWidth, v.displayHeight) : null,
    rotation: v?.rotation ?? null,
    sampleAspectRatio: v?.sampleAspectRatio ?? null,
    fps: v && media.kind === 'video' ? round(v.fps, 3) : null,
    avgFps: v && media.kind === 'video' ? round(v.avgFps, 3) : null,
    variableFrameRate: v && media.kind === 'video' ? v.variableFrameRate : null,
    fieldOrder: v?.fieldOrder ?? null,
    scan: v && media.kind === 'video' ? scanOf(v) : null,
    audioCodec: a?.codec ?? null,
    sampleRate: a?.sampleRate ?? null,
    channels: a?.channels ?? null,
    channelLayout: a?.channelLayout ?? null,
    videoStreamCount: media.videoStreamCount,
    audioStreamCount: media.audioStreamCount,
    subtitleStreamCount: media.subtitleStreamCount,
    otherStreams: media.otherStreams,
    legalLevels,
  };
}
