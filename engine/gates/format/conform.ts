// Repair commands of the format gates: every re-encodable format_spec finding of one file shares one ffmpeg conform
// command, built from the fixes the findings ask for and the delivery profile's encoder family.
import { basename, extname } from 'node:path';
import type { GateThresholds, MediaInfo, Severity } from '../../types.js';
import { optionalStrings, thresholdText } from '../kit/thresholds.js';
import { containerOf, scanOf, TOP_FIELD_FIRST } from './media-format.js';

/** What a re-encode must change to fix a finding. */
export interface Fix {
  /** Re-encode the picture, with these filters (in order). */
  video?: { filters: string[] };
  /** Re-encode the sound with these options. */
  audio?: { sampleRate?: number; channels?: number };
  /** Only the wrapper changes. */
  remux?: true;
}

export interface Finding {
  check: string;
  severity: Severity;
  summary: string;
  evidence: Record<string, unknown>;
  /** What to do, in words; the command is appended when `fix` is set. */
  advice: string;
  reachable: boolean;
  fix?: Fix;
  start?: number;
  end?: number;
}

export const TONEMAP_TO_SDR = 'zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=hable:desat=0,zscale=t=bt709:m=bt709:r=tv';

export type ConformFamily = 'web' | 'broadcast' | 'podcast';

const CONFORM_FAMILIES: readonly string[] = ['web', 'broadcast', 'podcast'] satisfies ConformFamily[];

/** The encoder family the delivery profile's conform command uses (its `conformEncoder` target). */
export function conformFamily(th: GateThresholds): ConformFamily {
  const family = thresholdText(th, 'conformEncoder');
  if (!CONFORM_FAMILIES.includes(family)) throw new Error(`threshold conformEncoder must be one of ${CONFORM_FAMILIES.join(', ')}`);
  return family as ConformFamily;
}

export const VIDEO_ENCODER: Record<ConformFamily, string[]> = {
  web: ['-c:v', 'libx264', '-profile:v', 'high', '-pix_fmt', 'yuv420p', '-crf', '18', '-preset', 'slow'],
  podcast: ['-c:v', 'libx264', '-profile:v', 'high', '-pix_fmt', 'yuv420p', '-crf', '18', '-preset', 'slow'],
  // ProRes 422 HQ in MOV is the mezzanine ffmpeg can make; an MXF house format (XDCAM HD422, AVC-Intra) needs the broadcaster's encoder.
  broadcast: ['-c:v', 'prores_ks', '-profile:v', '3', '-pix_fmt', 'yuv422p10le', '-vendor', 'apl0'],
};

const AUDIO_ENCODER: Record<string, string[]> = {
  aac: ['-c:a', 'aac', '-b:a', '192k'],
  mp3: ['-c:a', 'libmp3lame', '-b:a', '128k'],
  pcm_s24le: ['-c:a', 'pcm_s24le'],
  pcm_s16le: ['-c:a', 'pcm_s16le'],
  flac: ['-c:a', 'flac'],
};

const OUTPUT_CONTAINER: Record<ConformFamily, string> = { web: 'mp4', podcast: 'mp4', broadcast: 'mov' };
const CONTAINERS_FOR_AUDIO_CODEC: Record<string, string> = { mp3: 'mp3', aac: 'm4a', pcm_s24le: 'wav', pcm_s16le: 'wav', flac: 'flac' };

/** A file name as a shell word: quoted when it holds anything but word characters, dots, dashes and slashes. */
export function shellQuote(value: string): string {
  return /^[\w.\-/]+$/.test(value) ? value : `"${value.replace(/(["\\$`])/g, '\\$1')}"`;
}

export function outputName(media: MediaInfo, extension: string): string {
  const name = basename(media.path);
  const stem = name.slice(0, name.length - extname(name).length) || 'output';
  return `${stem}.conformed.${extension}`;
}

function targetAudioCodec(media: MediaInfo, th: GateThresholds): string {
  const allowed = optionalStrings(th, 'audioCodecs') ?? ['aac'];
  const current = media.audio?.codec ?? '';
  if (allowed.includes(current) && AUDIO_ENCODER[current]) return current;
  return allowed.find((c) => AUDIO_ENCODER[c]) ?? 'aac';
}

