// Thresholds of the manifest-media gates (declared contact sheets, opening text, source scrub, asset triage, mix
// balance, declared text boxes) per delivery profile, with sources. Most are Preflight house rules: no standard
// gives a number for a pipeline's own declarations.
import type { GateThresholds } from '../types.js';
import type { DeliveryProfileId } from './index.js';
import { pixelTextThresholds } from './thresholds-text.js';
import { t, uiZoneThresholds, VERTICAL_DELIVERIES } from './threshold-values.js';

const pick = (all: GateThresholds, keys: string[]): GateThresholds => Object.fromEntries(keys.map((k) => [k, all[k]]));

/** Delivery profiles shown full-screen 9:16 under platform UI overlays. */
export { VERTICAL_DELIVERIES };

const isVertical = (delivery: DeliveryProfileId) => VERTICAL_DELIVERIES.includes(delivery);

function openingFooterText(delivery: DeliveryProfileId): GateThresholds {
  return {
    openingSeconds: t(3, 's', 'Preflight house rule: the opening is the first 3 s, the window in which viewers decide to stay (as first_three_seconds)', 'house'),
    footerBandTop: t(
      isVertical(delivery) ? 0.5 : 0.8,
      'fraction of frame height',
      isVertical(delivery)
        ? 'Preflight house rule for 9:16: the bottom 35 % is under platform UI, so footer text sits in the lower half, above that zone (its bottom edge at or below half the height)'
        : 'Preflight house rule: footer text has its bottom edge in the lowest fifth of the frame (lower-third and caption band)',
      'house',
    ),
  };
}

function cleanSegmentSourceScrub(): GateThresholds {
  return {
    cleanStatuses: t(['clean', 'scrubbed', 'ok'], 'status', 'Preflight house rule: statuses (whole words, case and punctuation ignored) that mean the source was checked and is clean', 'house'),
    blockStatuses: t(
      ['dirty', 'failed', 'fail', 'rejected', 'watermark', 'watermarked', 'logo', 'burnt in text', 'burned in text'],
      'status words',
      'Preflight house rule: a status naming one of these words or phrases reports a known defect of the source (BLOCK); any other unclean status is WATCH',
      'house',
    ),
    scrubRequiredKinds: t(
      ['generated_plate', 'b_roll'],
      'segment kinds',
      'Preflight house rule: generated and third-party footage is where watermarks, logos and burnt-in text come from, so these kinds must declare a scrub status',
      'house',
    ),
  };
}

function assetTriageReuse(): GateThresholds {
  return {
    continuationGapSeconds: t(
      0.1,
      's',
      'Preflight house rule: consecutive segments of the same file less than 0.1 s apart are one continuous use (a shot split by the manifest), not a reuse',
      'house',
    ),
  };
}

function voiceoverMusicBalance(): GateThresholds {
  return {
    watchBelowDb: t(
      10,
      'dB (voice − music)',
      'Torcoli et al., "Preferred Levels for Background Ducking to Produce Esthetically Pleasing Audio for TV with Clear Speech", JAES 67(12), 2019: at least 10 LU for commentary over music; applied to the declared levels (WCAG technique G56 asks 20 dB for accessible audio)',
      'secondary',
    ),
    blockBelowDb: t(4, 'dB (voice − music)', 'Preflight house rule: music within 4 dB of the voice is about as loud as the speech and masks it for many listeners', 'house'),
    renderMismatchDb: t(
      6,
      'dB',
      'Preflight house rule: the measured segment loudness (median short-term LUFS) may differ from the declared voice + music level by up to 6 dB (scale differences between LUFS and dBFS, pauses, effects)',
      'house',
    ),
  };
}

function textCropJitter(): GateThresholds {
  return {
    edgeOverhangBlockFraction: t(
      0.005,
      'fraction of frame',
      'Preflight house rule: a box past the frame edge by more than 0.5 % (about 10 px at 1920) cuts letters (BLOCK); a smaller overhang may be box padding (WATCH)',
      'house',
    ),
    jitterWatchFraction: t(
      0.005,
      'fraction of frame',
      'Preflight house rule: the same text shifting by more than 0.5 % of the frame (5-10 px at 1080p) across a cut is a visible jump',
      'house',
    ),
    intentionalMoveFraction: t(0.1, 'fraction of frame', 'Preflight house rule: a move of 10 % of the frame or more reads as a deliberate reposition, not jitter', 'house'),
    adjacentGapSeconds: t(0.1, 's', 'Preflight house rule: segments less than 0.1 s apart are back to back, so the text stays on screen across the cut', 'house'),
  };
}

function textOverlap(delivery: DeliveryProfileId): GateThresholds {
  const overlap: GateThresholds = {
    overlapWatchRatio: t(
      0.1,
      'fraction of the smaller box',
      'Preflight house rule: two text boxes sharing more than 10 % of the smaller box collide visibly; touching or slightly padded boxes pass',
      'house',
    ),
    overlapBlockRatio: t(0.5, 'fraction of the smaller box', 'Preflight house rule: half of a text box covered by another text box is unreadable', 'house'),
  };
  if (!isVertical(delivery)) return overlap;
  return {
    ...overlap,
    ...uiZoneThresholds(),
  };
}

export function manifestMediaThresholds(delivery: DeliveryProfileId): Record<string, GateThresholds> {
  return {
    opening_footer_text_presence: openingFooterText(delivery),
    clean_segment_source_scrub: cleanSegmentSourceScrub(),
    asset_triage_reuse_manifest: assetTriageReuse(),
    voiceover_music_balance: voiceoverMusicBalance(),
    text_crop_jitter: { ...textCropJitter(), ...pick(pixelTextThresholds(), ['pixelJitterWatchFraction', 'edgeTouchFraction']) },
    text_overlap: textOverlap(delivery),
    hallucinated_plate_text: pick(pixelTextThresholds(), ['realWordShare', 'approvedSimilarity']),
  };
}
