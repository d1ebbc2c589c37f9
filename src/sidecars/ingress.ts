// The job's `sidecarIngress` record: how sidecars arrived, never what they said or where they live.
import { SidecarKindSchema, type SidecarIngress, type SidecarKind } from '../schemas/job.js';

export const SIDECAR_NEVER_EXPOSES = ['local paths', 'inline sidecar contents'] as const;

export interface SuppliedSidecar {
  kind: SidecarKind;
  local: boolean;
}

/** Null when nothing was supplied. Any sidecar read from a local file makes the mode `local_files`. */
export function sidecarIngress(supplied: readonly SuppliedSidecar[]): SidecarIngress | null {
  if (supplied.length === 0) return null;
  const mode = supplied.some((sidecar) => sidecar.local) ? 'local_files' : 'inline_ephemeral';
  const kinds = new Set(supplied.map((sidecar) => sidecar.kind));
  return {
    mode,
    ephemeral: mode === 'inline_ephemeral',
    supplied: SidecarKindSchema.options.filter((kind) => kinds.has(kind)),
    neverExposes: [...SIDECAR_NEVER_EXPOSES],
  };
}
