import { statSync } from 'node:fs';
import { z } from 'zod';
import { EngineError } from './errors.js';
import { ffprobePath } from './ffmpeg/binaries.js';
import { runTool, type RunResult } from './ffmpeg/run.js';
import type { AudioStreamInfo, MediaInfo, MediaKind, VideoStreamInfo } from './types.js';

const PROBE_TIMEOUT_MS = 30_000;
/** Pictures larger than this (about 16K × 8K) are refused rather than decoded. */
const MAX_PIXELS = 140_000_000;
const IMAGE_CODECS = new Set(['png', 'mjpeg', 'jpegls', 'webp', 'bmp', 'tiff', 'gif', 'ppm', 'pgm', 'pam', 'jpeg2000', 'targa', 'sgi', 'qoi', 'hdr', 'exr']);
const IMAGE_FORMAT = /(^|,)(image2|[a-z0-9]+_pipe|gif|webp|apng)(,|$)/;

const StreamSchema = z
  .object({
    index: z.number(),
    codec_type: z.string().optional(),
    codec_name: z.string().optional(),
    profile: z.string().optional(),
    width: z.number().optional(),
    height: z.number().optional(),
    sample_aspect_ratio: z.string().optional(),
    display_aspect_ratio: z.string().optional(),
    pix_fmt: z.string().optional(),
    bits_per_raw_sample: z.string().optional(),
    color_range: z.string().optional(),
    color_space: z.string().optional(),
    color_transfer: z.string().optional(),
    color_primaries: z.string().optional(),
    field_order: z.string().optional(),
    r_frame_rate: z.string().optional(),
    avg_frame_rate: z.string().optional(),
    start_time: z.string().optional(),
    duration: z.string().optional(),
    nb_frames: z.string().optional(),
    sample_rate: z.string().optional(),
    channels: z.number().optional(),
    channel_layout: z.string().optional(),
    sample_fmt: z.string().optional(),
    bit_rate: z.string().optional(),
    disposition: z.record(z.string(), z.number()).optional(),
    tags: z.record(z.string(), z.string()).optional(),
    side_data_list: z.array(z.record(z.string(), z.unknown())).optional(),
  })
  .loose();

const ProbeSchema = z.object({
  streams: z.array(StreamSchema).default([]),
  format: z
    .object({
      format_name: z.string().optional(),
      format_long_name: z.string().optional(),
      duration: z.string().optional(),
      bit_rate: z.string().optional(),
      start_time: z.string().optional(),
      size: z.string().optional(),
    })
    .loose()
    .optional(),
});

type ProbeStream = z.infer<typeof StreamSchema>;

const num = (v: string | number | undefined | null): number | null => {
  if (v === undefined || v === null || v === 'N/A') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};

function rate(v: string | undefined): number {
  if (!v) return 0;
  const [a, b] = v.split('/').map(Number);
  if (!b) return Number.isFinite(a) ? a : 0;
  return a / b;
}

function ratio(v: string | undefined): number | null {
  if (!v || v === '0:1' || v === 'N/A') return null;
  const [a, b] = v.split(':').map(Number);
  return a > 0 && b > 0 ? a / b : null;
}

function rotationOf(s: ProbeStream): number {
  const fromSide = s.side_data_list?.map((d) => num(d.rotation as string | number | undefined)).find((r) => r !== null);
  const raw = fromSide ?? num(s.tags?.rotate) ?? 0;
  return ((Math.round(raw / 90) * 90) % 360 + 360) % 360;
}

function bitDepthOf(s: ProbeStream): number {
  const raw = num(s.bits_per_raw_sample);
  if (raw) return raw;
  const m = /p(\d+)(le|be)?$/.exec(s.pix_fmt ?? '');
  return m ? Number(m[1]) : 8;
}

// ffmpeg's channel order for the common layouts; names used for loudness weighting.
const LAYOUT_CHANNELS: Record<string, string[]> = {
  mono: ['FC'],
  stereo: ['FL', 'FR'],
  '2.1': ['FL', 'FR', 'LFE'],
  '3.0': ['FL', 'FR', 'FC'],
  quad: ['FL', 'FR', 'BL', 'BR'],
  '4.0': ['FL', 'FR', 'FC', 'BC'],
  '5.0': ['FL', 'FR', 'FC', 'BL', 'BR'],
  '5.0(side)': ['FL', 'FR', 'FC', 'SL', 'SR'],
  '5.1': ['FL', 'FR', 'FC', 'LFE', 'BL', 'BR'],
  '5.1(side)': ['FL', 'FR', 'FC', 'LFE', 'SL', 'SR'],
  '6.1': ['FL', 'FR', 'FC', 'LFE', 'BC', 'SL', 'SR'],
  '7.1': ['FL', 'FR', 'FC', 'LFE', 'BL', 'BR', 'SL', 'SR'],
  '7.1(wide)': ['FL', 'FR', 'FC', 'LFE', 'BL', 'BR', 'FLC', 'FRC'],
  '7.1(wide-side)': ['FL', 'FR', 'FC', 'LFE', 'FLC', 'FRC', 'SL', 'SR'],
};

