// format_spec: container, codecs, picture and sound format against the delivery profile's targets, and R 103 legal
// levels for broadcast. A pure function of MediaInfo (plus legal-level samples); one conform command fixes every
// re-encodable finding at once.
import { basename } from 'node:path';
import type { FlagDraft, GateContext, GateResult, GateThresholds, MediaInfo, Severity, VideoStreamInfo } from '../../types.js';
import { legalLevelsMatrix } from '../../video/legal-levels.js';
import { defineGate } from '../define.js';
import { shotAround } from '../visual/video-timeline.js';
import { gateResult } from '../kit/result.js';
import { round } from '../kit/stats.js';
import { optionalFlag, optionalNumber, optionalNumbers, optionalStrings, thresholdNumbers, thresholdSeverity, thresholdText } from '../kit/thresholds.js';
import { COMMAND_NOTE, conformCommand, conformFamily, outputName, shellQuote, TONEMAP_TO_SDR, type ConformFamily, type Finding } from './conform.js';
import { formatSpecTargets } from './format-spec-targets.js';
import { containerOf, describe, effectiveChannels, imageFormatOf, scanOf, sizeLabel, targetEvidence } from './media-format.js';

interface Scope {
  media: MediaInfo;
  th: GateThresholds;
  severity: Severity;
}

const COMMON_RATES = [23.976, 24, 25, 29.97, 30, 48, 50, 59.94, 60];
const NTSC_RATE_EXPRESSIONS: Record<string, string> = { '23.976': '24000/1001', '29.97': '30000/1001', '47.952': '48000/1001', '59.94': '60000/1001' };
const RATE_TOLERANCE = 0.01;
const rateExpression = (rate: number): string => NTSC_RATE_EXPRESSIONS[String(rate)] ?? String(rate);

function allowedRates(th: GateThresholds): number[] {
  const listed = optionalNumbers(th, 'frameRates');
  if (listed) return listed;
  const min = optionalNumber(th, 'minFps') ?? 0;
  const max = optionalNumber(th, 'maxFps') ?? Infinity;
  return COMMON_RATES.filter((r) => r >= min - RATE_TOLERANCE && r <= max + RATE_TOLERANCE);
}

function nearestRate(fps: number, candidates: number[]): number {
  return candidates.reduce((best, r) => (Math.abs(r - fps) < Math.abs(best - fps) ? r : best), candidates[0]);
}

function rateAllowed(fps: number, th: GateThresholds): boolean {
  const listed = optionalNumbers(th, 'frameRates');
  if (listed) return listed.some((r) => Math.abs(r - fps) <= RATE_TOLERANCE);
  const min = optionalNumber(th, 'minFps') ?? 0;
  const max = optionalNumber(th, 'maxFps') ?? Infinity;
  return fps >= min - RATE_TOLERANCE && fps <= max + RATE_TOLERANCE;
}

function checkContainer({ media, th, severity }: Scope, key: 'containers' | 'audioContainers'): Finding[] {
  const allowed = optionalStrings(th, key);
  const container = containerOf(media);
  if (!allowed || allowed.includes(container)) return [];
  return [
    {
      check: 'container',
      severity,
      summary: `Container ${container} is not one of ${allowed.join('/')}`,
      evidence: targetEvidence(th, key, container, { formatName: media.container }),
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
      evidence: targetEvidence(th, 'videoCodecs', video.codec, { profile: video.profile }),
      advice: `Re-encode the picture with an allowed codec (${allowed.join('/')}).`,
      reachable: true,
      fix: { video: { filters: [] } },
    },
  ];
}

function checkHdr({ th, severity }: Scope, video: VideoStreamInfo): Finding[] {
  if (!video.hdr || optionalFlag(th, 'hdrAllowed') !== false) return [];
  return [
    {
      check: 'hdr',
      severity,
      summary: `HDR picture (${video.colorTransfer}, ${video.bitDepth}-bit ${video.pixelFormat ?? 'unknown pixel format'}) where SDR is expected`,
      evidence: targetEvidence(th, 'hdrAllowed', { hdr: true, colorTransfer: video.colorTransfer, colorPrimaries: video.colorPrimaries, pixelFormat: video.pixelFormat }),
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
      evidence: targetEvidence(th, 'pixelFormats', video.pixelFormat, { bitDepth: video.bitDepth }),
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
        evidence: targetEvidence(th, 'minShortSidePx', display, { shortSidePx: shortSide, recommendedShortSidePx: optionalNumber(th, 'recommendedShortSidePx') }),
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
      evidence: targetEvidence(th, 'frameSizes', display, { codedSize: sizeLabel(video.width, video.height), rotation: video.rotation }),
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
        evidence: targetEvidence(th, 'variableFrameRateAllowed', { variableFrameRate: true, avgFps: round(video.avgFps, 3), nominalFps: round(video.fps, 3) }),
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
      evidence: targetEvidence(th, key, round(video.fps, 3), { avgFps: round(video.avgFps, 3) }),
      advice: `Convert to ${target} fps; a rate conversion changes motion cadence, so exporting at ${target} fps from the edit is better.`,
      reachable: true,
      fix: { video: { filters: [`fps=${rateExpression(target)}`] } },
    },
  ];
}

