// contact_sheet_evidence: every segment declares a contact sheet, and each one exists in the manifest's folder.
import type { EngineSidecars } from '../../sidecars/index.js';
import type { FlagDraft, GateContext, GateResult } from '../../types.js';
import { defineGate } from '../define.js';
import { byStart, displayReference, EVIDENCE_SEGMENTS, fieldPath, listNames, manifestOrSkip, isManifest, segmentName, segmentRef, spanOf, URL_SCHEME, type SegmentRef } from '../kit/manifest-refs.js';
import { gateResult } from '../kit/result.js';
import { round } from '../kit/stats.js';
import { quote, reRunWithManifest } from '../kit/wording.js';

/** Frames tiled into a regenerated contact sheet (4×3). */
const SHEET_FRAMES = 12;

type SheetLocation = 'found' | 'missing' | 'outside' | 'url' | 'no_directory';

/** Blank, a URL (never fetched), not resolvable (the manifest was given inline), or as looked up when the check started. */
function locateSheet(reference: string, located: EngineSidecars['contactSheets']): SheetLocation {
  const ref = reference.trim();
  if (ref === '') return 'missing';
  if (URL_SCHEME.test(ref)) return 'url';
  if (located === undefined) return 'no_directory';
  return located[reference] ?? 'missing';
}

interface SheetCheck {
  segment: SegmentRef;
  reference: string;
  location: SheetLocation;
}

function sheetCommand(check: SheetCheck, target: string): string {
  const { start, end } = check.segment;
  const seconds = Math.max(end - start, 0.001);
  const rate = Math.max(round(SHEET_FRAMES / seconds, 4), 0.0001);
  return `ffmpeg -ss ${round(start, 3)} -t ${round(seconds, 3)} -i <input> -vf "fps=${rate},scale=320:-2,tile=4x3" -frames:v 1 ${target}`;
}

function missingSheetInstruction(check: SheetCheck, name: string): string {
  if (check.location === 'outside') {
    return `Contact sheets must sit in the manifest's folder or below it. Move the sheet of ${name} there and reference it by a relative path without "..".`;
  }
  const reference = displayReference(check.reference);
  if (reference === '') {
    return `Render the contact sheet of ${name} from the file, save it beside the manifest and declare its relative path as contactSheet: \`${sheetCommand(check, '<sheet>')}\`.`;
  }
  return (
    `Render the contact sheet of ${name} from the file and save it where the manifest says (${quote(reference)}, relative to the manifest): ` +
    `\`${sheetCommand(check, `"<manifest folder>/${reference}"`)}\`. Or correct the reference.`
  );
}

function missingSheetFlag(check: SheetCheck): FlagDraft {
  const name = segmentName(check.segment);
  const reference = displayReference(check.reference);
  const outside = check.location === 'outside';
  const problem = outside ? "points outside the manifest's folder" : reference === '' ? 'is blank' : 'does not exist';
  return {
    severity: 'BLOCK',
    start: check.segment.start,
    end: check.segment.end,
    summary: `Contact sheet of ${name} ${problem}: ${quote(reference)}`,
    evidence: { segment: check.segment, field: fieldPath(check.segment.index, 'contactSheet'), reference, problem },
    repair: {
      action: outside ? 'move_contact_sheet' : 'render_contact_sheet',
      reachable: true,
      instruction: missingSheetInstruction(check, name),
      verify: reRunWithManifest('contact_sheet_evidence', `no contact_sheet_evidence flag for segments[${check.segment.index}]`),
    },
  };
}

function urlSheetFlag(check: SheetCheck): FlagDraft {
  const name = segmentName(check.segment);
  const shown = displayReference(check.reference);
  return {
    severity: 'WATCH',
    start: check.segment.start,
    end: check.segment.end,
    summary: `Contact sheet of ${name} is not verifiable: ${quote(shown)} is a URL, which a check does not fetch`,
    evidence: { segment: check.segment, field: fieldPath(check.segment.index, 'contactSheet'), reference: shown, problem: 'not verifiable (URL)' },
    repair: {
      action: 'localise_contact_sheet',
      reachable: true,
      instruction: `Save the contact sheet of ${name} next to the manifest and reference it by a relative path instead of the URL.`,
      verify: reRunWithManifest('contact_sheet_evidence', `no contact_sheet_evidence flag for segments[${check.segment.index}]`),
    },
  };
}

