// Thresholds of the gates that read text in the picture (OCR): contrast, safe area, thumbnail readability, and the pixel
// halves of text_overlap, text_crop_jitter and hallucinated_plate_text, per delivery profile, with sources.
import type { GateThresholds } from '../types.js';
import type { DeliveryProfileId } from './index.js';
import { isVerticalDelivery, t, uiZoneThresholds } from './threshold-values.js';

const WCAG = 'WCAG 2.x SC 1.4.3 (REFERENCE.md 2.6)';
const SAFE_AREAS = 'EBU R 95 / SMPTE ST 2046-1 (REFERENCE.md 2.3)';
function textContrast(): GateThresholds {
  return {
    normalTextMinRatio: t(4.5, 'contrast ratio', `${WCAG}: AA minimum for normal text`, 'primary'),
    largeTextMinRatio: t(3, 'contrast ratio', `${WCAG}: AA minimum for large text; below it no text size passes (BLOCK)`, 'primary'),
    largeTextHeightFraction: t(
      0.04,
      'fraction of frame height',
      'Preflight house rule: WCAG large text is 24 CSS px; on a phone or laptop showing the frame about 600 CSS px tall that is a line box of 4 % of the height (43 px at 1080p)',
      'house',
    ),
  };
}

function textSafeArea(delivery: DeliveryProfileId): GateThresholds {
  const areas: GateThresholds = {
    graphicsSafeMargin: t(0.05, 'fraction per side', `${SAFE_AREAS}: graphics (title) safe area 90 %; text outside it is WATCH`, 'secondary'),
    actionSafeMargin: t(0.035, 'fraction per side', `${SAFE_AREAS}: action safe area 93 %`, 'secondary'),
    actionSafeSeverity: t(
      delivery === 'broadcast_r128' ? 'BLOCK' : 'WATCH',
      'severity',
      delivery === 'broadcast_r128'
        ? 'Preflight house rule: broadcast displays may still crop outside action safe, so text there is BLOCK'
        : 'Preflight house rule: web and app players do not overscan, so text outside action safe is WATCH, not BLOCK',
      'house',
    ),
  };
  if (!isVerticalDelivery(delivery)) return areas;
  return {
    ...areas,
    ...uiZoneThresholds(),
  };
}

function thumbnailTextReadability(): GateThresholds {
  return {
    thumbnailWidthPx: t(320, 'px', 'Preflight house rule: thumbnails are judged as shown in mobile search and home feeds, about 320 px wide', 'house'),
    minTextHeightPx: t(12, 'px at thumbnailWidthPx', 'Preflight house rule: a line under 12 px tall at 320 px wide is hard to read at a glance (WATCH)', 'house'),
    blockTextHeightPx: t(8, 'px at thumbnailWidthPx', 'Preflight house rule: a line under 8 px tall at 320 px wide cannot be read (BLOCK)', 'house'),
    maxWords: t(5, 'words', 'Preflight house rule after common creator guidance of 3-5 words: more words than 5 are not read in a feed (WATCH)', 'house'),
    minContrastRatio: t(4.5, 'contrast ratio', `${WCAG}: text shown this small is not large text, so the normal-text minimum applies (WATCH below)`, 'primary'),
    marginFraction: t(0.05, 'fraction per side', 'Preflight house rule: keep 5 % clear at every edge, where feeds crop and round corners', 'house'),
    badgeZone: t(
      [0.75, 0.8, 0.25, 0.2],
      'x, y, w, h fractions',
      'Preflight house rule: the bottom-right corner (25 % × 20 %) is covered by the duration badge in video-site feeds',
      'house',
    ),
  };
}

/** Pixel halves of the declared-text gates; the declared halves keep their own thresholds (thresholds-manifest-media.ts). */
export function pixelTextThresholds(): GateThresholds {
  return {
    pixelJitterWatchFraction: t(
      0.008,
      'fraction of frame',
      'Preflight house rule: OCR boxes of unchanged text vary by a pixel or two; the same words moving by more than 0.8 % of the frame (about 8 px at 960) within half a second to a few seconds is visible jitter',
      'house',
    ),
    edgeTouchFraction: t(
      0.002,
      'fraction of frame',
      'Preflight house rule: read text whose box comes within 0.2 % of a frame edge (2 px at 960) has letters cut by the edge (BLOCK)',
      'house',
    ),
    realWordShare: t(
      0.5,
      'fraction of words',
      'Preflight house rule: a line is lettering without real words when fewer than half of its words of three or more letters are English dictionary words (an-array-of-english-words), numbers or short acronyms',
      'house',
    ),
    approvedSimilarity: t(0.8, 'similarity', 'Preflight house rule: read text matches approved declared text at 80 % character similarity (OCR misreads a letter or two)', 'house'),
  };
}

export function textThresholds(delivery: DeliveryProfileId): Record<string, GateThresholds> {
  return {
    text_contrast: textContrast(),
    text_safe_area: textSafeArea(delivery),
    thumbnail_text_readability: thumbnailTextReadability(),
  };
}