function describeRates(th: GateThresholds): string {
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
      evidence: targetEvidence(th, 'interlacedAllowed', { fieldOrder: video.fieldOrder }),
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
      evidence: targetEvidence(th, 'rotationMetadataAllowed', video.rotation, { codedSize: sizeLabel(video.width, video.height), displaySize: sizeLabel(video.displayWidth, video.displayHeight) }),
      advice: 'Re-encode so the rotation is baked into the pixels (ffmpeg applies the rotation when it re-encodes).',
      reachable: true,
      fix: { video: { filters: [] } },
    },
  ];
}

function checkAudio(scope: Scope): Finding[] {
  const { media, th, severity } = scope;
  if (!media.audio) {
    if (optionalFlag(th, 'audioRequired') !== true || media.kind !== 'video') return [];
    return [
      {
        check: 'audio_missing',
        severity,
        summary: 'No audio stream',
        evidence: targetEvidence(th, 'audioRequired', { audioStreamCount: 0 }),
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
      evidence: targetEvidence(th, 'audioCodecs', codec),
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
      evidence: targetEvidence(th, 'sampleRatesHz', rate),
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
      evidence: targetEvidence(th, 'audioChannels', channels, { channelLayout: media.audio!.channelLayout, audioStreamCount: media.audioStreamCount }),
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
      evidence: targetEvidence(th, 'maxAudioStreams', media.audioStreamCount),
      advice: 'Keep only the programme mix (the conform command maps the first audio stream); mix other tracks into it first if they belong to the programme.',
      reachable: true,
      fix: { remux: true },
    },
  ];
}

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
  const video = ctx.signals.video;
  const reach = levels.intervalSeconds;
  return groupSamples(levels.samplesOverAllowance).map((group) => {
    const worst = group.reduce((a, b) => (b.outOfRangePct > a.outOfRangePct ? b : a));
    // A sample speaks for its shot: the span runs from the cut before the first sample to the cut after the last one.
    const first = video && reach ? shotAround(video, group[0].atSeconds, reach) : null;
    const last = video && reach ? shotAround(video, group[group.length - 1].atSeconds, reach) : null;
    const start = first ? Math.min(first.start, group[0].atSeconds) : group[0].atSeconds;
    const end = last ? Math.max(last.end, group[group.length - 1].atSeconds + frame) : group[group.length - 1].atSeconds + frame;
    return {
      check: 'legal_levels',
      severity,
      summary: `${round(worst.outOfRangePct, 2)} % of the picture outside R 103 −5 %..105 % (allowance ${allowance} %) in ${group.length} sample${group.length > 1 ? 's' : ''}`,
      evidence: targetEvidence(th, 'legalLevelsAreaAllowancePct', round(worst.outOfRangePct, 3), {
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
      evidence: targetEvidence(th, 'imageFormats', format),
      advice: `Convert to JPEG: \`${smallerJpeg}\`.`,
      reachable: true,
    });
  }
  if (minWidth !== null && video.displayWidth < minWidth) {
    findings.push({
      check: 'image_width',
      severity: 'BLOCK',
      summary: `Image is ${video.displayWidth} px wide, below the ${minWidth} px minimum`,
      evidence: targetEvidence(th, 'imageMinWidthPx', video.displayWidth, { recommended: thresholdText(th, 'imageRecommendedSize') }),
      advice: `Export the image again at ${thresholdText(th, 'imageRecommendedSize')}; upscaling adds no detail.`,
      reachable: false,
    });
  }
  if (maxBytes !== null && media.sizeBytes > maxBytes) {
    findings.push({
      check: 'image_file_size',
      severity: 'BLOCK',
      summary: `Image file is ${round(media.sizeBytes / 1e6, 2)} MB, over the ${maxBytes / 1e6} MB limit`,
      evidence: targetEvidence(th, 'imageMaxBytes', media.sizeBytes),
      advice: `Recompress as JPEG at most 1280 px wide: \`${smallerJpeg}\`.`,
      reachable: true,
    });
  }
  return findings;
}

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

function runFormatSpec(ctx: GateContext): GateResult {
  const delivery = ctx.deliveryProfile.id;
  const scope: Scope = { media: ctx.media, th: ctx.thresholds, severity: thresholdSeverity(ctx.thresholds, 'deviationSeverity') };
  const findings = findingsFor(scope, ctx);
  const reEncodable = findings.filter((f) => f.fix);
  const command = reEncodable.length ? conformCommand(ctx.media, ctx.thresholds, reEncodable) : null;
  const measurements = { ...describe(ctx.media, legalLevelsMeasurement(ctx)), deliveryProfile: delivery, ...(command ? { conformCommand: command } : {}) };
  return gateResult('format_spec', measurements, findings.map((f) => toFlag(f, ctx.media, command, conformFamily(ctx.thresholds))));
}

export const formatSpecGate = defineGate({
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
    'flags, with samples up to 10 s apart merged into one span that runs from the cut before the first sample to the cut after the last ' +
    '(a sample speaks for its shot, at most one sample interval either way). Other profiles report legal levels as not measured. Audio files are ' +
    'checked for container, codec, sample rate and channels; images are judged as video-site thumbnails (format, width ≥ 640 px, ' +
    'file ≤ 2 MB). Every re-encodable flag carries the same ffmpeg conform command that fixes all of them at once, for the profile’s ' +
    'conformEncoder family (web upload, podcast, or a broadcast mezzanine).',
  requires: { kinds: ['video', 'audio', 'image'], signals: ['legal_levels'] },
  thresholds: formatSpecTargets,
  run: runFormatSpec,
});
