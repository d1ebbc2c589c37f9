// What a delivery profile requires of a check before a receipt may speak for it, and whether a check (or a receipt's
// `gates`) meets that. One rule for the engine's gate selection, the report, the receipt builder and every verifier;
// published as a table in docs/receipts.md (engine/docs/receipt-requirements-doc.ts).
import type { z } from 'zod';
import { gateById } from './gates/index.js';
import { MEDIA_SHAPES, SIDECAR_NAMES, type CheckCoverageSchema } from './report-schema.js';
import { DELIVERY_PROFILE_IDS, PIPELINE_PROFILES, type DeliveryProfileId, type PipelineProfileId } from './profiles/index.js';
import type { EngineSidecars } from './sidecars/index.js';
import { sidecarNameOf } from './gates/define.js';
import type { GateDefinition, GateStatus, MediaKind, SidecarName as GateSidecarName } from './types.js';

export { MEDIA_SHAPES, SIDECAR_NAMES };
export type MediaShape = (typeof MEDIA_SHAPES)[number];

export const MEDIA_SHAPE_LABELS: Record<MediaShape, string> = {
  video: 'video with sound',
  silent_video: 'video without sound',
  audio: 'audio',
  image: 'image',
};

const kindOf = (shape: MediaShape): MediaKind => (shape === 'silent_video' ? 'video' : shape);
const hasSound = (shape: MediaShape): boolean => shape === 'video' || shape === 'audio';

export type SidecarName = (typeof SIDECAR_NAMES)[number];

export const SIDECAR_LABELS: Record<SidecarName, string> = {
  manifest: 'manifest',
  transcript: 'transcript',
  watchlist: 'watchlist',
  expectedScript: 'expected script',
  chunkSidecars: 'chunk sidecars',
};

/**
 * The pipeline whose gates a delivery profile requires of a video. Audio is always held to the podcast/audio
 * pipeline and an image to the thumbnail pipeline, whatever the delivery profile: those are the only pipelines
 * written for them.
 */
const VIDEO_REFERENCE: Record<DeliveryProfileId, PipelineProfileId> = {
  video_site_shorts: 'nto_shorts',
  social_reels_ad: 'nto_shorts',
  short_video_app_post: 'nto_shorts',
  video_site_longform: 'nto_long_form',
  broadcast_r128: 'generic_creator_video',
  ai_render_gate: 'generic_creator_video',
  podcast_delivery: 'npo_podcast_or_audio',
};

/** Delivery profiles that only media with sound can meet: a podcast without sound is not a podcast. */
const NEEDS_SOUND: ReadonlySet<DeliveryProfileId> = new Set(['podcast_delivery']);

/** Whether a profile can be met by this media at all; a check of other media never gets a receipt for it. */
export function acceptsMedia(profile: DeliveryProfileId, media: MediaShape): boolean {
  return !NEEDS_SOUND.has(profile) || hasSound(media);
}

export function referencePipeline(profile: DeliveryProfileId, kind: MediaKind): PipelineProfileId {
  if (kind === 'image') return 'creator_thumbnail';
  if (kind === 'audio') return 'npo_podcast_or_audio';
  return VIDEO_REFERENCE[profile];
}

/** Gates name their sidecars as readers do ("expected script"); a check records them by their sidecar field. */
const SIDECAR_FIELD: Record<GateSidecarName, SidecarName> = {
  manifest: 'manifest',
  transcript: 'transcript',
  watchlist: 'watchlist',
  'expected script': 'expectedScript',
  'sidecar directory': 'chunkSidecars',
};

/** The sidecars a gate cannot run without (none for a gate that reads the media, even one that may also read a manifest). */
export function sidecarsNeeded(gate: GateDefinition): readonly SidecarName[] {
  return [...new Set(gate.requires.sidecars.map((need) => SIDECAR_FIELD[sidecarNameOf(need)]))];
}

function appliesTo(gate: GateDefinition, shape: MediaShape): boolean {
  return gate.requires.kinds.includes(kindOf(shape)) && (hasSound(shape) || !gate.requires.signals.includes('audio'));
}

export function mediaShapeOf(media: { kind: MediaKind; audio: unknown }): MediaShape {
  if (media.kind === 'video') return media.audio ? 'video' : 'silent_video';
  return media.kind;
}

export function sidecarsGiven(sidecars: EngineSidecars | undefined): SidecarName[] {
  if (!sidecars) return [];
  return SIDECAR_NAMES.filter((name) => (name === 'chunkSidecars' ? (sidecars.chunkSidecars?.length ?? 0) > 0 : Boolean(sidecars[name])));
}

