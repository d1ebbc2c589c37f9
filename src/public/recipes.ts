// Pipeline recipes (one per pipeline profile) and the podcast/audio pipeline handoff, built from the profiles,
// the gate catalogue and the thresholds the engine runs on.
import { gateById, thresholdsFor } from '../../engine/gates/index.js';
import {
  DELIVERY_PROFILES,
  PIPELINE_PROFILES,
  PIPELINE_PROFILE_IDS,
  PROFILES_VERSION,
  PROFILE_ALIASES,
  type PipelineProfile,
  type PipelineProfileId,
} from '../../engine/profiles/index.js';
import type { DeliveryProfile, GateDefinition, GateThresholds, MediaKind } from '../../engine/types.js';
import { cliEquivalent, placeholderArguments, repairLoop, VERDICT_RULE, type CliEquivalent, type RepairLoopStep } from './repair-loop.js';
import { CLI_COMMAND } from './mcp-install.js';
import { commonMediaKinds, gatesRequiring, SIDECARS, type Sidecar } from './sidecars.js';

export const PIPELINE_RECIPES_SCHEMA = 'preflight-pipeline-recipes/1';
export const NPO_PIPELINE_HANDOFF_SCHEMA = 'preflight-npo-pipeline-handoff/1';
export const NPO_PROFILE: PipelineProfileId = 'npo_podcast_or_audio';

const SIDECAR_FORMATS_DOC = 'docs/sidecars.md';
const THRESHOLDS_DOC = 'docs/gates.md';
const CHECKS_RULE =
  'Gates under unlocksWithChecks run only when named in checks. Explicit checks replace the profile defaults, so list the default gates too.';

export interface SidecarUse {
  sidecar: string;
  localArgument: string;
  remoteArgument: string;
  /** Default gates of the profile that run only with this sidecar. */
  unlocksDefaultGates: string[];
  /** Further gates, runnable on every media kind of this profile, that it unlocks when named in `checks`. */
  unlocksWithChecks: string[];
}

export interface PipelineRecipe {
  profile: PipelineProfileId;
  label: string;
  whenToUse: string;
  /** Names a request may use for this profile: its id and its aliases. */
  requestNames: string[];
  mediaKinds: MediaKind[];
  deliveryProfile: DeliveryProfile & { thresholdsDoc: string };
  defaultGates: string[];
  /** Default gates this build lists but cannot run yet: they report skipped, never pass. */
  defaultGatesNotAvailable: string[];
  sidecars: SidecarUse[];
  sidecarFormatsDoc: string;
  repairLoop: RepairLoopStep[];
  cli: CliEquivalent;
}

export interface PipelineRecipes {
  schema: typeof PIPELINE_RECIPES_SCHEMA;
  profilesVersion: string;
  verdictRule: string;
  checksRule: string;
  recipes: PipelineRecipe[];
}

function definitionsOf(gateIds: readonly string[]): GateDefinition[] {
  return gateIds.map((id) => {
    const gate = gateById(id);
    if (!gate) throw new Error(`profile gate "${id}" is missing from the gate catalogue`);
    return gate;
  });
}

function requestNamesOf(id: PipelineProfileId): string[] {
  const aliases = Object.entries(PROFILE_ALIASES)
    .filter(([, target]) => target === id)
    .map(([alias]) => alias);
  return [id, ...aliases];
}

function mediaKindsOf(profile: PipelineProfile): MediaKind[] {
  return commonMediaKinds(definitionsOf(profile.gates));
}

function sidecarUse(sidecar: Sidecar, profile: PipelineProfile): SidecarUse {
  const kinds = mediaKindsOf(profile);
  const unlocked = gatesRequiring(sidecar).filter((g) => kinds.every((k) => g.requires.kinds.includes(k)));
  return {
    sidecar: sidecar.id,
    localArgument: sidecar.localArgument,
    remoteArgument: sidecar.remoteArgument,
    unlocksDefaultGates: unlocked.filter((g) => profile.gates.includes(g.id)).map((g) => g.id),
    unlocksWithChecks: unlocked.filter((g) => !profile.gates.includes(g.id)).map((g) => g.id),
  };
}

function sidecarUses(profile: PipelineProfile, sidecars: readonly Sidecar[] = SIDECARS): SidecarUse[] {
  return sidecars.map((s) => sidecarUse(s, profile)).filter((use) => use.unlocksDefaultGates.length + use.unlocksWithChecks.length > 0);
}

/** Sidecar arguments worth passing on every run: those that unlock a default gate. */
function defaultSidecarArguments(uses: readonly SidecarUse[]): string[] {
  return uses.filter((use) => use.unlocksDefaultGates.length > 0).map((use) => use.localArgument);
}

function recipeFor(id: PipelineProfileId): PipelineRecipe {
  const profile = PIPELINE_PROFILES[id];
  const sidecars = sidecarUses(profile);
  return {
    profile: id,
    label: profile.label,
    whenToUse: profile.description,
    requestNames: requestNamesOf(id),
    mediaKinds: mediaKindsOf(profile),
    deliveryProfile: { ...DELIVERY_PROFILES[profile.deliveryProfile], thresholdsDoc: THRESHOLDS_DOC },
    defaultGates: [...profile.gates],
    defaultGatesNotAvailable: [],
    sidecars,
    sidecarFormatsDoc: SIDECAR_FORMATS_DOC,
    repairLoop: repairLoop(id, placeholderArguments(defaultSidecarArguments(sidecars))),
    cli: cliEquivalent(id),
  };
}

