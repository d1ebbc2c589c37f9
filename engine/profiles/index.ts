// Profiles are data: request profiles and aliases resolve to pipeline profiles, and each pipeline profile checks
// against a delivery profile whose technical targets (thresholds with sources) the gates read.
import { EngineError } from '../errors.js';
import type { DeliveryProfile, MediaInfo } from '../types.js';

export const PROFILES_VERSION = '2026-11-22';

export const REQUEST_PROFILES = ['auto', 'nto_long_form', 'generic_creator_video', 'shorts', 'audio', 'npo_podcast_or_audio', 'thumbnail'] as const;
export type RequestProfile = (typeof REQUEST_PROFILES)[number];

export const PIPELINE_PROFILE_IDS = ['nto_long_form', 'nto_shorts', 'npo_podcast_or_audio', 'generic_creator_video', 'creator_thumbnail'] as const;
export type PipelineProfileId = (typeof PIPELINE_PROFILE_IDS)[number];

export const DELIVERY_PROFILE_IDS = [
  'video_site_shorts',
  'video_site_longform',
  'social_reels_ad',
  'short_video_app_post',
  'broadcast_r128',
  'podcast_delivery',
  'ai_render_gate',
] as const;
export type DeliveryProfileId = (typeof DELIVERY_PROFILE_IDS)[number];

export const PROFILE_ALIASES: Record<string, PipelineProfileId> = {
  shorts: 'nto_shorts',
  audio: 'npo_podcast_or_audio',
  thumbnail: 'creator_thumbnail',
};

export const DELIVERY_PROFILES: Record<DeliveryProfileId, DeliveryProfile> = {
  video_site_shorts: { id: 'video_site_shorts', label: 'Video-site shorts', description: '9:16, hook, caption-safe, loudness (about −14 LUFS, TP ≤ −1 dBTP).' },
  video_site_longform: { id: 'video_site_longform', label: 'Video-site long form', description: 'Pacing, levels, end screen (about −14 LUFS, TP ≤ −1 dBTP).' },
  social_reels_ad: { id: 'social_reels_ad', label: 'Social reels ad', description: '9:16, safe area, ad-review basics.' },
  short_video_app_post: { id: 'short_video_app_post', label: 'Short-video app post', description: '9:16, hook, caption-safe.' },
  broadcast_r128: { id: 'broadcast_r128', label: 'Broadcast EBU R128', description: 'EBU R128 loudness (−23 LUFS ±0.2, TP ≤ −1 dBTP), R103 legal levels, broadcast formats.' },
  podcast_delivery: { id: 'podcast_delivery', label: 'Podcast delivery', description: 'Loudness −16 LUFS ±1, TP ≤ −1 dBTP, LRA, dropouts, balance.' },
  ai_render_gate: { id: 'ai_render_gate', label: 'AI render gate', description: 'Temporal artefacts (freezes, loops), technical readiness of generated renders.' },
};

/** The technical gates every profile runs where the media allows them. */
export const TECHNICAL_GATES = [
  'black_frames',
  'loop_freeze',
  'canvas_fill',
  'format_spec',
  'loudness',
  'clipping',
  'dead_air',
  'channel_balance',
  'av_sync',
] as const;

/** Deliveries whose format_spec measures R 103 legal levels (the decode pass samples full-resolution pictures). */
const LEGAL_LEVEL_DELIVERIES: readonly DeliveryProfileId[] = ['broadcast_r128'];

export function needsLegalLevels(delivery: DeliveryProfileId): boolean {
  return LEGAL_LEVEL_DELIVERIES.includes(delivery);
}

export interface PipelineProfile {
  id: PipelineProfileId;
  label: string;
  description: string;
  deliveryProfile: DeliveryProfileId;
  /** Gates run by default, technical gates first. */
  gates: string[];
}

const TRANSCRIPT_GATES = ['spoken_leaks', 'sentence_boundary'];
const TEXT_GATES = ['text_contrast', 'text_safe_area', 'text_overlap'];