export function isDeliveryProfile(id: string): id is DeliveryProfileId {
  return (DELIVERY_PROFILE_IDS as readonly string[]).includes(id);
}

export interface ProfileRequirement {
  profile: DeliveryProfileId;
  media: MediaShape;
  /** The pipeline whose gates are required. */
  pipeline: PipelineProfileId;
  /** Gates that read the media: always required. */
  mediaGates: string[];
  /** Gates that read sidecars: required when every sidecar they need was given. */
  sidecarGates: { gate: string; needs: readonly SidecarName[] }[];
}

/** Every gate of the reference pipeline that applies to this media, split into media gates and sidecar gates. */
export function profileRequirement(profile: DeliveryProfileId, media: MediaShape): ProfileRequirement {
  const pipeline = referencePipeline(profile, kindOf(media));
  const gates = PIPELINE_PROFILES[pipeline].gates.map((id) => gateById(id)).filter((g): g is GateDefinition => Boolean(g && appliesTo(g, media)));
  const mediaGates: string[] = [];
  const sidecarGates: ProfileRequirement['sidecarGates'] = [];
  for (const gate of gates) {
    const needs = sidecarsNeeded(gate);
    if (needs.length === 0) mediaGates.push(gate.id);
    else sidecarGates.push({ gate: gate.id, needs });
  }
  return { profile, media, pipeline, mediaGates, sidecarGates };
}

/** The gates a check of this media against this profile must run, with the sidecars it was given. */
export function requiredGates(profile: DeliveryProfileId, media: MediaShape, sidecars: readonly SidecarName[]): string[] {
  const requirement = profileRequirement(profile, media);
  const given = new Set(sidecars);
  return [...requirement.mediaGates, ...requirement.sidecarGates.filter((s) => s.needs.every((n) => given.has(n))).map((s) => s.gate)];
}

// ---------------------------------------------------------------------------------------------------------------
// Coverage of a check

export type CheckCoverage = z.infer<typeof CheckCoverageSchema>;

export interface CoverageInput {
  deliveryProfile: string;
  media: MediaShape | null;
  sidecars: readonly SidecarName[];
  narrowed: boolean;
  results: readonly { gate: string; status: GateStatus }[];
}

/**
 * A media gate counts only when it ran (pass, watch, block, or unmeasured: it ran and says what it could not measure). A sidecar gate counts when it was selected and did
 * not error: with its sidecar given it may still skip for what the sidecar says (a manifest that declares no end
 * screen), and that is its answer, not a gap.
 */
export function checkCoverage(input: CoverageInput): CheckCoverage {
  const status = new Map(input.results.map((r) => [r.gate, r.status]));
  const errored = input.results.filter((r) => r.status === 'error').map((r) => r.gate);
  const base = { deliveryProfile: input.deliveryProfile, media: input.media, sidecars: [...input.sidecars], narrowed: input.narrowed, errored };
  if (input.media === null || !isDeliveryProfile(input.deliveryProfile)) {
    return { ...base, required: [], missing: [], complete: false };
  }
  if (!acceptsMedia(input.deliveryProfile, input.media)) return { ...base, required: [], missing: [], complete: false };
  const requirement = profileRequirement(input.deliveryProfile, input.media);
  const required = requiredGates(input.deliveryProfile, input.media, input.sidecars);
  const ran = (gate: string) => {
    const s = status.get(gate);
    return s === 'pass' || s === 'watch' || s === 'block' || s === 'unmeasured';
  };
  const missing = required.filter((gate) => (requirement.mediaGates.includes(gate) ? !ran(gate) : !status.has(gate)));
  return { ...base, required, missing, complete: missing.length === 0 && errored.length === 0 };
}

/** Why a check gets no receipt, as a clause ending in what to do; null when it is complete. */
export function incompleteCheckReason(coverage: CheckCoverage): string | null {
  if (coverage.complete) return null;
  if (coverage.media === null) return 'a sidecar-only check has no media to vouch for: check the media file to get a receipt';
  if (isDeliveryProfile(coverage.deliveryProfile) && !acceptsMedia(coverage.deliveryProfile, coverage.media)) {
    return `${coverage.deliveryProfile} is for media with sound, and this is ${MEDIA_SHAPE_LABELS[coverage.media]}: check it against another profile to get a receipt`;
  }
  const parts: string[] = [];
  if (coverage.missing.length) {
    const ran = coverage.required.length - coverage.missing.length;
    parts.push(
      `this check ran ${ran} of the ${coverage.required.length} gates ${coverage.deliveryProfile} requires of ${MEDIA_SHAPE_LABELS[coverage.media]} ` +
        `(missing: ${coverage.missing.join(', ')})`,
    );
  }
  if (coverage.errored.length) parts.push(`gate${coverage.errored.length === 1 ? '' : 's'} ${coverage.errored.join(', ')} failed with an error`);
  const repair = coverage.narrowed ? 'a narrowed check (checks) is a repair step: ' : '';
  return `${parts.join('; ')}; ${repair}run the full profile to get a receipt`;
}

