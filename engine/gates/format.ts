// format_spec (container, codecs, picture and sound format, R 103 legal levels) and shorts_format (Shorts/Reels shape).
// Both are pure functions of MediaInfo (plus legal-level samples) and the delivery profile's targets.
import { basename, extname } from 'node:path';
import type { DeliveryProfileId } from '../profiles/index.js';
import type { FlagDraft, GateContext, GateDefinition, GateThresholds, MediaInfo, Severity, VideoStreamInfo } from '../types.js';
import { legalLevelsMatrix } from '../video/legal-levels.js';
import { gateResult, skippedGate } from './kit/result.js';
import { round } from './kit/stats.js';
import { optionalFlag, optionalNumber, optionalNumbers, optionalStrings, threshold, thresholdNumbers, thresholdSeverity, thresholdText } from './kit/thresholds.js';
import { isVerticalDelivery } from '../profiles/threshold-values.js';
import { defineGate } from './define.js';
import { formatThresholds } from '../profiles/thresholds-format.js';

// ---------------------------------------------------------------------------------------------------------------
// Threshold access

type Thresholds = GateThresholds;

/** Evidence for a flag: what was measured against which threshold, and where the threshold comes from. */
function evidence(th: Thresholds, key: string, measured: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
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

// ---------------------------------------------------------------------------------------------------------------
// Describing the media

const MOV_FAMILY_BY_EXTENSION: Record<string, string> = { mov: 'mov', qt: 'mov', mp4: 'mp4', m4v: 'mp4', m4a: 'm4a', '3gp': '3gp', '3g2': '3gp' };
const IMAGE_FORMAT_BY_CODEC: Record<string, string> = { mjpeg: 'jpeg', jpegls: 'jpeg', png: 'png', gif: 'gif', bmp: 'bmp', webp: 'webp', tiff: 'tiff' };
const INTERLACED_FIELD_ORDERS = new Set(['tt', 'bb', 'tb', 'bt']);
const TOP_FIELD_FIRST = new Set(['tt', 'tb']);

/**
 * ffprobe names demuxers, not file types: "mov,mp4,m4a,3gp,3g2,mj2" is one demuxer for all of them, so the
 * extension decides within that family (MediaInfo carries no ftyp brand).
 */
function containerOf(media: MediaInfo): string {
  const tokens = media.container.split(',');
  const extension = extname(media.path).slice(1).toLowerCase();
  if (tokens.includes('mov') || tokens.includes('mp4')) return MOV_FAMILY_BY_EXTENSION[extension] ?? 'mp4';
  if (tokens.includes('matroska') || tokens.includes('webm')) return extension === 'webm' ? 'webm' : 'mkv';
  return tokens[0];
}

function imageFormatOf(video: VideoStreamInfo): string {
  return IMAGE_FORMAT_BY_CODEC[video.codec] ?? video.codec;
}

function scanOf(video: VideoStreamInfo): 'progressive' | 'interlaced' | 'unknown' {
  if (video.fieldOrder === 'progressive') return 'progressive';
  return video.fieldOrder && INTERLACED_FIELD_ORDERS.has(video.fieldOrder) ? 'interlaced' : 'unknown';
}

/** Several mono streams are discrete tracks (common in broadcast MXF): count them as channels. */
function effectiveChannels(media: MediaInfo): number {
  const audio = media.audio;
  if (!audio) return 0;
  return media.audioStreamCount > 1 && audio.channels === 1 ? media.audioStreamCount : audio.channels;
}

const sizeLabel = (width: number, height: number): string => `${width}x${height}`;

function describe(media: MediaInfo, legalLevels: unknown): Record<string, unknown> {
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

// ---------------------------------------------------------------------------------------------------------------
// Findings: one per problem; the repair commands are composed once for all of them.

/** What a re-encode must change to fix a finding. */
interface Fix {
  /** Re-encode the picture, with these filters (in order). */
  video?: { filters: string[] };
  /** Re-encode the sound with these options. */
  audio?: { sampleRate?: number; channels?: number };
  /** Only the wrapper changes. */
  remux?: true;
}

interface Finding {
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

interface Scope {
  media: MediaInfo;
  th: Thresholds;
  severity: Severity;
}

// ---------------------------------------------------------------------------------------------------------------
// Frame rates

const COMMON_RATES = [23.976, 24, 25, 29.97, 30, 48, 50, 59.94, 60];
const NTSC_RATE_EXPRESSIONS: Record<string, string> = { '23.976': '24000/1001', '29.97': '30000/1001', '47.952': '48000/1001', '59.94': '60000/1001' };
const RATE_TOLERANCE = 0.01;

const rateExpression = (rate: number): string => NTSC_RATE_EXPRESSIONS[String(rate)] ?? String(rate);

function allowedRates(th: Thresholds): number[] {
  const listed = optionalNumbers(th, 'frameRates');
  if (listed) return listed;
  const min = optionalNumber(th, 'minFps') ?? 0;
  const max = optionalNumber(th, 'maxFps') ?? Infinity;
  return COMMON_RATES.filter((r) => r >= min - RATE_TOLERANCE && r <= max + RATE_TOLERANCE);
}

function nearestRate(fps: number, candidates: number[]): number {
  return candidates.reduce((best, r) => (Math.abs(r - fps) < Math.abs(best - fps) ? r : best), candidates[0]);
}

function rateAllowed(fps: number, th: Thresholds): boolean {
  const listed = optionalNumbers(th, 'frameRates');
  if (listed) return listed.some((r) => Math.abs(r - fps) <= RATE_TOLERANCE);
  const min = optionalNumber(th, 'minFps') ?? 0;
  const max = optionalNumber(th, 'maxFps') ?? Infinity;
  return fps >= min - RATE_TOLERANCE && fps <= max + RATE_TOLERANCE;
}

// ---------------------------------------------------------------------------------------------------------------
// Video checks

function checkContainer({ media, th, severity }: Scope, key: 'containers' | 'audioContainers'): Finding[] {
  const allowed = optionalStrings(th, key);
  const container = containerOf(media);
  if (!allowed || allowed.includes(container)) return [];
  return [
    {
      check: 'container',
      severity,
      summary: `Container ${container} is not one of ${allowed.join('/')}`,
      evidence: evidence(th, key, container, { formatName: media.container }),
      advice: `Rewrap into ${allowed[0].toUpperCase()}.`,
      reachable: true,
      fix: { remux: true },
    },
  ];
}

function checkVideoCodec({ th, severity }: Scope, video: VideoStreamInfo): Finding[] {
  const allowed = optionalStrings(th, 'videoCodecs');
  if (!allowed || allowed.includes(video.codec)) return [];
  return [
    {
      check: 'video_codec',
      severity,
      summary: `Video codec ${video.codec} is not one of ${allowed.join('/')}`,
      evidence: evidence(th, 'videoCodecs', video.codec, { profile: video.profile }),
      advice: `Re-encode the picture with an allowed codec (${allowed.join('/')}).`,
      reachable: true,
      fix: { video: { filters: [] } },
    },
  ];
}

const TONEMAP_TO_SDR = 'zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=hable:desat=0,zscale=t=bt709:m=bt709:r=tv';

function checkHdr({ th, severity }: Scope, video: VideoStreamInfo): Finding[] {
  if (!video.hdr || optionalFlag(th, 'hdrAllowed') !== false) return [];
  return [
    {
      check: 'hdr',
      severity,
      summary: `HDR picture (${video.colorTransfer}, ${video.bitDepth}-bit ${video.pixelFormat ?? 'unknown pixel format'}) where SDR is expected`,
      evidence: evidence(th, 'hdrAllowed', { hdr: true, colorTransfer: video.colorTransfer, colorPrimaries: video.colorPrimaries, pixelFormat: video.pixelFormat }),
      advice:
        'Deliver an SDR BT.709 version: grade it from the HDR master (best), or tone-map mechanically (highlights compress; check skin tones).' +
        (severity === 'WATCH' ? ' If the destination supports HDR and the HDR metadata is intended, keep it and accept this WATCH.' : ''),
      reachable: true,
      fix: { video: { filters: [TONEMAP_TO_SDR] } },
    },
  ];
}

function checkPixelFormat({ th, severity }: Scope, video: VideoStreamInfo): Finding[] {
  const allowed = optionalStrings(th, 'pixelFormats');
  if (!allowed || !video.pixelFormat || video.hdr || allowed.includes(video.pixelFormat)) return [];
  return [
    {
      check: 'pixel_format',
      severity,
      summary: `Pixel format ${video.pixelFormat} (${video.bitDepth}-bit) is not one of ${allowed.join('/')}`,
      evidence: evidence(th, 'pixelFormats', video.pixelFormat, { bitDepth: video.bitDepth }),
      advice: `Re-encode the picture as ${allowed.join(' or ')}.`,
      reachable: true,
      fix: { video: { filters: [] } },
    },
  ];
}

function checkResolution(scope: Scope, video: VideoStreamInfo): Finding[] {
  const { th, severity } = scope;
  const minShortSide = optionalNumber(th, 'minShortSidePx');
  const shortSide = Math.min(video.displayWidth, video.displayHeight);
  const display = sizeLabel(video.displayWidth, video.displayHeight);
  if (minShortSide !== null && shortSide < minShortSide) {
    return [
      {
        check: 'resolution',
        severity,
        summary: `Picture ${display} is below ${minShortSide} lines`,
        evidence: evidence(th, 'minShortSidePx', display, { shortSidePx: shortSide, recommendedShortSidePx: optionalNumber(th, 'recommendedShortSidePx') }),
        advice: `Re-render or re-export from the source at ${optionalNumber(th, 'recommendedShortSidePx') ?? minShortSide} lines or more; upscaling this file adds no detail.`,
        reachable: false,
      },
    ];
  }
  return checkFrameSize(scope, video);
}

const aspectOf = (size: string): number => {
  const [w, h] = size.split('x').map(Number);
  return w / h;
};

/** Shapes within 2 % of each other scale without bars. */
const SAME_SHAPE_TOLERANCE = 0.02;

function checkFrameSize({ th, severity }: Scope, video: VideoStreamInfo): Finding[] {
  const sizes = optionalStrings(th, 'frameSizes');
  const display = sizeLabel(video.displayWidth, video.displayHeight);
  if (!sizes || sizes.includes(display)) return [];
  const ratio = video.displayWidth / video.displayHeight;
  const sameShapeAs = (size: string): boolean => Math.abs(aspectOf(size) - ratio) <= ratio * SAME_SHAPE_TOLERANCE;
  const target = sizes.find(sameShapeAs) ?? sizes[0];
  const sameShape = sameShapeAs(target);
  const [w, h] = target.split('x');
  return [
    {
      check: 'frame_size',
      severity,
      summary: `Picture ${display} is not one of ${sizes.join(', ')}`,
      evidence: evidence(th, 'frameSizes', display, { codedSize: sizeLabel(video.width, video.height), rotation: video.rotation }),
      advice: sameShape
        ? `Scale to ${target}.`
        : `The picture shape does not match ${target}: reframe it from the source. Scaling and padding to ${target} is a last resort and adds bars.`,
      reachable: sameShape,
      fix: sameShape ? { video: { filters: [`scale=${w}:${h}`] } } : undefined,
    },
  ];
}

function checkFrameRate(scope: Scope, video: VideoStreamInfo): Finding[] {
  const { th, severity } = scope;
  const candidates = allowedRates(th);
  if (video.variableFrameRate && optionalFlag(th, 'variableFrameRateAllowed') === false) {
    const target = nearestRate(video.avgFps || video.fps, candidates);
    return [
      {
        check: 'variable_frame_rate',
        severity,
        summary: `Variable frame rate (average ${round(video.avgFps, 3)} fps)`,
        evidence: evidence(th, 'variableFrameRateAllowed', { variableFrameRate: true, avgFps: round(video.avgFps, 3), nominalFps: round(video.fps, 3) }),
        advice: `Convert to a constant ${target} fps (frames are duplicated or dropped to hold the rate; audio is untouched). Re-exporting at a constant rate from the edit is cleaner.`,
        reachable: true,
        fix: { video: { filters: [`fps=${rateExpression(target)}`] } },
      },
    ];
  }
  if (!(video.fps > 0) || rateAllowed(video.fps, th)) return [];
  const target = nearestRate(video.fps, candidates);
  const key = optionalNumbers(th, 'frameRates') ? 'frameRates' : video.fps < (optionalNumber(th, 'minFps') ?? 0) ? 'minFps' : 'maxFps';
  return [
    {
      check: 'frame_rate',
      severity,
      summary: `Frame rate ${round(video.fps, 3)} fps is outside the allowed ${describeRates(th)}`,
      evidence: evidence(th, key, round(video.fps, 3), { avgFps: round(video.avgFps, 3) }),
      advice: `Convert to ${target} fps; a rate conversion changes motion cadence, so exporting at ${target} fps from the edit is better.`,
      reachable: true,
      fix: { video: { filters: [`fps=${rateExpression(target)}`] } },
    },
  ];
}

function describeRates(th: Thresholds): string {
  const listed = optionalNumbers(th, 'frameRates');
  if (listed) return `${listed.join('/')} fps`;
  return `${optionalNumber(th, 'minFps') ?? 0}..${optionalNumber(th, 'maxFps') ?? '∞'} fps`;
}

function checkInterlace({ th, severity }: Scope, video: VideoStreamInfo): Finding[] {
  if (scanOf(video) !== 'interlaced' || optionalFlag(th, 'interlacedAllowed') !== false) return [];
  return [
    {
      check: 'interlaced',
      severity,
      summary: `Interlaced picture (field order ${video.fieldOrder}) where progressive is required`,
      evidence: evidence(th, 'interlacedAllowed', { fieldOrder: video.fieldOrder }),
      advice: 'Deinterlace to progressive (yadif keeps one frame per frame; use yadif=1 and double the rate for sports or fast motion).',
      reachable: true,
      fix: { video: { filters: ['yadif'] } },
    },
  ];
}

function checkRotation({ th, severity }: Scope, video: VideoStreamInfo): Finding[] {
  if (video.rotation === 0 || optionalFlag(th, 'rotationMetadataAllowed') !== false) return [];
  return [
    {
      check: 'rotation_metadata',
      severity,
      summary: `Picture relies on rotation metadata (${video.rotation}°), which play-out ignores`,
      evidence: evidence(th, 'rotationMetadataAllowed', video.rotation, { codedSize: sizeLabel(video.width, video.height), displaySize: sizeLabel(video.displayWidth, video.displayHeight) }),
      advice: 'Re-encode so the rotation is baked into the pixels (ffmpeg applies the rotation when it re-encodes).',
      reachable: true,
      fix: { video: { filters: [] } },
    },
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Audio checks

function checkAudio(scope: Scope): Finding[] {
  const { media, th, severity } = scope;
  if (!media.audio) {
    if (optionalFlag(th, 'audioRequired') !== true || media.kind !== 'video') return [];
    return [
      {
        check: 'audio_missing',
        severity,
        summary: 'No audio stream',
        evidence: evidence(th, 'audioRequired', { audioStreamCount: 0 }),
        advice: 'Deliver the programme with its sound: add the mix from the edit.',
        reachable: false,
      },
    ];
  }
  return [...checkAudioCodec(scope), ...checkSampleRate(scope), ...checkChannels(scope), ...checkAudioStreams(scope)];
}

function checkAudioCodec({ media, th, severity }: Scope): Finding[] {
  const allowed = optionalStrings(th, 'audioCodecs');
  const codec = media.audio!.codec;
  if (!allowed || allowed.includes(codec)) return [];
  return [
    {
      check: 'audio_codec',
      severity,
      summary: `Audio codec ${codec} is not one of ${allowed.join('/')}`,
      evidence: evidence(th, 'audioCodecs', codec),
      advice: `Re-encode the sound to ${allowed[0]}.`,
      reachable: true,
      fix: { audio: {} },
    },
  ];
}

function checkSampleRate({ media, th, severity }: Scope): Finding[] {
  const allowed = optionalNumbers(th, 'sampleRatesHz');
  const rate = media.audio!.sampleRate;
  if (!allowed || allowed.includes(rate)) return [];
  const target = allowed.includes(48000) ? 48000 : allowed[0];
  return [
    {
      check: 'sample_rate',
      severity,
      summary: `Audio sample rate ${rate / 1000} kHz is not one of ${allowed.map((r) => r / 1000).join('/')} kHz`,
      evidence: evidence(th, 'sampleRatesHz', rate),
      advice: `Resample to ${target / 1000} kHz (better: export at ${target / 1000} kHz from the mix).`,
      reachable: true,
      fix: { audio: { sampleRate: target } },
    },
  ];
}

function checkChannels({ media, th, severity }: Scope): Finding[] {
  const allowed = optionalNumbers(th, 'audioChannels');
  const channels = effectiveChannels(media);
  if (!allowed || allowed.includes(channels)) return [];
  const target = channels > 2 ? 2 : (allowed.find((c) => c >= channels) ?? 2);
  const layout = media.audio!.channelLayout ?? `${channels} channels`;
  const advice =
    channels > target
      ? `Downmix ${layout} to stereo (ffmpeg's default downmix matrix; a mix engineer's stereo fold-down is better).`
      : `Deliver ${target} channels: duplicate the mono signal to L and R (dual mono).`;
  return [
    {
      check: 'audio_channels',
      severity,
      summary: `${channels} audio channels (${layout}) where ${allowed.join('/')} are expected`,
      evidence: evidence(th, 'audioChannels', channels, { channelLayout: media.audio!.channelLayout, audioStreamCount: media.audioStreamCount }),
      advice,
      reachable: true,
      fix: { audio: { channels: target } },
    },
  ];
}

function checkAudioStreams({ media, th, severity }: Scope): Finding[] {
  const max = optionalNumber(th, 'maxAudioStreams');
  if (max === null || media.audioStreamCount <= max) return [];
  return [
    {
      check: 'audio_streams',
      severity,
      summary: `${media.audioStreamCount} audio streams; only the first will be heard`,
      evidence: evidence(th, 'maxAudioStreams', media.audioStreamCount),
      advice: 'Keep only the programme mix (the conform command maps the first audio stream); mix other tracks into it first if they belong to the programme.',
      reachable: true,
      fix: { remux: true },
    },
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Legal levels (R 103)

/** Over-allowance samples closer than this are one excursion (one flag). */
const LEVELS_MERGE_GAP_SECONDS = 10;
const MAX_SAMPLES_IN_EVIDENCE = 20;

type LevelSample = { atSeconds: number; outOfRangePct: number };

function groupSamples(samples: LevelSample[]): LevelSample[][] {
  const sorted = [...samples].sort((a, b) => a.atSeconds - b.atSeconds);
  const groups: LevelSample[][] = [];
  for (const s of sorted) {
    const last = groups.at(-1);
    if (last && s.atSeconds - last[last.length - 1].atSeconds <= LEVELS_MERGE_GAP_SECONDS) last.push(s);
    else groups.push([s]);
  }
  return groups;
}

function legalLevelsMeasurement(ctx: GateContext): unknown {
  const levels = ctx.signals.video?.legalLevels ?? null;
  if (!('legalLevelsAreaAllowancePct' in ctx.thresholds)) return 'not measured for this delivery profile';
  if (!levels) return 'not measured (no legal-level samples in this analysis)';
  return { samples: levels.samples, worstOutOfRangePct: round(levels.worstOutOfRangePct, 3), worstAtSeconds: round(levels.worstAtSeconds, 3), samplesOverAllowance: levels.samplesOverAllowance.length };
}

/** Untagged pictures are measured with the size convention (BT.709 for HD, BT.601 for SD), as players show them. */
function matrixNote(video: VideoStreamInfo | null): { matrix: string; advice: string } {
  if (video?.colorSpace) return { matrix: video.colorSpace, advice: '' };
  const assumed = legalLevelsMatrix(null, video?.height ?? 0);
  return {
    matrix: `untagged (measured as ${assumed})`,
    advice:
      ` The file carries no colour-matrix tag, so it was measured as ${assumed}, as players will show it; an encode made with the other matrix ` +
      '(ffmpeg converts RGB with BT.601 unless told otherwise) reads out of gamut: tag the stream correctly or convert it to the right matrix.',
  };
}

function checkLegalLevels(scope: Scope, ctx: GateContext): Finding[] {
  const { th, severity } = scope;
  const levels = ctx.signals.video?.legalLevels;
  const allowance = optionalNumber(th, 'legalLevelsAreaAllowancePct');
  if (!levels || allowance === null) return [];
  const frame = 1 / ctx.timecodeFps;
  const note = matrixNote(scope.media.video);
  return groupSamples(levels.samplesOverAllowance).map((group) => {
    const worst = group.reduce((a, b) => (b.outOfRangePct > a.outOfRangePct ? b : a));
    const start = group[0].atSeconds;
    const end = group[group.length - 1].atSeconds + frame;
    return {
      check: 'legal_levels',
      severity,
      summary: `${round(worst.outOfRangePct, 2)} % of the picture outside R 103 −5 %..105 % (allowance ${allowance} %) in ${group.length} sample${group.length > 1 ? 's' : ''}`,
      evidence: evidence(th, 'legalLevelsAreaAllowancePct', round(worst.outOfRangePct, 3), {
        window: thresholdNumbers(th, 'legalLevelsCodeRange8bit'),
        samples: group.slice(0, MAX_SAMPLES_IN_EVIDENCE).map((s) => ({ atSeconds: round(s.atSeconds, 3), outOfRangePct: round(s.outOfRangePct, 3) })),
        samplesInSpan: group.length,
        samplesMeasured: levels.samples,
        matrix: note.matrix,
      }),
      advice:
        `Bring R′G′B′ inside −5 %..105 % between ${round(start, 3)} s and ${round(end, 3)} s: fix it in the grade (soft-clip highlights, pull saturated colours in) ` +
        'or legalise mechanically by clipping R′G′B′ to the nominal range (hard clipping can flatten highlights).' +
        note.advice,
      reachable: true,
      fix: { video: { filters: ['format=gbrp'] } },
      start,
      end,
    };
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Images (judged as video-site thumbnails)

function checkImage({ media, th }: Scope, video: VideoStreamInfo): Finding[] {
  const findings: Finding[] = [];
  const formats = optionalStrings(th, 'imageFormats');
  const format = imageFormatOf(video);
  const minWidth = optionalNumber(th, 'imageMinWidthPx');
  const maxBytes = optionalNumber(th, 'imageMaxBytes');
  const smallerJpeg = `ffmpeg -i ${shellQuote(basename(media.path))} -vf "scale='min(1280,iw)':-2" -q:v 3 ${shellQuote(outputName(media, 'jpg'))}`;
  if (formats && !formats.includes(format)) {
    findings.push({
      check: 'image_format',
      severity: 'WATCH',
      summary: `Image format ${format} is not one of ${formats.join('/')}`,
      evidence: evidence(th, 'imageFormats', format),
      advice: `Convert to JPEG: \`${smallerJpeg}\`.`,
      reachable: true,
    });
  }
  if (minWidth !== null && video.displayWidth < minWidth) {
    findings.push({
      check: 'image_width',
      severity: 'BLOCK',
      summary: `Image is ${video.displayWidth} px wide, below the ${minWidth} px minimum`,
      evidence: evidence(th, 'imageMinWidthPx', video.displayWidth, { recommended: thresholdText(th, 'imageRecommendedSize') }),
      advice: `Export the image again at ${thresholdText(th, 'imageRecommendedSize')}; upscaling adds no detail.`,
      reachable: false,
    });
  }
  if (maxBytes !== null && media.sizeBytes > maxBytes) {
    findings.push({
      check: 'image_file_size',
      severity: 'BLOCK',
      summary: `Image file is ${round(media.sizeBytes / 1e6, 2)} MB, over the ${maxBytes / 1e6} MB limit`,
      evidence: evidence(th, 'imageMaxBytes', media.sizeBytes),
      advice: `Recompress as JPEG at most 1280 px wide: \`${smallerJpeg}\`.`,
      reachable: true,
    });
  }
  return findings;
}

// ---------------------------------------------------------------------------------------------------------------
// Repair commands: every re-encode finding of one file shares one conform command.

type ConformFamily = 'web' | 'broadcast' | 'podcast';

const CONFORM_FAMILY: Record<DeliveryProfileId, ConformFamily> = {
  video_site_shorts: 'web',
  video_site_longform: 'web',
  social_reels_ad: 'web',
  short_video_app_post: 'web',
  ai_render_gate: 'web',
  podcast_delivery: 'podcast',
  broadcast_r128: 'broadcast',
};

const VIDEO_ENCODER: Record<ConformFamily, string[]> = {
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
function shellQuote(value: string): string {
  return /^[\w.\-/]+$/.test(value) ? value : `"${value.replace(/(["\\$`])/g, '\\$1')}"`;
}

function outputName(media: MediaInfo, extension: string): string {
  const name = basename(media.path);
  const stem = name.slice(0, name.length - extname(name).length) || 'output';
  return `${stem}.conformed.${extension}`;
}

function targetAudioCodec(media: MediaInfo, th: Thresholds): string {
  const allowed = optionalStrings(th, 'audioCodecs') ?? ['aac'];
  const current = media.audio?.codec ?? '';
  if (allowed.includes(current) && AUDIO_ENCODER[current]) return current;
  return allowed.find((c) => AUDIO_ENCODER[c]) ?? 'aac';
}

function outputContainer(media: MediaInfo, th: Thresholds, family: ConformFamily, audioCodec: string): string {
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

function audioArgs(media: MediaInfo, th: Thresholds, fix: Fix): string[] {
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

function conformCommand(media: MediaInfo, th: Thresholds, delivery: DeliveryProfileId, findings: Finding[]): string {
  const family = CONFORM_FAMILY[delivery];
  const fix = mergeFixes(findings);
  const container = outputContainer(media, th, family, targetAudioCodec(media, th));
  const args = [...streamMaps(media, family), ...videoArgs(media, fix, family), ...audioArgs(media, th, fix)];
  if (container === 'mp4' || container === 'mov' || container === 'm4a') args.push('-movflags', '+faststart');
  const rendered = args.map((a) => (a.includes(',') || a.includes(' ') || a.includes("'") ? `"${a}"` : a));
  return ['ffmpeg', '-i', shellQuote(basename(media.path)), ...rendered, shellQuote(outputName(media, container))].join(' ');
}

const COMMAND_NOTE: Record<ConformFamily, string> = {
  web: '',
  podcast: '',
  broadcast: ' It makes a ProRes 422 HQ MOV; for an MXF house format (XDCAM HD422, AVC-Intra) use the broadcaster’s encoder with the same targets.',
};

function toFlag(f: Finding, media: MediaInfo, command: string | null, family: ConformFamily): FlagDraft {
  const instruction =
    f.fix && command ? `${f.advice} One command fixes every re-encodable format_spec flag of this file: \`${command}\`.${f.fix.video ? COMMAND_NOTE[family] : ''}` : f.advice;
  return {
    severity: f.severity,
    start: f.start ?? 0,
    end: f.end ?? media.durationSeconds,
    summary: f.summary,
    evidence: { check: f.check, ...f.evidence },
    repair: {
      action: f.fix ? (f.fix.video || f.fix.audio ? 're_encode' : 'remux') : f.reachable ? 're_encode' : 're_render_from_source',
      reachable: f.reachable,
      instruction,
      verify: `Re-run the check with checks=format_spec; expect no format_spec flag with check ${f.check}.`,
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// format_spec

function videoFindings(scope: Scope, video: VideoStreamInfo, ctx: GateContext): Finding[] {
  return [
    ...checkContainer(scope, 'containers'),
    ...checkVideoCodec(scope, video),
    ...checkHdr(scope, video),
    ...checkPixelFormat(scope, video),
    ...checkResolution(scope, video),
    ...checkFrameRate(scope, video),
    ...checkInterlace(scope, video),
    ...checkRotation(scope, video),
    ...checkAudio(scope),
    ...checkLegalLevels(scope, ctx),
  ];
}

function findingsFor(scope: Scope, ctx: GateContext): Finding[] {
  const { media } = scope;
  if (media.kind === 'image') return media.video ? checkImage(scope, media.video) : [];
  if (media.kind === 'audio') return [...checkContainer(scope, 'audioContainers'), ...checkAudio(scope)];
  return media.video ? videoFindings(scope, media.video, ctx) : [];
}

function runFormatSpec(ctx: GateContext): ReturnType<GateDefinition['run']> {
  const delivery = ctx.deliveryProfile.id as DeliveryProfileId;
  const scope: Scope = { media: ctx.media, th: ctx.thresholds, severity: thresholdSeverity(ctx.thresholds, 'deviationSeverity') };
  const findings = findingsFor(scope, ctx);
  const reEncodable = findings.filter((f) => f.fix);
  const command = reEncodable.length ? conformCommand(ctx.media, ctx.thresholds, delivery, reEncodable) : null;
  const measurements = { ...describe(ctx.media, legalLevelsMeasurement(ctx)), deliveryProfile: delivery, ...(command ? { conformCommand: command } : {}) };
  return gateResult('format_spec', measurements, findings.map((f) => toFlag(f, ctx.media, command, CONFORM_FAMILY[delivery])));
}

// ---------------------------------------------------------------------------------------------------------------
// shorts_format


/** "9:16" → 0.5625; anything else is a mistake in the threshold table. */
function parseAspect(value: string): number {
  const m = /^(\d+):(\d+)$/.exec(value);
  if (!m) throw new Error(`threshold recommendedAspect is not an aspect such as 9:16: ${value}`);
  return Number(m[1]) / Number(m[2]);
}

function orientationOf(video: VideoStreamInfo): 'vertical' | 'square' | 'landscape' {
  if (video.displayWidth === video.displayHeight) return 'square';
  return video.displayWidth < video.displayHeight ? 'vertical' : 'landscape';
}

function padCommand(media: MediaInfo): string {
  const pad = 'scale=1080:1920:force_original_aspect_ratio=decrease,pad=1080:1920:(ow-iw)/2:(oh-ih)/2';
  return `ffmpeg -i ${shellQuote(basename(media.path))} -vf "${pad}" ${VIDEO_ENCODER.web.join(' ')} -c:a copy -movflags +faststart ${shellQuote(outputName(media, 'mp4'))}`;
}

function shortsShape(media: MediaInfo, video: VideoStreamInfo, th: Thresholds): FlagDraft[] {
  const maxRatio = threshold(th, 'maxWidthToHeight');
  const ratio = video.displayWidth / video.displayHeight;
  const display = sizeLabel(video.displayWidth, video.displayHeight);
  if (ratio > maxRatio) {
    return [
      {
        severity: 'BLOCK',
        start: 0,
        end: media.durationSeconds,
        summary: `Landscape picture ${display}: a Short must be square or taller`,
        evidence: evidence(th, 'maxWidthToHeight', round(ratio, 4), { displaySize: display, rotation: video.rotation }),
        repair: {
          action: 're_render_from_source',
          reachable: false,
          instruction:
            `Reframe the edit for 9:16 (1080×1920) and render it again from the source. Last resort only, it adds bars that canvas_fill will flag: \`${padCommand(media)}\``,
          verify: 'Re-run the check with checks=shorts_format; expect no shorts_format flag about the aspect.',
        },
      },
    ];
  }
  const target = parseAspect(thresholdText(th, 'recommendedAspect'));
  const tolerance = threshold(th, 'aspectTolerancePct') / 100;
  if (Math.abs(ratio - target) <= target * tolerance) return [];
  return [
    {
      severity: 'WATCH',
      start: 0,
      end: media.durationSeconds,
      summary: `Picture ${display} qualifies (square or taller) but is not ${thresholdText(th, 'recommendedAspect')}: it will not fill the phone screen`,
      evidence: evidence(th, 'recommendedAspect', round(ratio, 4), { displaySize: display, aspectTolerancePct: threshold(th, 'aspectTolerancePct') }),
      repair: {
        action: 're_render_from_source',
        reachable: false,
        instruction: 'Reframe for 9:16 (1080×1920) in the edit and render again if the picture should fill the screen; otherwise accept this WATCH.',
        verify: 'Re-run the check with checks=shorts_format; expect no shorts_format flag about the aspect.',
      },
    },
  ];
}

function shortsDuration(media: MediaInfo, th: Thresholds): FlagDraft[] {
  const max = threshold(th, 'maxDurationSeconds');
  if (media.durationSeconds <= max) return [];
  const trim = `ffmpeg -i ${shellQuote(basename(media.path))} -t ${max} ${VIDEO_ENCODER.web.join(' ')} -c:a aac -b:a 192k -movflags +faststart ${shellQuote(outputName(media, 'mp4'))}`;
  return [
    {
      severity: 'BLOCK',
      start: max,
      end: media.durationSeconds,
      summary: `${round(media.durationSeconds, 2)} s long: a Short is at most ${max} s`,
      evidence: evidence(th, 'maxDurationSeconds', round(media.durationSeconds, 3), { overBySeconds: round(media.durationSeconds - max, 3) }),
      repair: {
        action: 'trim',
        reachable: true,
        instruction: `Cut ${round(media.durationSeconds - max, 2)} s in the edit so it ends by ${max} s, or trim the tail mechanically (loses the ending): \`${trim}\``,
        verify: `Re-run the check with checks=shorts_format; expect a duration of at most ${max} s and no shorts_format flag about length.`,
      },
    },
  ];
}

function shortsResolution(media: MediaInfo, video: VideoStreamInfo, th: Thresholds): FlagDraft[] {
  const recommended = threshold(th, 'recommendedWidthPx');
  const minimum = threshold(th, 'minWidthPx');
  const width = video.displayWidth;
  if (width >= recommended || video.displayWidth > video.displayHeight) return [];
  const belowMinimum = width < minimum;
  const display = sizeLabel(video.displayWidth, video.displayHeight);
  return [
    {
      severity: belowMinimum ? 'BLOCK' : 'WATCH',
      start: 0,
      end: media.durationSeconds,
      summary: belowMinimum ? `Picture ${display} is below the ${minimum} px minimum width` : `Picture ${display} is below the recommended ${recommended} px width`,
      evidence: evidence(th, belowMinimum ? 'minWidthPx' : 'recommendedWidthPx', width, { displaySize: display, recommendedWidthPx: recommended, minWidthPx: minimum }),
      repair: {
        action: 're_render_from_source',
        reachable: false,
        instruction: `Render again from the source at ${recommended}×${Math.round((recommended * video.displayHeight) / video.displayWidth)} (1080×1920 for 9:16); upscaling this file adds no detail.`,
        verify: 'Re-run the check with checks=shorts_format; expect no shorts_format flag about resolution.',
      },
    },
  ];
}

function runShortsFormat(ctx: GateContext): ReturnType<GateDefinition['run']> {
  const { media, thresholds: th } = ctx;
  const video = media.video;
  if (!video) return skippedGate('shorts_format', 'needs a video stream');
  const measurements = {
    displaySize: sizeLabel(video.displayWidth, video.displayHeight),
    codedSize: sizeLabel(video.width, video.height),
    rotation: video.rotation,
    widthToHeight: round(video.displayWidth / video.displayHeight, 4),
    orientation: orientationOf(video),
    durationSeconds: round(media.durationSeconds, 3),
    deliveryProfile: ctx.deliveryProfile.id,
    deliveryIsVertical: isVerticalDelivery(ctx.deliveryProfile.id as DeliveryProfileId),
  };
  const flags = [...shortsShape(media, video, th), ...shortsDuration(media, th), ...shortsResolution(media, video, th)];
  return gateResult('shorts_format', measurements, flags);
}

// ---------------------------------------------------------------------------------------------------------------

export const formatGates: GateDefinition[] = [
  defineGate({
    id: 'format_spec',
    area: 'visual',
    title: 'Container, codecs, picture and sound format match the delivery profile',
    algorithm:
      'Reads the probe (no decode) and compares the file with the delivery profile’s targets: container (mp4 and mov told apart by extension, ' +
      'since ffprobe reports one demuxer for both), video codec, pixel format and bit depth, HDR transfer (PQ/HLG), display size after ' +
      'rotation and pixel aspect (minimum short side; broadcast frame sizes), frame rate (range or list) and variable frame rate, ' +
      'interlacing, rotation metadata, audio codec, sample rate, channel count (several mono streams count as discrete tracks), ' +
      'audio stream count and, for broadcast, missing audio. Each deviation is one flag at the profile’s deviationSeverity ' +
      '(WATCH for web, podcast and AI-render profiles, whose platforms re-encode uploads; BLOCK for broadcast). Under broadcast_r128 it also ' +
      'checks EBU R 103 legal levels on sparse full-resolution samples: Y′CbCr code values, the R 103 measurement low-pass ' +
      '([1,2,3,4,3,2,1]/16 horizontally, [1,2,1]/4 vertically, intra-field when interlaced), conversion to R′G′B′ with the source ' +
      'matrix, and a count of pixels with any component outside −5 %..105 % (8-bit 5..246); samples over the 1 % area allowance become ' +
      'flags, with samples up to 10 s apart merged into one span. Other profiles report legal levels as not measured. Audio files are ' +
      'checked for container, codec, sample rate and channels; images are judged as video-site thumbnails (format, width ≥ 640 px, ' +
      'file ≤ 2 MB). Every re-encodable flag carries the same ffmpeg conform command that fixes all of them at once.',
    requires: { kinds: ['video', 'audio', 'image'], signals: ['legal_levels'] },
    thresholds: (delivery) => formatThresholds(delivery).format_spec,
    run: runFormatSpec,
  }),
  defineGate({
    id: 'shorts_format',
    area: 'visual',
    title: 'Square or taller, at most 180 s, 1080×1920 recommended',
    algorithm:
      'Judges the display size (after rotation metadata and pixel aspect, so a 1920×1080 phone clip rotated 90° is 1080×1920). ' +
      'BLOCK when wider than tall (not a Short) or longer than maxDurationSeconds (the flag spans the part past the limit); ' +
      'WATCH when narrower than 1080 px but at least 720 px, BLOCK below 720 px; WATCH when square or taller but not 9:16 within 2 %. ' +
      'The gate applies these rules under every delivery profile: it runs by default only in the shorts pipeline profile, and anywhere ' +
      'else only when asked for in checks, so the question "is this a Short?" was asked explicitly.',
    requires: { kinds: ['video'] },
    thresholds: (delivery) => formatThresholds(delivery).shorts_format,
    run: runShortsFormat,
  }),
];