export function channelNamesFor(layout: string | null, channels: number): string[] {
  const known = layout ? LAYOUT_CHANNELS[layout] : undefined;
  if (known && known.length === channels) return known;
  if (channels === 1) return ['FC'];
  if (channels === 2) return ['FL', 'FR'];
  return Array.from({ length: channels }, (_, i) => `C${i}`);
}

function videoInfo(s: ProbeStream, formatDuration: number | null): VideoStreamInfo {
  const width = s.width ?? 0;
  const height = s.height ?? 0;
  const sar = ratio(s.sample_aspect_ratio) ?? 1;
  const rotation = rotationOf(s);
  let displayWidth = Math.round(width * sar);
  let displayHeight = height;
  if (rotation === 90 || rotation === 270) [displayWidth, displayHeight] = [displayHeight, displayWidth];
  const transfer = s.color_transfer ?? null;
  const duration = num(s.duration) ?? formatDuration;
  return {
    index: s.index,
    codec: s.codec_name ?? 'unknown',
    profile: s.profile ?? null,
    width,
    height,
    displayWidth,
    displayHeight,
    sampleAspectRatio: s.sample_aspect_ratio ?? null,
    displayAspectRatio: s.display_aspect_ratio ?? null,
    rotation,
    pixelFormat: s.pix_fmt ?? null,
    bitDepth: bitDepthOf(s),
    colorRange: s.color_range === 'pc' ? 'pc' : s.color_range === 'tv' ? 'tv' : (s.pix_fmt ?? '').startsWith('yuvj') ? 'pc' : null,
    colorSpace: s.color_space ?? null,
    colorTransfer: transfer,
    colorPrimaries: s.color_primaries ?? null,
    hdr: transfer === 'smpte2084' || transfer === 'arib-std-b67',
    fieldOrder: s.field_order ?? null,
    fps: rate(s.r_frame_rate),
    avgFps: rate(s.avg_frame_rate),
    variableFrameRate: false,
    startSeconds: num(s.start_time) ?? 0,
    durationSeconds: duration,
    frameCount: num(s.nb_frames),
    attachedPicture: s.disposition?.attached_pic === 1,
  };
}

function audioInfo(s: ProbeStream, formatDuration: number | null): AudioStreamInfo {
  const channels = s.channels ?? 0;
  const layout = s.channel_layout ?? null;
  return {
    index: s.index,
    codec: s.codec_name ?? 'unknown',
    sampleRate: num(s.sample_rate) ?? 0,
    channels,
    channelLayout: layout,
    channelNames: channelNamesFor(layout, channels),
    sampleFormat: s.sample_fmt ?? null,
    bitRate: num(s.bit_rate),
    startSeconds: num(s.start_time) ?? 0,
    durationSeconds: num(s.duration) ?? formatDuration,
  };
}

function isImage(formatName: string, video: VideoStreamInfo, durationSeconds: number): boolean {
  if (IMAGE_FORMAT.test(formatName) && (video.frameCount ?? 1) <= 1) return true;
  return IMAGE_CODECS.has(video.codec) && (durationSeconds <= 0.05 || video.frameCount === 1);
}

function assertReadableFile(path: string): number {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new EngineError('file_not_found', `No file at ${path}.`, { path });
  }
  if (stat.isDirectory()) throw new EngineError('not_a_file', `${path} is a directory; give a media file.`, { path });
  if (!stat.isFile()) throw new EngineError('not_a_file', `${path} is not a regular file.`, { path });
  if (stat.size === 0) throw new EngineError('unsupported_media', `${path} is empty (0 bytes).`, { path });
  return stat.size;
}

/** Reads the container with ffprobe (no decode) and describes what a check can analyse. */
export async function probe(path: string, signal?: AbortSignal): Promise<MediaInfo> {
  const sizeBytes = assertReadableFile(path);
  // The container read starts first: the decode waits for its answer, and a spawn holds the event loop ~6 ms.
  const container = runTool(
    ffprobePath(),
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '-i', path],
    { timeoutMs: PROBE_TIMEOUT_MS, signal },
  );
  // The frame-rate scan of the file's video runs beside the container read rather than after it, so the decode starts
  // sooner; it is used only when the file has exactly one video stream (then `v` selects just what the stream's index
  // would) and stopped otherwise.
  const early = new AbortController();
  const videoPackets = packetTimes(path, 'v', early.signal);
  videoPackets.catch(() => undefined);
  const stopEarly = () => early.abort();
  signal?.addEventListener('abort', stopEarly, { once: true });
  try {
    return await probeWith(path, sizeBytes, container, videoPackets, signal);
  } finally {
    signal?.removeEventListener('abort', stopEarly);
    early.abort();
  }
}