function unresolvableSheetsFlag(checks: SheetCheck[]): FlagDraft {
  const refs = checks.map((c) => c.segment);
  return {
    severity: 'WATCH',
    ...spanOf(refs),
    summary: `Contact sheets of ${refs.length} segment${refs.length > 1 ? 's' : ''} (${listNames(refs)}) are not verifiable: the manifest was not read from a folder, so relative paths have nothing to resolve against`,
    evidence: {
      segments: refs.slice(0, EVIDENCE_SEGMENTS),
      references: checks.slice(0, EVIDENCE_SEGMENTS).map((c) => ({ field: fieldPath(c.segment.index, 'contactSheet'), reference: displayReference(c.reference) })),
      problem: 'not verifiable (manifest given inline)',
    },
    repair: {
      action: 'supply_manifest_file',
      reachable: true,
      instruction: `Give the manifest as a file (manifest_path, or manifest.json in the sidecar folder) with its contact sheets beside it, so segments ${listNames(refs)} can be checked.`,
      verify: reRunWithManifest('contact_sheet_evidence', 'every contact sheet found'),
    },
  };
}

function undeclaredSheetsFlag(refs: SegmentRef[], total: number): FlagDraft {
  const none = refs.length === total;
  return {
    severity: 'WATCH',
    ...spanOf(refs),
    summary: none
      ? `No segment of the manifest declares a contact sheet (${total} segment${total > 1 ? 's' : ''}, ${listNames(refs)})`
      : `${refs.length} of ${total} segments declare no contact sheet: ${listNames(refs)}`,
    evidence: { segments: refs.slice(0, EVIDENCE_SEGMENTS), field: 'segments[].contactSheet', declared: total - refs.length, total },
    repair: {
      action: 'render_contact_sheet',
      reachable: true,
      instruction: `Render a contact sheet for ${none ? 'each segment' : listNames(refs)} (e.g. \`ffmpeg -ss <start> -t <duration> -i <input> -vf "fps=12/<duration>,scale=320:-2,tile=4x3" -frames:v 1 <sheet>\`), save it beside the manifest and declare it as the segment's contactSheet.`,
      verify: reRunWithManifest('contact_sheet_evidence', 'no contact_sheet_evidence flag'),
    },
  };
}

function contactSheetEvidence(ctx: GateContext): GateResult {
  const manifest = manifestOrSkip(ctx, 'contact_sheet_evidence');
  if (!isManifest(manifest)) return manifest;
  const checks: SheetCheck[] = [];
  const undeclared: SegmentRef[] = [];
  manifest.segments.forEach((segment, index) => {
    const ref = segmentRef(segment, index);
    if (segment.contactSheet === undefined) undeclared.push(ref);
    else checks.push({ segment: ref, reference: segment.contactSheet, location: locateSheet(segment.contactSheet, ctx.sidecars.contactSheets) });
  });
  const count = (...locations: SheetLocation[]) => checks.filter((c) => locations.includes(c.location)).length;
  const flags = [
    ...checks.filter((c) => c.location === 'missing' || c.location === 'outside').map(missingSheetFlag),
    ...checks.filter((c) => c.location === 'url').map(urlSheetFlag),
  ];
  const unresolvable = checks.filter((c) => c.location === 'no_directory');
  if (unresolvable.length) flags.push(unresolvableSheetsFlag(unresolvable));
  if (undeclared.length) flags.push(undeclaredSheetsFlag(undeclared, manifest.segments.length));
  return gateResult(
    'contact_sheet_evidence',
    {
      segments: manifest.segments.length,
      declared: checks.length,
      found: count('found'),
      missing: count('missing', 'outside'),
      outsideManifestFolder: count('outside'),
      notVerifiable: count('url', 'no_directory'),
      undeclared: undeclared.length,
    },
    byStart(flags),
  );
}

export const contactSheetEvidenceGate = defineGate({
  id: 'contact_sheet_evidence',
  area: 'structure',
  title: 'Contact-sheet evidence exists',
  algorithm:
    "Each segment's contactSheet is resolved against the folder of the manifest file: a missing file, a blank reference or one leading outside that folder (\"..\", absolute paths, symbolic links out) is BLOCK for that segment. " +
    'URLs are not fetched (WATCH, not verifiable); a manifest given inline has no folder, so its references are WATCH, not verifiable. ' +
    'Segments that declare no contact sheet are one WATCH (also when none does). Flags quote the declared reference, never a server path.',
  requires: { kinds: ['video'], sidecars: ['manifest'] },
  run: contactSheetEvidence,
});