export function pipelineRecipes(): PipelineRecipes {
  return {
    schema: PIPELINE_RECIPES_SCHEMA,
    profilesVersion: PROFILES_VERSION,
    verdictRule: VERDICT_RULE,
    checksRule: CHECKS_RULE,
    recipes: PIPELINE_PROFILE_IDS.map(recipeFor),
  };
}

// ------------------------------------------------------------------ podcast/audio handoff

/** The sidecars an audio programme can bring (transcript, expected script, watchlist: docs/sidecars.md). */
const NPO_SIDECAR_IDS = ['transcript', 'expected_script', 'watchlist'];

export interface HandoffItem {
  item: string;
  tool: string;
  cli: string;
  why: string;
}

const HANDOFF_ITEMS: HandoffItem[] = [
  {
    item: 'receipt',
    tool: 'qc_get_receipt',
    cli: '--receipt receipt.json',
    why: 'Signed proof of the verdict for this exact file (sha256); the receiving side verifies it before publishing.',
  },
  {
    item: 'report',
    tool: 'qc_get_report',
    cli: '--json > report.json',
    why: 'Every gate result and every flag with timestamps, evidence and repair instructions.',
  },
  {
    item: 'marker CSV',
    tool: 'qc_get_marker_csv',
    cli: '--markers markers.csv',
    why: 'The flags as markers an editor imports to find each span.',
  },
];

export interface NpoPipelineHandoff {
  schema: typeof NPO_PIPELINE_HANDOFF_SCHEMA;
  profilesVersion: string;
  profile: PipelineProfileId;
  label: string;
  whenToUse: string;
  requestNames: string[];
  deliveryProfile: DeliveryProfile;
  targets: { summary: string; thresholdsDoc: string; gates: Record<string, GateThresholds> };
  defaultGates: string[];
  defaultGatesNotAvailable: string[];
  acceptedSidecars: SidecarUse[];
  acceptedSidecarsNote: string;
  sidecarFormatsDoc: string;
  repairLoop: RepairLoopStep[];
  cli: CliEquivalent;
  handoffMustInclude: HandoffItem[];
  /** One CLI run that writes all of handoffMustInclude. */
  handoffCommand: string;
  verdictRule: string;
}

function loudnessSummary(loudness: GateThresholds): string {
  const { targetLufs, watchToleranceLu, truePeakWatchDbtp } = loudness;
  return `Integrated loudness ${targetLufs.value} ${targetLufs.unit} ±${watchToleranceLu.value} ${watchToleranceLu.unit}, true peak ≤ ${truePeakWatchDbtp.value} ${truePeakWatchDbtp.unit}.`;
}

/** Thresholds of the profile's audio gates, with their sources, keyed by gate. */
function audioTargets(profile: PipelineProfile): Record<string, GateThresholds> {
  const audioGates = definitionsOf(profile.gates).filter((g) => g.area === 'audio');
  const entries = audioGates.map((g) => [g.id, thresholdsFor(g.id, profile.deliveryProfile)] as const);
  return Object.fromEntries(entries.filter(([, thresholds]) => Object.keys(thresholds).length > 0));
}

/**
 * The default gates plus the gates of sidecars that unlock no default gate: without them in `checks`, such a
 * sidecar (a watchlist, an expected script) would be read and change nothing.
 */
function checksWith(profile: PipelineProfile, uses: readonly SidecarUse[]): string[] {
  const onRequestOnly = uses.filter((use) => use.unlocksDefaultGates.length === 0);
  return [...new Set([...profile.gates, ...onRequestOnly.flatMap((use) => use.unlocksWithChecks)])];
}

// The report goes to stdout, so its redirection comes last.
const handoffCommand = (profile: PipelineProfileId): string =>
  `${CLI_COMMAND} check <file> --profile ${profile} --receipt receipt.json --markers markers.csv --json > report.json`;

export function npoPipelineHandoff(): NpoPipelineHandoff {
  const recipe = recipeFor(NPO_PROFILE);
  const profile = PIPELINE_PROFILES[NPO_PROFILE];
  const accepted = sidecarUses(profile, SIDECARS.filter((s) => NPO_SIDECAR_IDS.includes(s.id)));
  return {
    schema: NPO_PIPELINE_HANDOFF_SCHEMA,
    profilesVersion: PROFILES_VERSION,
    profile: NPO_PROFILE,
    label: recipe.label,
    whenToUse: recipe.whenToUse,
    requestNames: recipe.requestNames,
    deliveryProfile: DELIVERY_PROFILES[profile.deliveryProfile],
    targets: {
      summary: loudnessSummary(thresholdsFor('loudness', profile.deliveryProfile)),
      thresholdsDoc: THRESHOLDS_DOC,
      gates: audioTargets(profile),
    },
    defaultGates: recipe.defaultGates,
    defaultGatesNotAvailable: recipe.defaultGatesNotAvailable,
    acceptedSidecars: accepted,
    sidecarFormatsDoc: SIDECAR_FORMATS_DOC,
    acceptedSidecarsNote: CHECKS_RULE,
    repairLoop: repairLoop(NPO_PROFILE, {
      ...placeholderArguments(accepted.map((use) => use.localArgument)),
      checks: checksWith(profile, accepted).join(','),
    }),
    cli: recipe.cli,
    handoffMustInclude: HANDOFF_ITEMS.map((item) => ({ ...item })),
    handoffCommand: handoffCommand(NPO_PROFILE),
    verdictRule: VERDICT_RULE,
  };
}
