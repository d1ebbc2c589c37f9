// Which sidecar inputs unlock which gates, read from what each gate requires (engine/gates/define.ts).
import { sidecarNameOf } from '../../engine/gates/define.js';
import { GATES } from '../../engine/gates/index.js';
import type { GateDefinition, MediaKind, SidecarName } from '../../engine/types.js';

export interface Sidecar {
  id: string;
  /** How a gate's requirements name it. */
  inputName: SidecarName;
  /** Tool argument for a file on this machine, and for an HTTPS URL (docs/sidecars.md). */
  localArgument: string;
  remoteArgument: string;
}

export const SIDECARS: readonly Sidecar[] = [
  { id: 'manifest', inputName: 'manifest', localArgument: 'manifest_path', remoteArgument: 'manifest_url' },
  { id: 'transcript', inputName: 'transcript', localArgument: 'transcript_path', remoteArgument: 'transcript_url' },
  { id: 'watchlist', inputName: 'watchlist', localArgument: 'watchlist_path', remoteArgument: 'watchlist_url' },
  { id: 'expected_script', inputName: 'expected script', localArgument: 'expected_script_path', remoteArgument: 'expected_script_url' },
  { id: 'sidecar_dir', inputName: 'sidecar directory', localArgument: 'sidecar_dir', remoteArgument: 'chunk_sidecars_url' },
];

/** Sidecars a gate cannot run without. */
export function requiredSidecars(gate: Pick<GateDefinition, 'requires'>): Sidecar[] {
  const names = new Set(gate.requires.sidecars.map(sidecarNameOf));
  return SIDECARS.filter((s) => names.has(s.inputName));
}

export function gatesRequiring(sidecar: Sidecar, gates: readonly GateDefinition[] = GATES): GateDefinition[] {
  return gates.filter((g) => requiredSidecars(g).includes(sidecar));
}

/** The media kinds every one of these gates accepts: what a profile built from them is for. */
export function commonMediaKinds(gates: readonly GateDefinition[]): MediaKind[] {
  const kinds: MediaKind[] = ['video', 'audio', 'image'];
  return kinds.filter((kind) => gates.every((g) => g.requires.kinds.includes(kind)));
}