// ---------------------------------------------------------------------------------------------------------------
// Coverage of a receipt (what a verifier can judge from the receipt alone, or with the file's media shape)

export interface ReceiptCoverage {
  profile: string;
  /** The media the requirement was taken for; null when the profile is unknown. */
  media: MediaShape | null;
  /** `file`: the verifier read the media; `gates`: judged from the receipt's gates alone. */
  judgedFrom: 'file' | 'gates';
  /** Media gates the profile requires (sidecar gates cannot be judged without the sidecars). */
  required: string[];
  missing: string[];
  complete: boolean;
  /** Why the receipt does not cover its profile; null when it does. */
  reason: string | null;
}

/** Coverage against the requirement for `shape`, reported as `media` (null: the shape stands for several kinds). */
function coverageFor(profile: DeliveryProfileId, media: MediaShape | null, shape: MediaShape, gates: ReadonlySet<string>, judgedFrom: ReceiptCoverage['judgedFrom']): ReceiptCoverage {
  const required = acceptsMedia(profile, shape) ? profileRequirement(profile, shape).mediaGates : [];
  const missing = required.filter((g) => !gates.has(g));
  const of = media ? `of ${MEDIA_SHAPE_LABELS[media]} ` : '';
  let reason: string | null = null;
  if (!acceptsMedia(profile, shape)) reason = `${profile} is for media with sound, and this receipt's media has none`;
  else if (missing.length) {
    reason =
      `the receipt lists ${required.length - missing.length} of the ${required.length} gates ${profile} requires ${of}` +
      `(missing: ${missing.join(', ')}): it does not speak for the whole profile; run the full profile to get a receipt`;
  }
  return { profile, media, judgedFrom, required, missing, complete: reason === null, reason };
}

/** Media a receipt's gates allow: every gate listed ran, and a gate runs only on media it applies to. */
function possibleMedia(profile: DeliveryProfileId, gates: readonly string[]): MediaShape[] {
  const known = gates.map((id) => gateById(id)).filter((g): g is GateDefinition => Boolean(g));
  return MEDIA_SHAPES.filter((shape) => acceptsMedia(profile, shape) && known.every((g) => appliesTo(g, shape)));
}

const sameGates = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((g) => b.includes(g));

/**
 * Whether a receipt's `gates` cover the media gates its profile requires. With the media shape (a verifier that read
 * the file) the requirement is exact. Without it, the media can only be one its gates apply to, and the receipt is
 * held to the largest requirement among those it meets (or, meeting none, reported against the nearest); `media` is
 * null when several kinds of media share that requirement and cannot be told apart.
 */
export function receiptCoverage(receipt: { profile: string; gates: readonly string[] }, media?: MediaShape): ReceiptCoverage {
  const judgedFrom = media ? 'file' : 'gates';
  if (!isDeliveryProfile(receipt.profile)) {
    return {
      profile: receipt.profile,
      media: null,
      judgedFrom,
      required: [],
      missing: [],
      complete: false,
      reason: `"${receipt.profile.slice(0, 80)}" is not a delivery profile this verifier knows (${DELIVERY_PROFILE_IDS.join(', ')})`,
    };
  }
  const profile = receipt.profile;
  const gates = new Set(receipt.gates);
  if (media) return coverageFor(profile, media, media, gates, 'file');
  const possible = possibleMedia(profile, receipt.gates);
  if (possible.length === 0) {
    const reason = `the receipt's gates fit no one kind of media ${profile} accepts: it is not the record of one check`;
    return { profile, media: null, judgedFrom, required: [], missing: [], complete: false, reason };
  }
  const judged = possible.map((shape) => ({ shape, coverage: coverageFor(profile, shape, shape, gates, 'gates') }));
  const met = judged.filter((j) => j.coverage.complete).sort((a, b) => b.coverage.required.length - a.coverage.required.length);
  const best = met[0] ?? [...judged].sort((a, b) => a.coverage.missing.length - b.coverage.missing.length)[0];
  const twins = judged.filter((j) => sameGates(j.coverage.required, best.coverage.required));
  return twins.length > 1 ? coverageFor(profile, null, best.shape, gates, 'gates') : best.coverage;
}