function outputContainer(media: MediaInfo, th: GateThresholds, family: ConformFamily, audioCodec: string): string {
  const key = media.kind === 'audio' ? 'audioContainers' : 'containers';
  const allowed = optionalStrings(th, key) ?? [];
  const current = containerOf(media);
  if (allowed.includes(current)) return current;
  if (media.kind === 'audio') return CONTAINERS_FOR_AUDIO_CODEC[audioCodec] ?? allowed[0] ?? 'm4a';
  return OUTPUT_CONTAINER[family];
}

function mergeFixes(findings: Finding[]): Fix {
  const merged: Fix = {};
  for (const f of findings) {
    if (f.fix?.video) {
      const filters = [...(merged.video?.filters ?? []), ...f.fix.video.filters.filter((x) => !merged.video?.filters.includes(x))];
      merged.video = { filters };
    }
    if (f.fix?.audio) merged.audio = { ...merged.audio, ...f.fix.audio };
    if (f.fix?.remux) merged.remux = true;
  }
  return merged;
}

// Deinterlace first, then colour, then size, then rate; the R′G′B′ clip for legal levels goes last.
const FILTER_ORDER = ['yadif', 'zscale', 'scale', 'fps', 'format=gbrp'];
const filterRank = (filter: string): number => FILTER_ORDER.findIndex((prefix) => filter.startsWith(prefix));
const pixelFormatOf = (encoderArgs: string[]): string => encoderArgs[encoderArgs.indexOf('-pix_fmt') + 1];

function videoArgs(media: MediaInfo, fix: Fix, family: ConformFamily): string[] {
  const video = media.video;
  if (!video || media.kind !== 'video') return [];
  if (!fix.video) return ['-c:v', 'copy'];
  // zscale converts to the encoder's format itself; ffmpeg's auto-inserted converter may not read its float output.
  const filters = [...fix.video.filters]
    .sort((a, b) => filterRank(a) - filterRank(b))
    .map((f) => (f === TONEMAP_TO_SDR ? `${f},format=${pixelFormatOf(VIDEO_ENCODER[family])}` : f));
  const args = filters.length ? ['-vf', filters.join(',')] : [];
  args.push(...VIDEO_ENCODER[family]);
  if (family === 'broadcast' && scanOf(video) === 'interlaced') args.push('-flags', '+ildct+ilme', '-top', TOP_FIELD_FIRST.has(video.fieldOrder ?? '') ? '1' : '0');
  return args;
}

function audioArgs(media: MediaInfo, th: GateThresholds, fix: Fix): string[] {
  if (!media.audio) return [];
  if (!fix.audio) return ['-c:a', 'copy'];
  const args = [...AUDIO_ENCODER[targetAudioCodec(media, th)]];
  if (fix.audio.sampleRate) args.push('-ar', String(fix.audio.sampleRate));
  if (fix.audio.channels) args.push('-ac', String(fix.audio.channels));
  return args;
}

function streamMaps(media: MediaInfo, family: ConformFamily): string[] {
  const maps: string[] = [];
  if (media.kind === 'video' && media.video) maps.push('-map', `0:${media.video.index}`);
  if (media.audio) maps.push('-map', family === 'broadcast' && media.kind === 'video' ? '0:a' : `0:${media.audio.index}`);
  return maps;
}

export function conformCommand(media: MediaInfo, th: GateThresholds, findings: Finding[]): string {
  const family = conformFamily(th);
  const fix = mergeFixes(findings);
  const container = outputContainer(media, th, family, targetAudioCodec(media, th));
  const args = [...streamMaps(media, family), ...videoArgs(media, fix, family), ...audioArgs(media, th, fix)];
  if (container === 'mp4' || container === 'mov' || container === 'm4a') args.push('-movflags', '+faststart');
  const rendered = args.map((a) => (a.includes(',') || a.includes(' ') || a.includes("'") ? `"${a}"` : a));
  return ['ffmpeg', '-i', shellQuote(basename(media.path)), ...rendered, shellQuote(outputName(media, container))].join(' ');
}

export const COMMAND_NOTE: Record<ConformFamily, string> = {
  web: '',
  podcast: '',
  broadcast: ' It makes a ProRes 422 HQ MOV; for an MXF house format (XDCAM HD422, AVC-Intra) use the broadcaster’s encoder with the same targets.',
};
