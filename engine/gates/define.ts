// defineGate: one gate, declared once. What the gate reads (`requires`) gives its input wording, the signals a check
// computes for it, whether it runs without media, and what docs/gates.md says; nothing is parsed back from text.
import type { DeliveryProfileId } from '../profiles/index.js';
import type { GateArea, GateContext, GateDefinition, GateRequirements, GateResult, GateThresholds, MediaKind, SidecarName, SidecarNeed, SignalNeed } from '../types.js';

export interface GateSpec {
  id: string;
  area: GateArea;
  title: string;
  requires: { kinds: MediaKind[]; signals?: SignalNeed[]; sidecars?: SidecarNeed[]; orSidecar?: SidecarName };
  /** The gate's thresholds per delivery profile, each with its source; omitted when it has none. */
  thresholds?: (delivery: DeliveryProfileId) => GateThresholds;
  /** The algorithm in words, published in docs/gates.md. */
  algorithm: string;
  run(ctx: GateContext): GateResult;
}

export function defineGate(spec: GateSpec): GateDefinition {
  const { kinds, signals = [], sidecars = [], orSidecar } = spec.requires;
  const requires: GateRequirements = { kinds, signals, sidecars, ...(orSidecar ? { orSidecar } : {}) };
  return {
    id: spec.id,
    area: spec.area,
    title: spec.title,
    algorithm: spec.algorithm,
    requires,
    input: inputWording(requires),
    thresholds: spec.thresholds ?? (() => ({})),
    run: spec.run,
  };
}

export const sidecarNameOf = (need: SidecarNeed): SidecarName => (typeof need === 'string' ? need : need.sidecar);

/** A gate that reads sidecars runs without media: it judges what they declare. */
export const readsSidecars = (gate: GateDefinition): boolean => gate.requires.sidecars.length > 0 || gate.requires.orSidecar !== undefined;

const KIND_ORDER: readonly MediaKind[] = ['audio', 'video', 'image'];

function mediaWording({ kinds, signals }: GateRequirements): string {
  if (kinds.length === 1 && kinds[0] === 'video' && signals.includes('video') && signals.includes('audio')) return 'video with audio';
  return KIND_ORDER.filter((k) => kinds.includes(k)).join('/');
}

/** "audio/video", "video with audio", "transcript + watchlist", "manifest mix metadata", "video/image or manifest". */
function inputWording(requires: GateRequirements): string {
  if (requires.sidecars.length > 0) return requires.sidecars.map((n) => (typeof n === 'string' ? n : `${n.sidecar} ${n.part}`)).join(' + ');
  const media = mediaWording(requires);
  return requires.orSidecar ? `${media} or ${requires.orSidecar}` : media;
}
