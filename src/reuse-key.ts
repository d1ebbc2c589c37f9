// The one rule for "nothing checked twice": a stored report may stand in for a new check only when everything that
// decides its flags is unchanged. The CLI batch (--report-dir) and the doors' free re-check share this key.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../engine/canonical-json.js';
import { ENGINE_VERSION } from '../engine/check.js';
import { parseChecks } from '../engine/gates/index.js';
import { PROFILES_VERSION } from '../engine/profiles/index.js';
import { withSidecarFiles } from '../engine/sidecars/contact-sheets.js';
import type { EngineSidecars } from '../engine/sidecars/index.js';

/** Bumped when what goes into the key changes, so keys made by an older rule never match. */
export const REUSE_KEY_VERSION = 1;

export interface ReuseKeyInput {
  /** sha256 of the media bytes (hex). */
  sha256: string;
  /** The parsed sidecars the check reads (their skipped-file lists aside). */
  sidecars?: EngineSidecars | null;
  /** The profile as requested (`auto` when none was given). */
  profile?: string;
  /** The gate list a repair step narrowed to (--checks), or none for the profile's own gates. */
  checks?: string | string[] | null;
  /** Anything else the caller's stored result depends on (e.g. the exports written beside a report). */
  extra?: Record<string, unknown>;
  /** Defaults to this engine: a new engine or profile set never reuses an older report. */
  engineVersion?: string;
}

function sidecarContent(sidecars: EngineSidecars | null | undefined): unknown {
  if (!sidecars) return null;
  // Contact sheets are looked up as the check would (found / missing / outside), so moving one changes the key.
  const { manifest, transcript, watchlist, expectedScript, chunkSidecars, manifestDir, contactSheets } = withSidecarFiles(sidecars);
  return { manifest, transcript, watchlist, expectedScript, chunkSidecars, manifestDir, contactSheets };
}

/** A hex sha256 over every input that decides a report's flags; equal keys mean the stored report can be reused. */
export function reuseKey(input: ReuseKeyInput): string {
  const checks = parseChecks(input.checks ?? undefined);
  const material = {
    rule: REUSE_KEY_VERSION,
    sha256: input.sha256,
    sidecars: sidecarContent(input.sidecars),
    profile: input.profile ?? 'auto',
    checks,
    extra: input.extra ?? {},
    engine: input.engineVersion ?? `${ENGINE_VERSION}+profiles.${PROFILES_VERSION}`,
  };
  return createHash('sha256').update(canonicalJson(material)).digest('hex');
}
