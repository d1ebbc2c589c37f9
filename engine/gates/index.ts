// Every gate of the engine, in catalogue order. A new gate is one module and one line here.
import { EngineError } from '../errors.js';
import type { DeliveryProfileId } from '../profiles/index.js';
import type { GateDefinition, GateThresholds } from '../types.js';
import { avSyncGate } from './audio/av-sync.js';
import { voiceoverMusicBalanceGate } from './audio/voiceover-music-balance.js';
import { channelBalanceGate } from './audio/channel-balance.js';
import { clippingGate } from './audio/clipping.js';
import { deadAirGate } from './audio/dead-air.js';
import { loudnessGate } from './audio/loudness.js';
import { blackFramesGate } from './visual/black-frames.js';
import { canvasFillGate } from './visual/canvas-fill.js';
import { loopFreezeGate } from './visual/loop-freeze.js';
import { formatSpecGate } from './format/format-spec.js';
import { shortsFormatGate } from './format/shorts-format.js';
import { assetTriageReuseManifestGate } from './structure/asset-triage-reuse-manifest.js';
import { chunkSidecarFailuresGate } from './structure/chunk-sidecar-failures.js';
import { cleanSegmentSourceScrubGate } from './structure/clean-segment-source-scrub.js';
import { contactSheetEvidenceGate } from './structure/contact-sheet-evidence.js';
import { openingFooterTextPresenceGate } from './structure/opening-footer-text-presence.js';
import { hallucinatedPlateTextGate } from './text/hallucinated-plate-text.js';
import { textContrastGate } from './text/text-contrast.js';
import { textCropJitterGate } from './text/text-crop-jitter.js';
import { textOverlapGate } from './text/text-overlap.js';
import { textSafeAreaGate } from './text/text-safe-area.js';
import { thumbnailTextReadabilityGate } from './text/thumbnail-text-readability.js';
import { endScreenTeaseGate } from './structure/end-screen-tease.js';
import { firstThreeSecondsGate } from './structure/first-three-seconds.js';
import { literalSubjectMatchGate } from './structure/literal-subject-match.js';
import { rehookCadenceGate } from './structure/rehook-cadence.js';
import { repeatFatigueGate } from './structure/repeat-fatigue.js';
import { speakerVisualBindingGate } from './structure/speaker-visual-binding.js';
import { staticHeadDominanceGate } from './structure/static-head-dominance.js';
import { visualNarrationMatchGate } from './structure/visual-narration-match.js';
import { dialogueInMusicShortGate } from './transcript/dialogue-in-music-short.js';
import { pronunciationWatchlistGate } from './transcript/pronunciation-watchlist.js';
import { scriptFaithfulnessGate } from './transcript/script-faithfulness.js';
import { sentenceBoundaryGate } from './transcript/sentence-boundary.js';
import { spokenLeaksGate } from './transcript/spoken-leaks.js';

export const GATES: readonly GateDefinition[] = [
  blackFramesGate,
  loopFreezeGate,
  canvasFillGate,
  formatSpecGate,
  shortsFormatGate,
  loudnessGate,
  clippingGate,
  deadAirGate,
  channelBalanceGate,
  avSyncGate,
  spokenLeaksGate,
  pronunciationWatchlistGate,
  scriptFaithfulnessGate,
  sentenceBoundaryGate,
  dialogueInMusicShortGate,
  chunkSidecarFailuresGate,
  repeatFatigueGate,
  speakerVisualBindingGate,
  staticHeadDominanceGate,
  literalSubjectMatchGate,
  visualNarrationMatchGate,
  firstThreeSecondsGate,
  endScreenTeaseGate,
  rehookCadenceGate,
  contactSheetEvidenceGate,
  openingFooterTextPresenceGate,
  cleanSegmentSourceScrubGate,
  assetTriageReuseManifestGate,
  voiceoverMusicBalanceGate,
  textCropJitterGate,
  textOverlapGate,
  hallucinatedPlateTextGate,
  textContrastGate,
  textSafeAreaGate,
  thumbnailTextReadabilityGate,
];

const byId = new Map(GATES.map((g) => [g.id, g]));
if (byId.size !== GATES.length) throw new Error('two gates share an id');

export const GATE_IDS: readonly string[] = GATES.map((g) => g.id);

export function gateById(id: string): GateDefinition | undefined {
  return byId.get(id);
}

/** The thresholds (with sources) a gate uses under a delivery profile; empty when the gate has none. */
export function thresholdsFor(gate: string, delivery: DeliveryProfileId): GateThresholds {
  return byId.get(gate)?.thresholds(delivery) ?? {};
}

/** Parses a `checks` value ("a,b" or an array); unknown names are an error listing the valid ones. */
export function parseChecks(checks: string | string[] | undefined): string[] | null {
  if (checks === undefined) return null;
  const names = (Array.isArray(checks) ? checks : checks.split(','))
    .map((c) => c.trim())
    .filter(Boolean);
  if (names.length === 0) return null;
  const unknown = names.filter((n) => !byId.has(n));
  if (unknown.length) {
    throw new EngineError('invalid_checks', `Unknown check${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Valid checks: ${GATE_IDS.join(', ')}.`, {
      unknown,
      valid: GATE_IDS,
    });
  }
  return [...new Set(names)];
}