async function probeWith(path: string, sizeBytes: number, container: Promise<RunResult>, videoPackets: Promise<RunResult>, signal?: AbortSignal): Promise<MediaInfo> {
  const result = await container;
  let parsed: z.infer<typeof ProbeSchema>;
  try {
    parsed = ProbeSchema.parse(JSON.parse(result.stdout || '{}'));
  } catch {
    parsed = { streams: [] };
  }
  if (result.exitCode !== 0 || !parsed.format) {
    const why = result.stderr.trim().split('\n').pop() ?? '';
    throw new EngineError('unsupported_media', `${path} is not a media file ffprobe can read${why ? ` (${why.replace(`${path}: `, '')})` : ''}.`, { path });
  }
  const format = parsed.format;
  const formatName = format.format_name ?? 'unknown';
  const formatDuration = num(format.duration);
  const streams = parsed.streams;
  const videoStreams = streams.filter((s) => s.codec_type === 'video' && s.codec_name && (s.width ?? 0) > 0);
  const audioStreams = streams.filter((s) => s.codec_type === 'audio' && s.codec_name && (s.channels ?? 0) > 0);
  const mainVideo = videoStreams.find((s) => s.disposition?.attached_pic !== 1) ?? videoStreams[0];
  const video = mainVideo ? videoInfo(mainVideo, formatDuration) : null;
  const audio = audioStreams[0] ? audioInfo(audioStreams[0], formatDuration) : null;
  const otherStreams = streams
    .filter((s) => s !== mainVideo && s !== audioStreams[0])
    .map((s) => ({ index: s.index, type: s.codec_type ?? 'unknown', codec: s.codec_name ?? null }));

  const durationSeconds = Math.max(formatDuration ?? 0, video?.durationSeconds ?? 0, audio?.durationSeconds ?? 0);
  let kind: MediaKind;
  if (video && !video.attachedPicture && !isImage(formatName, video, durationSeconds)) kind = 'video';
  else if (audio) kind = 'audio';
  else if (video) kind = 'image';
  else throw new EngineError('unsupported_media', `${path} has no video, audio or image stream Preflight can decode.`, { path, formatName });

  if (video && video.width * video.height > MAX_PIXELS) {
    throw new EngineError('unsupported_media', `${path} is ${video.width}×${video.height}, larger than the ${MAX_PIXELS / 1e6} megapixel limit.`, { path });
  }
  if (kind !== 'image' && !(durationSeconds > 0)) {
    throw new EngineError('unsupported_media', `${path} has no playable duration (0 s of ${kind}).`, { path });
  }
  if (kind === 'video' && video) {
    const oneVideoStream = streams.filter((s) => s.codec_type === 'video').length === 1;
    video.variableFrameRate = await detectVariableFrameRate(oneVideoStream ? videoPackets : packetTimes(path, `${video.index}`, signal));
  }
  return {
    path,
    kind,
    container: formatName,
    formatLongName: format.format_long_name ?? null,
    sizeBytes,
    durationSeconds: kind === 'image' ? 0 : durationSeconds,
    bitRate: num(format.bit_rate),
    startSeconds: num(format.start_time) ?? 0,
    video: kind === 'audio' ? null : video,
    audio: kind === 'image' ? null : audio,
    videoStreamCount: videoStreams.length,
    audioStreamCount: audioStreams.length,
    subtitleStreamCount: streams.filter((s) => s.codec_type === 'subtitle').length,
    otherStreams,
  };
}

/** Packet timestamps of the first 60 s of the selected streams (demux only, no decode), one a line. */
function packetTimes(path: string, streams: string, signal?: AbortSignal): Promise<RunResult> {
  return runTool(
    ffprobePath(),
    ['-v', 'error', '-select_streams', streams, '-read_intervals', '%+60', '-show_entries', 'packet=pts_time', '-of', 'csv=p=0', '-i', path],
    { timeoutMs: PROBE_TIMEOUT_MS, signal },
  );
}

/**
 * Calls the stream variable-rate when, in its packet timestamps of the first 60 s, frame intervals differ by more than
 * 10 % from their median on more than 2 % of frames.
 */
async function detectVariableFrameRate(packets: Promise<RunResult>): Promise<boolean> {
  const result = await packets;
  const pts = result.stdout
    .split('\n')
    .map((l) => Number.parseFloat(l))
    .filter((v) => Number.isFinite(v))
    .sort((a, b) => a - b);
  if (pts.length < 10) return false;
  const intervals: number[] = [];
  for (let i = 1; i < pts.length; i++) intervals.push(pts[i] - pts[i - 1]);
  const sorted = [...intervals].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  if (!(median > 0)) return false;
  const off = intervals.filter((d) => Math.abs(d - median) > median * 0.1).length;
  return off / intervals.length > 0.02;
}
