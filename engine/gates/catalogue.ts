// Every public gate of SPEC.md, implemented or not. Gates whose inputs this build cannot read yet are listed and always report `skipped: not available in this build`, never a pass.
import { EngineError } from '../errors.js';
import type { GateDefinition, MediaKind } from '../types.js';
import { audioGates } from './audio.js';
import { skippedGate } from './kit/result.js';
import { formatGates } from './format.js';
import { manifestGates } from './manifest.js';
import { manifestMediaGates } from './manifest-media.js';
import { syncGates } from './sync.js';
import { textGates } from './text.js';
import { transcriptGates } from './transcript.js';
import { visualGates } from './visual.js';

export const NOT_AVAILABLE = 'not available in this build';

type Area = GateDefinition['area'];
const PLANNED: { id: string; area: Area; input: string; title: string; kinds: MediaKind[] }[] = [
  { id: 'voiceover_music_balance', area: 'audio', input: 'manifest mix metadata', title: 'Voice-over against music balance', kinds: ['video', 'audio'] },
  { id: 'text_crop_jitter', area: 'text', input: 'manifest', title: 'Text cut by the frame edge or jittering', kinds: ['video', 'image'] },
  { id: 'text_overlap', area: 'text', input: 'video/image or manifest', title: 'Text boxes overlapping each other or UI zones', kinds: ['video', 'image'] },
  { id: 'thumbnail_text_readability', area: 'text', input: 'image', title: 'Thumbnail text readable at small size', kinds: ['image'] },
  { id: 'hallucinated_plate_text', area: 'text', input: 'manifest', title: 'Unapproved text in generated plates', kinds: ['video', 'image'] },
  { id: 'text_contrast', area: 'text', input: 'video/image', title: 'WCAG contrast of on-screen text', kinds: ['video', 'image'] },
  { id: 'text_safe_area', area: 'text', input: 'video/image', title: 'Text inside the safe area and clear of platform UI', kinds: ['video', 'image'] },
  ...[
    ['repeat_fatigue', 'Near-identical shots reused too often'],
    ['speaker_visual_binding', 'Speaker shown while speaking'],
    ['static_head_dominance', 'Static talking head dominating'],
    ['literal_subject_match', 'Visual matches the named subject'],
    ['visual_narration_match', 'Visual matches the narration'],
    ['first_three_seconds', 'Hook in the first three seconds'],
    ['end_screen_tease', 'End screen tease present'],
    ['rehook_cadence', 'Re-hooks at a steady cadence'],
    ['contact_sheet_evidence', 'Contact-sheet evidence exists'],
    ['opening_footer_text_presence', 'Opening footer text present'],
    ['clean_segment_source_scrub', 'Segment sources scrubbed clean'],
    ['asset_triage_reuse_manifest', 'Asset triage and reuse recorded'],
  ].map(([id, title]) => ({ id, area: 'structure' as Area, input: 'manifest', title, kinds: ['video'] as MediaKind[] })),
  { id: 'chunk_sidecar_failures', area: 'structure', input: 'sidecar directory', title: 'Chunk sidecars report failures', kinds: ['video', 'audio'] },
  { id: 'spoken_leaks', area: 'transcript', input: 'transcript', title: 'Spoken URLs, markup, prompts or placeholders', kinds: ['video', 'audio'] },
  { id: 'pronunciation_watchlist', area: 'transcript', input: 'transcript + watchlist', title: 'Watch-listed terms pronounced as expected', kinds: ['video', 'audio'] },
  { id: 'script_faithfulness', area: 'transcript', input: 'transcript + expected script', title: 'Narration follows the expected script', kinds: ['video', 'audio'] },
  { id: 'sentence_boundary', area: 'transcript', input: 'transcript', title: 'Programme starts and ends on sentence boundaries', kinds: ['video', 'audio'] },
  { id: 'dialogue_in_music_short', area: 'transcript', input: 'transcript', title: 'Dialogue buried in a music short', kinds: ['video', 'audio'] },
];

function plannedGate(p: (typeof PLANNED)[number]): GateDefinition {
  return {
    ...p,
    algorithm: `Needs ${p.input}; ${NOT_AVAILABLE} (reports skipped, never pass).`,
    needs: [],
    available: false,
    run: () => skippedGate(p.id, NOT_AVAILABLE),
  };
}

const implemented = [...visualGates, ...formatGates, ...audioGates, ...syncGates, ...transcriptGates, ...manifestGates, ...manifestMediaGates, ...textGates];
const implementedIds = new Set(implemented.map((g) => g.id));

export const GATES: readonly GateDefinition[] = [...implemented, ...PLANNED.filter((p) => !implementedIds.has(p.id)).map(plannedGate)];

const byId = new Map(GATES.map((g) => [g.id, g]));

export const GATE_IDS: readonly string[] = GATES.map((g) => g.id);

export function gateById(id: string): GateDefinition | undefined {
  return byId.get(id);
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