export const PIPELINE_PROFILES: Record<PipelineProfileId, PipelineProfile> = {
  nto_long_form: {
    id: 'nto_long_form',
    label: 'Narrated long-form video',
    description: 'Long-form narrated video for a video site: technical gates plus pacing, structure and transcript gates.',
    deliveryProfile: 'video_site_longform',
    gates: [...TECHNICAL_GATES, ...TEXT_GATES, ...TRANSCRIPT_GATES, 'repeat_fatigue', 'first_three_seconds', 'end_screen_tease', 'rehook_cadence'],
  },
  nto_shorts: {
    id: 'nto_shorts',
    label: 'Shorts',
    description: 'Vertical short video (square or taller, at most 180 s): technical gates plus shorts format, caption safety and the hook.',
    deliveryProfile: 'video_site_shorts',
    gates: [...TECHNICAL_GATES, 'shorts_format', ...TEXT_GATES, ...TRANSCRIPT_GATES, 'first_three_seconds', 'dialogue_in_music_short'],
  },
  npo_podcast_or_audio: {
    id: 'npo_podcast_or_audio',
    label: 'Podcast or audio',
    description: 'Audio programme: loudness, clipping, dead air, channel balance; transcript gates when a transcript is given.',
    deliveryProfile: 'podcast_delivery',
    gates: ['format_spec', 'loudness', 'clipping', 'dead_air', 'channel_balance', ...TRANSCRIPT_GATES],
  },
  generic_creator_video: {
    id: 'generic_creator_video',
    label: 'Creator video',
    description: 'Any creator video: every technical gate the media allows.',
    deliveryProfile: 'video_site_longform',
    gates: [...TECHNICAL_GATES, ...TEXT_GATES],
  },
  creator_thumbnail: {
    id: 'creator_thumbnail',
    label: 'Thumbnail',
    description: 'Still image: canvas fill, format and thumbnail text readability.',
    deliveryProfile: 'video_site_longform',
    gates: ['canvas_fill', 'format_spec', 'thumbnail_text_readability', 'text_contrast', 'text_safe_area'],
  },
};

export interface ResolvedProfile {
  requestedProfile: string;
  profile: PipelineProfile;
  deliveryProfile: DeliveryProfile;
  /** How the profile was chosen, for the report. */
  resolution: 'explicit' | 'alias' | 'auto' | 'delivery';
}

const SHORTS_MAX_SECONDS = 180;

/** What `auto` picks, in words, for the doors' descriptions. */
export const AUTO_PROFILE_RULE = `image → creator_thumbnail, audio → npo_podcast_or_audio (music without speech pauses judged against video_site_longform streaming loudness), square-or-taller video up to ${SHORTS_MAX_SECONDS} s → nto_shorts, other video → generic_creator_video`;

/** `auto`: image → thumbnail; audio → podcast/audio; square-or-taller video up to 180 s → shorts; other video → creator video. */
export function inferPipelineProfile(media: MediaInfo): PipelineProfileId {
  if (media.kind === 'image') return 'creator_thumbnail';
  if (media.kind === 'audio') return 'npo_podcast_or_audio';
  const v = media.video;
  const tallOrSquare = v ? v.displayHeight >= v.displayWidth : false;
  return tallOrSquare && media.durationSeconds <= SHORTS_MAX_SECONDS ? 'nto_shorts' : 'generic_creator_video';
}

/** The delivery `auto` judges an audio file of music against: streaming services normalise music to about −14 LUFS. */
export const AUTO_MUSIC_DELIVERY: DeliveryProfileId = 'video_site_longform';

/**
 * `auto` on an audio file that turns out to be music (no speech pauses, varying level): keeps the audio gates but
 * judges them against streaming loudness instead of podcast delivery. Anything else is returned unchanged.
 */
export function refineAutoForMusic(resolved: ResolvedProfile, media: MediaInfo, isMusic: boolean): ResolvedProfile {
  if (resolved.resolution !== 'auto' || media.kind !== 'audio' || !isMusic) return resolved;
  return { ...resolved, deliveryProfile: DELIVERY_PROFILES[AUTO_MUSIC_DELIVERY] };
}

export const ACCEPTED_PROFILE_NAMES: readonly string[] = [...new Set([...REQUEST_PROFILES, ...PIPELINE_PROFILE_IDS, ...DELIVERY_PROFILE_IDS])];

/**
 * Resolves a requested name: a request profile, an alias, a pipeline id, or a delivery profile id
 * (which keeps the inferred pipeline for the media but checks against that delivery profile's targets).
 */
export function resolveProfile(requested: string | undefined, media: MediaInfo): ResolvedProfile {
  const name = (requested ?? 'auto').trim() || 'auto';
  let pipelineId: PipelineProfileId;
  let delivery: DeliveryProfileId | null = null;
  let resolution: ResolvedProfile['resolution'];
  if (name === 'auto') {
    pipelineId = inferPipelineProfile(media);
    resolution = 'auto';
  } else if (name in PROFILE_ALIASES) {
    pipelineId = PROFILE_ALIASES[name];
    resolution = 'alias';
  } else if ((PIPELINE_PROFILE_IDS as readonly string[]).includes(name)) {
    pipelineId = name as PipelineProfileId;
    resolution = 'explicit';
  } else if ((DELIVERY_PROFILE_IDS as readonly string[]).includes(name)) {
    pipelineId = inferPipelineProfile(media);
    delivery = name as DeliveryProfileId;
    resolution = 'delivery';
  } else {
    throw new EngineError('invalid_profile', `Unknown profile "${name}". Valid profiles: ${ACCEPTED_PROFILE_NAMES.join(', ')}.`, {
      valid: ACCEPTED_PROFILE_NAMES,
    });
  }
  const profile = PIPELINE_PROFILES[pipelineId];
  return { requestedProfile: name, profile, deliveryProfile: DELIVERY_PROFILES[delivery ?? profile.deliveryProfile], resolution };
}
