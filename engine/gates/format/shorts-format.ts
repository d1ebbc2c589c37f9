// shorts_format: the shape of a Short (square or taller, at most 180 s, 1080×1920 recommended), on the display size.
import { basename } from 'node:path';
import type { DeliveryProfileId } from '../../profiles/index.js';
import type { FlagDraft, GateContext, GateResult, GateThresholds, MediaInfo, ThresholdValue, VideoStreamInfo } from '../../types.js';
import { isVerticalDelivery, t } from '../../profiles/threshold-values.js';
import { defineGate } from '../define.js';
import { gateResult, skippedGate } from '../kit/result.js';
import { round } from '../kit/stats.js';
import { threshold, thresholdText } from '../kit/thresholds.js';
import { outputName, shellQuote, VIDEO_ENCODER } from './conform.js';
import { sizeLabel, targetEvidence } from './media-format.js';

type ShortsPlatform = 'youtube' | 'meta' | 'tiktok';

function shortsFormatThresholds(platform: ShortsPlatform): GateThresholds {
  const durationSource: Record<ShortsPlatform, [string, ThresholdValue['confidence']]> = {
    youtube: ['YouTube Shorts: 3 min for uploads from 15 Oct 2024 (YouTube announcement quoted by kapwing and hindustantimes)', 'secondary'],
    meta: ['Instagram Reels: 3 min since Jan 2025 (Mosseri announcement via gadinsider and socialsamosa)', 'secondary'],
    tiktok: ['Preflight house rule: the cross-platform short-form limit (Shorts, Reels); TikTok itself accepts uploads up to 60 min', 'house'],
  };
  const [durationText, durationConfidence] = durationSource[platform];
  return {
    maxDurationSeconds: t(180, 's', durationText, durationConfidence),
    maxWidthToHeight: t(1, 'ratio', 'YouTube Shorts: square or taller qualifies; wider than 1:1 is not a Short (YouTube announcement quoted by kapwing and hindustantimes)', 'secondary'),
    recommendedAspect: t('9:16', 'aspect', 'Shorts, Reels and TikTok recommend 9:16 (YouTube via kapwing, Instagram via gadinsider, TikTok via unanswered.io)', 'secondary'),
    aspectTolerancePct: t(2, '%', 'Preflight house rule: within 2 % of 9:16 counts as 9:16', 'house'),
    recommendedWidthPx: t(1080, 'px', '1080×1920 recommended by Shorts, Reels and TikTok (YouTube via kapwing, Instagram via gadinsider, TikTok via unanswered.io)', 'secondary'),
    minWidthPx: t(720, 'px', 'Instagram Reels minimum 720×1280 (via gadinsider and socialsamosa); TikTok likewise (changethisfile.com)', 'secondary'),
  };
}

const SHORTS_PLATFORM: Record<DeliveryProfileId, ShortsPlatform> = {
  video_site_shorts: 'youtube',
  video_site_longform: 'youtube',
  social_reels_ad: 'meta',
  short_video_app_post: 'tiktok',
  broadcast_r128: 'youtube',
  podcast_delivery: 'youtube',
  ai_render_gate: 'youtube',
};

function shortsFormatTargets(delivery: DeliveryProfileId): GateThresholds {
  return shortsFormatThresholds(SHORTS_PLATFORM[delivery]);
}

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

function shortsShape(media: MediaInfo, video: VideoStreamInfo, th: GateThresholds): FlagDraft[] {
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
        evidence: targetEvidence(th, 'maxWidthToHeight', round(ratio, 4), { displaySize: display, rotation: video.rotation }),
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
      evidence: targetEvidence(th, 'recommendedAspect', round(ratio, 4), { displaySize: display, aspectTolerancePct: threshold(th, 'aspectTolerancePct') }),
      repair: {
        action: 're_render_from_source',
        reachable: false,
        instruction: 'Reframe for 9:16 (1080×1920) in the edit and render again if the picture should fill the screen; otherwise accept this WATCH.',
        verify: 'Re-run the check with checks=shorts_format; expect no shorts_format flag about the aspect.',
      },
    },
  ];
}

function shortsDuration(media: MediaInfo, th: GateThresholds): FlagDraft[] {
  const max = threshold(th, 'maxDurationSeconds');
  if (media.durationSeconds <= max) return [];
  const trim = `ffmpeg -i ${shellQuote(basename(media.path))} -t ${max} ${VIDEO_ENCODER.web.join(' ')} -c:a aac -b:a 192k -movflags +faststart ${shellQuote(outputName(media, 'mp4'))}`;
  return [
    {
      severity: 'BLOCK',
      start: max,
      end: media.durationSeconds,
      summary: `${round(media.durationSeconds, 2)} s long: a Short is at most ${max} s`,
      evidence: targetEvidence(th, 'maxDurationSeconds', round(media.durationSeconds, 3), { overBySeconds: round(media.durationSeconds - max, 3) }),
      repair: {
        action: 'trim',
        reachable: true,
        instruction: `Cut ${round(media.durationSeconds - max, 2)} s in the edit so it ends by ${max} s, or trim the tail mechanically (loses the ending): \`${trim}\``,
        verify: `Re-run the check with checks=shorts_format; expect a duration of at most ${max} s and no shorts_format flag about length.`,
      },
    },
  ];
}

function shortsResolution(media: MediaInfo, video: VideoStreamInfo, th: GateThresholds): FlagDraft[] {
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
      evidence: targetEvidence(th, belowMinimum ? 'minWidthPx' : 'recommendedWidthPx', width, { displaySize: display, recommendedWidthPx: recommended, minWidthPx: minimum }),
      repair: {
        action: 're_render_from_source',
        reachable: false,
        instruction: `Render again from the source at ${recommended}×${Math.round((recommended * video.displayHeight) / video.displayWidth)} (1080×1920 for 9:16); upscaling this file adds no detail.`,
        verify: 'Re-run the check with checks=shorts_format; expect no shorts_format flag about resolution.',
      },
    },
  ];
}

function runShortsFormat(ctx: GateContext): GateResult {
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

export const shortsFormatGate = defineGate({
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
  thresholds: shortsFormatTargets,
  run: runShortsFormat,
});
