// Which sidecar inputs unlock which gates, read from the `input` field of the gate catalogue
// (e.g. "transcript + watchlist", "video/image or manifest").
import { GATES } from '../../engine/gates/catalogue.js';
import type { GateDefinition, MediaKind } from '../../engine/types.js';

export interface Sidecar {
  id: string;
  /** How the gate catalogue's `input` field names it. */
  inputName: string;
  /** Tool argument for a file on this machine, and for an HTTPS URL (SPEC.md "Agent tools"). */
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

/** Input parts that name the media itself rather than a sidecar. */
export const MEDIA_INPUTS: readonly string[] = ['video', 'image', 'audio/video', 'video/image', 'video with audio'];

/** "a + b or c" → [["a", "b"], ["c"]]: any one alternative, each needing all of its parts. */
export function inputAlternatives(input: string): string[][] {
  return input.split(' or ').map((alternative) => alternative.split(' + ').map((part) => part.trim()));
}

/** The sidecar a part of an input names ("manifest mix metadata" is the manifest), or undefined for media. */
export function sidecarOfPart(part: string): Sidecar | undefined {
  return SIDECARS.find((s) => part === s.inputName || part.startsWith(`${s.inputName} `));
}

/** Sidecars a gate cannot run without: those named in every alternative of its input. */
export function requiredSidecars(gate: Pick<GateDefinition, 'input'>): Sidecar[] {
  const perAlternative = inputAlternatives(gate.input).map((parts) => new Set(parts.map(sidecarOfPart).filter((s) => s !== undefined)));
  return SIDECARS.filter((s) => perAlternative.every((found) => found.has(s)));
}

export function gatesRequiring(sidecar: Sidecar, gates: readonly GateDefinition[] = GATES): GateDefinition[] {
  return gates.filter((g) => requiredSidecars(g).includes(sidecar));
}

/** The media kinds every one of these gates accepts: what a profile built from them is for. */
export function commonMediaKinds(gates: readonly GateDefinition[]): MediaKind[] {
  const kinds: MediaKind[] = ['video', 'audio', 'image'];
  return kinds.filter((kind) => gates.every((g) => g.kinds.includes(kind)));
}
