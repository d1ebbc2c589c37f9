// Manifest gates about the media the edit declares: contact-sheet evidence, opening footer text, source scrub, asset
// triage, voice-over/music balance and the declared on-screen text boxes (cut, jitter, overlap, unapproved plate text).
// They read the manifest's typed fields; text_overlap, text_crop_jitter and hallucinated_plate_text also judge the text
// read in the picture (engine/gates/text.ts), reporting both halves together.
// Flags quote the manifest's own fields and never a server path: the manifest's directory only resolves contact sheets.
import { existsSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, posix, relative, resolve, sep } from 'node:path';
import type { Manifest, ManifestSegment, OnScreenText, TextBox } from '../sidecars/formats/manifest.js';
import { jsonPath } from '../sidecars/formats/json-path.js';
import { findPhrase, phraseWords, tokenize } from '../text/match.js';
import type { AudioSignals, FlagDraft, GateContext, GateDefinition, GateResult, GateThresholds, Severity } from '../types.js';
import { exceeds, fallsBelow, reaches, severityBand } from './kit/bands.js';
import { boxArea, boxBottom, boxShift, boxText, frameOverhangs, intersectionArea, roundedBox } from './kit/geometry.js';
import { gateResult, skippedGate } from './kit/result.js';
import { median, round } from './kit/stats.js';
import { threshold, thresholdList, thresholdValues } from './kit/thresholds.js';
import { UI_ZONE_KEYS, uiZones, uiZonesMeasurement, underUi, type UiZones, type UnderUi } from './kit/ui-zones.js';
import { fixed1, hms, pct, quote, reRunWithManifest, spanText } from './kit/wording.js';
import { pixelCropJitter, pixelOverlap, pixelPlateText, textSignals, type PixelHalf } from './text.js';
import { defineGate } from './define.js';
import { manifestMediaThresholds } from '../profiles/thresholds-manifest-media.js';

const NEEDS_MANIFEST = 'needs manifest';
const DESCRIPTION_CHARS = 60;
/** Segments named in the summary of a flag about several segments; the evidence lists up to EVIDENCE_SEGMENTS. */
const SUMMARY_SEGMENTS = 3;
const EVIDENCE_SEGMENTS = 50;
/** Frames tiled into a regenerated contact sheet (4×3). */
const SHEET_FRAMES = 12;
const NO_PICTURE_TEXT = 'not read: this check has no picture';
const NO_MANIFEST = 'not given: only text read in the picture is checked';


// ---------------------------------------------------------------- shared: segments, quoting, thresholds

interface SegmentRef {
  index: number;
  start: number;
  end: number;
  description: string | null;
  kind: string | null;
}


function segmentRef(segment: ManifestSegment, index: number): SegmentRef {
  return { index, start: segment.start, end: segment.end, description: segment.description ?? null, kind: segment.kind ?? null };
}

/** `segments[2] (00:00:12.000-00:00:18.500, "Host at the desk")`: the index, the span and what the picture shows (or its kind). */
function segmentName(ref: SegmentRef): string {
  const what = ref.description ? `, ${quote(ref.description, DESCRIPTION_CHARS)}` : ref.kind ? `, ${ref.kind}` : '';
  return `segments[${ref.index}] (${spanText(ref.start, ref.end)}${what})`;
}

function listNames(refs: SegmentRef[]): string {
  const named = refs.slice(0, SUMMARY_SEGMENTS).map((r) => `segments[${r.index}]`);
  const more = refs.length - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ');
}

const fieldPath = (...path: (string | number)[]) => jsonPath(['segments', ...path]);

function textFieldPath(segmentIndex: number, textIndex: number): string {
  return fieldPath(segmentIndex, 'onScreenText', textIndex);
}

/** A flag about several segments spans from the first one's start to the last one's end. */
function spanOf(refs: SegmentRef[]): { start: number; end: number } {
  return { start: refs.reduce((m, r) => Math.min(m, r.start), Infinity), end: refs.reduce((m, r) => Math.max(m, r.end), -Infinity) };
}

function manifestOrSkip(ctx: GateContext, gate: string): Manifest | GateResult {
  return ctx.sidecars.manifest ?? skippedGate(gate, NEEDS_MANIFEST);
}

const isManifest = (value: Manifest | GateResult): value is Manifest => 'segments' in value;

/**
 * Gates with a declared half (manifest boxes) and a pixel half (OCR): each half runs when its input is there, the
 * flags of both are reported together, and the gate is skipped only when it has neither.
 */
function declaredAndRead(
  ctx: GateContext,
  gate: string,
  declared: (manifest: Manifest) => GateResult,
  read: (text: NonNullable<GateContext['signals']['text']>) => PixelHalf,
): GateResult {
  const manifest = ctx.sidecars.manifest;
  const text = textSignals(ctx);
  if (!manifest && !text) return skippedGate(gate, `${NEEDS_MANIFEST} or a picture to read`);
  const pixel = text ? read(text) : null;
  const own = manifest ? declared(manifest) : gateResult(gate, { manifest: NO_MANIFEST }, []);
  const flags = pixel ? byStart([...own.flags, ...pixel.flags]) : own.flags;
  return gateResult(gate, { ...own.measurements, pixelText: pixel ? pixel.measurements : NO_PICTURE_TEXT }, flags);
}

const byStart = (flags: FlagDraft[]) => [...flags].sort((a, b) => a.start - b.start || a.end - b.end);

const URL_SCHEME = /^[a-z][a-z0-9+.-]+:\/\//i;

/** An asset or file reference as flags may show it: URLs lose their query and fragment, absolute paths all but the file name. */
function displayReference(reference: string): string {
  const ref = reference.trim();
  if (URL_SCHEME.test(ref)) return ref.replace(/[?#].*$/, '');
  if (isAbsolute(ref) || /^[A-Za-z]:[\\/]/.test(ref)) return `<absolute path>/${ref.split(/[\\/]/).pop() ?? ''}`;
  return ref;
}

// ---------------------------------------------------------------- declared text boxes

interface DeclaredText {
  segment: SegmentRef;
  textIndex: number;
  text: string;
  box: TextBox;
}

/** The texts of a segment that declare a box, in manifest order. */
function boxedTexts(segment: ManifestSegment, index: number): DeclaredText[] {
  const ref = segmentRef(segment, index);
  return (segment.onScreenText ?? []).flatMap((t, textIndex) =>
    t.box ? [{ segment: ref, textIndex, text: t.text, box: t.box }] : [],
  );
}

function countBoxless(segments: ManifestSegment[]): number {
  return segments.reduce((n, s) => n + (s.onScreenText ?? []).filter((t) => !t.box).length, 0);
}

/** Identity of a text across segments: its normalised words, or the trimmed text when it has none (symbols). */
function textKey(text: string): string {
  const words = phraseWords(text);
  return words.length ? words.join(' ') : text.trim();
}

function textEvidence(d: DeclaredText): Record<string, unknown> {
  return { field: textFieldPath(d.segment.index, d.textIndex), text: d.text, box: roundedBox(d.box) };
}

// ---------------------------------------------------------------- contact_sheet_evidence

type SheetLocation = 'found' | 'missing' | 'outside' | 'url' | 'no_directory';

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** Exists as a regular file whose real path (symbolic links followed) is still inside the manifest's directory. */
function fileInside(root: string, target: string): SheetLocation {
  try {
    if (!isInside(realpathSync(root), realpathSync(target))) return 'outside';
    return statSync(target).isFile() ? 'found' : 'missing';
  } catch {
    return 'missing';
  }
}

function locateSheet(reference: string, manifestDir: string | undefined): SheetLocation {
  const ref = reference.trim().replace(/\\/g, '/');
  if (ref === '') return 'missing';
  if (URL_SCHEME.test(ref)) return 'url';
  if (manifestDir === undefined) return 'no_directory';
  const root = resolve(manifestDir);
  const target = resolve(root, ref);
  if (!isInside(root, target)) return 'outside';
  if (!existsSync(target)) return 'missing';
  return fileInside(root, target);
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
    else checks.push({ segment: ref, reference: segment.contactSheet, location: locateSheet(segment.contactSheet, ctx.sidecars.manifestDir) });
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

// ---------------------------------------------------------------- opening_footer_text_presence

type OpeningTextState = 'footer' | 'unapproved_footer' | 'above_band' | 'no_box';

interface OpeningText {
  segment: SegmentRef;
  textIndex: number;
  text: OnScreenText;
  state: OpeningTextState;
}

function openingTextState(text: OnScreenText, bandTop: number): OpeningTextState {
  if (!text.box) return 'no_box';
  if (fallsBelow(boxBottom(text.box), bandTop)) return 'above_band';
  return text.approved === true ? 'footer' : 'unapproved_footer';
}

/** The closest miss decides the message: unapproved footer text, then text without a box, then text above the band. */
const NEAREST_MISS: OpeningTextState[] = ['unapproved_footer', 'no_box', 'above_band'];

function openingFooterMessage(nearest: OpeningText | undefined, bandTop: number, openingSeconds: number): { summary: string; instruction: string } {
  const band = `its bottom edge at or below ${pct(bandTop)} of the frame height`;
  if (!nearest) {
    return {
      summary: `No on-screen text is declared in the first ${openingSeconds} s`,
      instruction: `add footer text (a caption or lower third with ${band}) and declare it in onScreenText with its box and approved: true`,
    };
  }
  const text = quote(nearest.text.text);
  const field = textFieldPath(nearest.segment.index, nearest.textIndex);
  const where = `in ${segmentName(nearest.segment)}`;
  if (nearest.state === 'unapproved_footer') {
    return {
      summary: `Opening footer text ${text} ${where} is not approved`,
      instruction: `review ${text} and set approved: true on ${field} if it is meant to be there; otherwise replace it with approved footer text`,
    };
  }
  if (nearest.state === 'no_box') {
    return {
      summary: `Opening text ${text} ${where} declares no box, so it is not known to sit in the footer band`,
      instruction: `declare the box of ${text} on ${field}; if it is not in the footer band, move it down so ${band}`,
    };
  }
  const bottom = nearest.text.box ? boxBottom(nearest.text.box) : 0;
  return {
    summary: `Opening text ${text} ${where} sits above the footer band: its bottom edge is at ${pct(bottom)} of the height, the band starts at ${pct(bandTop)}`,
    instruction: `move ${text} (${field}) down, or add footer text, so ${band}, and update its box`,
  };
}

function openingFooterFlag(opening: SegmentRef[], texts: OpeningText[], bandTop: number, openingSeconds: number): FlagDraft {
  const nearest = NEAREST_MISS.map((state) => texts.find((t) => t.state === state)).find(Boolean);
  const target = nearest?.segment ?? opening[0];
  const { summary, instruction } = openingFooterMessage(nearest, bandTop, openingSeconds);
  const where = target ? ` in ${segmentName(target)}` : '';
  return {
    severity: 'WATCH',
    start: target?.start ?? 0,
    end: target ? Math.min(target.end, openingSeconds) : openingSeconds,
    summary: target ? `${summary}${nearest ? '' : ` (${segmentName(target)})`}` : `${summary}: the manifest declares no segment there`,
    evidence: {
      segment: target ?? null,
      openingSegments: opening,
      texts: texts.map((t) => ({ field: textFieldPath(t.segment.index, t.textIndex), text: t.text.text, box: t.text.box ? roundedBox(t.text.box) : null, approved: t.text.approved ?? null, state: t.state })),
      threshold: { openingSeconds, footerBandTop: bandTop },
    },
    repair: {
      action: 'add_footer_text',
      reachable: false,
      instruction: `In the first ${openingSeconds} s${where}: ${instruction}. Re-render the opening if the picture changes.`,
      verify: reRunWithManifest('opening_footer_text_presence', 'approved footer text in the opening and no opening_footer_text_presence flag'),
    },
  };
}

function openingFooterTextPresence(ctx: GateContext): GateResult {
  const manifest = manifestOrSkip(ctx, 'opening_footer_text_presence');
  if (!isManifest(manifest)) return manifest;
  const openingSeconds = threshold(ctx.thresholds, 'openingSeconds');
  const bandTop = threshold(ctx.thresholds, 'footerBandTop');
  const opening = manifest.segments.flatMap((s, i) => (s.start < openingSeconds ? [segmentRef(s, i)] : []));
  const texts: OpeningText[] = opening.flatMap((ref) =>
    (manifest.segments[ref.index].onScreenText ?? []).map((text, textIndex) => ({ segment: ref, textIndex, text, state: openingTextState(text, bandTop) })),
  );
  const footer = texts.find((t) => t.state === 'footer');
  const measurements = {
    openingSegments: opening.length,
    openingTexts: texts.length,
    approvedFooterTexts: texts.filter((t) => t.state === 'footer').length,
    footerText: footer ? footer.text.text : null,
  };
  return gateResult('opening_footer_text_presence', measurements, footer ? [] : [openingFooterFlag(opening, texts, bandTop, openingSeconds)]);
}

// ---------------------------------------------------------------- clean_segment_source_scrub

type ScrubFinding = 'defect' | 'not_clean' | 'undeclared';

interface ScrubRules {
  clean: Set<string>;
  defects: string[];
  requiredKinds: string[];
}

function scrubRules(th: GateThresholds): ScrubRules {
  return {
    clean: new Set(thresholdList(th, 'cleanStatuses').map((s) => phraseWords(s).join(' '))),
    defects: thresholdList(th, 'blockStatuses'),
    requiredKinds: thresholdList(th, 'scrubRequiredKinds'),
  };
}

/** Clean only when the whole status is a clean word ("not clean" is not clean); a defect word anywhere is a defect. */
function scrubFinding(segment: ManifestSegment, rules: ScrubRules): ScrubFinding | null {
  const status = segment.sourceScrub?.status;
  if (status === undefined) return segment.kind && rules.requiredKinds.includes(segment.kind) ? 'undeclared' : null;
  if (rules.clean.has(phraseWords(status).join(' '))) return null;
  const tokens = tokenize(status);
  return rules.defects.some((d) => findPhrase(tokens, d).length > 0) ? 'defect' : 'not_clean';
}

function scrubFlag(segment: ManifestSegment, ref: SegmentRef, finding: ScrubFinding): FlagDraft {
  const name = segmentName(ref);
  const status = segment.sourceScrub?.status ?? null;
  const span = spanText(ref.start, ref.end);
  const messages: Record<ScrubFinding, { summary: string; instruction: string; action: string }> = {
    defect: {
      summary: `Source of ${name} failed its scrub: status ${quote(status ?? '')}`,
      instruction: `Replace or clean the source of ${name} (re-generate or re-source the shot, or remove the watermark, logo or burnt-in text), re-render ${span}, then set sourceScrub.status to "clean".`,
      action: 're_render_segment',
    },
    not_clean: {
      summary: `Source of ${name} is not confirmed clean: status ${quote(status ?? '')}`,
      instruction: `Finish the scrub of ${name}: check the source for watermarks, logos and burnt-in text, fix what you find (re-render ${span}), and record the result as sourceScrub.status "clean".`,
      action: 'scrub_source',
    },
    undeclared: {
      summary: `Source of ${name} declares no scrub status (${segment.kind} segments must)`,
      instruction: `Check the source of ${name} for watermarks, logos and burnt-in text, fix what you find, and declare the result as sourceScrub: { "status": "clean" }.`,
      action: 'scrub_source',
    },
  };
  const m = messages[finding];
  return {
    severity: finding === 'defect' ? 'BLOCK' : 'WATCH',
    start: ref.start,
    end: ref.end,
    summary: m.summary,
    evidence: { segment: ref, field: fieldPath(ref.index, 'sourceScrub', 'status'), status, kind: segment.kind ?? null, finding },
    repair: { action: m.action, reachable: false, instruction: m.instruction, verify: reRunWithManifest('clean_segment_source_scrub', `no clean_segment_source_scrub flag for segments[${ref.index}]`) },
  };
}

function statusCounts(segments: ManifestSegment[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const s of segments) {
    const status = s.sourceScrub?.status;
    if (status === undefined) continue;
    const key = phraseWords(status).join(' ') || status.trim();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return Object.fromEntries([...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function cleanSegmentSourceScrub(ctx: GateContext): GateResult {
  const manifest = manifestOrSkip(ctx, 'clean_segment_source_scrub');
  if (!isManifest(manifest)) return manifest;
  const rules = scrubRules(ctx.thresholds);
  const flags: FlagDraft[] = [];
  const tally: Record<ScrubFinding, number> = { defect: 0, not_clean: 0, undeclared: 0 };
  manifest.segments.forEach((segment, index) => {
    const finding = scrubFinding(segment, rules);
    if (!finding) return;
    tally[finding]++;
    flags.push(scrubFlag(segment, segmentRef(segment, index), finding));
  });
  const declared = manifest.segments.filter((s) => s.sourceScrub !== undefined).length;
  return gateResult(
    'clean_segment_source_scrub',
    { segments: manifest.segments.length, declared, clean: declared - tally.defect - tally.not_clean, failed: tally.defect, notClean: tally.not_clean, undeclaredRequired: tally.undeclared, statuses: statusCounts(manifest.segments) },
    flags,
  );
}

// ---------------------------------------------------------------- asset_triage_reuse_manifest

/** `./shots\a.mp4` and `shots/a.mp4` name the same asset. */
function assetKey(name: string): string {
  return posix.normalize(name.trim().replace(/\\/g, '/'));
}

/** A triage entry matches by its normalised path; a bare file name in triage matches that file in any folder. */
function triageMatches(entry: string, key: string): boolean {
  const entryKey = assetKey(entry);
  if (entryKey === key) return true;
  return !entryKey.includes('/') && posix.basename(key) === entryKey;
}

interface AssetUses {
  key: string;
  visualFile: string;
  /** Separate uses: each is the run of consecutive segments that show the asset continuously. */
  uses: SegmentRef[][];
}

function collectUses(segments: ManifestSegment[], continuationGap: number): AssetUses[] {
  const byKey = new Map<string, AssetUses>();
  segments.forEach((segment, index) => {
    if (!segment.visualFile?.trim()) return;
    const key = assetKey(segment.visualFile);
    const ref = segmentRef(segment, index);
    const entry = byKey.get(key) ?? { key, visualFile: segment.visualFile, uses: [] };
    byKey.set(key, entry);
    const previous = segments[index - 1];
    const continues = previous?.visualFile?.trim() && assetKey(previous.visualFile) === key && !exceeds(segment.start - previous.end, continuationGap);
    if (continues) entry.uses[entry.uses.length - 1].push(ref);
    else entry.uses.push([ref]);
  });
  return [...byKey.values()];
}

function rejectedFlag(segment: ManifestSegment, ref: SegmentRef, entry: { index: number; value: string }): FlagDraft {
  const name = segmentName(ref);
  const file = quote(displayReference(segment.visualFile ?? ''));
  return {
    severity: 'BLOCK',
    start: ref.start,
    end: ref.end,
    summary: `${name} uses ${file}, which asset triage rejected`,
    evidence: {
      segment: ref,
      field: fieldPath(ref.index, 'visualFile'),
      visualFile: displayReference(segment.visualFile ?? ''),
      triageField: jsonPath(['assetTriage', 'rejected', entry.index]),
      rejected: displayReference(entry.value),
    },
    repair: {
      action: 'replace_asset',
      reachable: false,
      instruction: `Replace ${file} in ${name} with an accepted asset and re-render ${spanText(ref.start, ref.end)}; if the rejection was a mistake, remove it from assetTriage.rejected.`,
      verify: reRunWithManifest('asset_triage_reuse_manifest', `no asset_triage_reuse_manifest flag for segments[${ref.index}]`),
    },
  };
}

function useList(asset: AssetUses): SegmentRef[] {
  return asset.uses.map((run) => run[0]);
}

function undeclaredReuseFlag(asset: AssetUses): FlagDraft {
  const firstUses = useList(asset);
  const repeat = firstUses[1];
  const file = quote(displayReference(asset.visualFile));
  return {
    severity: 'WATCH',
    start: repeat.start,
    end: repeat.end,
    summary: `${file} is used ${firstUses.length} times (${listNames(firstUses)}) but assetTriage.reused does not list it; first repeat in ${segmentName(repeat)}`,
    evidence: { visualFile: displayReference(asset.visualFile), uses: firstUses.slice(0, EVIDENCE_SEGMENTS), segment: repeat, field: fieldPath(repeat.index, 'visualFile') },
    repair: {
      action: 'declare_reuse',
      reachable: true,
      instruction: `If reusing ${file} is deliberate, add it to assetTriage.reused; otherwise replace it in ${segmentName(repeat)} and the later uses with a fresh asset and re-render those spans.`,
      verify: reRunWithManifest('asset_triage_reuse_manifest', `no asset_triage_reuse_manifest flag for ${file}`),
    },
  };
}

function noTriageFlag(reused: AssetUses[]): FlagDraft {
  const repeats = reused.map((a) => useList(a)[1]);
  const first = repeats.reduce((a, b) => (b.start < a.start ? b : a));
  const files = reused.map((a) => quote(displayReference(a.visualFile)));
  return {
    severity: 'WATCH',
    start: first.start,
    end: first.end,
    summary: `The manifest reuses ${reused.length} asset${reused.length > 1 ? 's' : ''} (${files.slice(0, SUMMARY_SEGMENTS).join(', ')}${files.length > SUMMARY_SEGMENTS ? ', …' : ''}) but has no assetTriage section; first repeat in ${segmentName(first)}`,
    evidence: {
      field: 'assetTriage',
      reusedAssets: reused.slice(0, EVIDENCE_SEGMENTS).map((a) => ({ visualFile: displayReference(a.visualFile), uses: useList(a) })),
      segment: first,
    },
    repair: {
      action: 'declare_reuse',
      reachable: true,
      instruction: `Record the asset triage in the manifest: assetTriage.reused listing the deliberately reused assets (${files.join(', ')}) and assetTriage.rejected listing rejected ones; replace any reuse that was not deliberate.`,
      verify: reRunWithManifest('asset_triage_reuse_manifest', 'no asset_triage_reuse_manifest flag'),
    },
  };
}

function rejectedEntry(rejected: string[], key: string): { index: number; value: string } | null {
  const index = rejected.findIndex((r) => triageMatches(r, key));
  return index < 0 ? null : { index, value: rejected[index] };
}

function assetTriageReuse(ctx: GateContext): GateResult {
  const manifest = manifestOrSkip(ctx, 'asset_triage_reuse_manifest');
  if (!isManifest(manifest)) return manifest;
  const triage = manifest.assetTriage;
  const rejected = triage?.rejected ?? [];
  const assets = collectUses(manifest.segments, threshold(ctx.thresholds, 'continuationGapSeconds'));
  const flags: FlagDraft[] = [];
  manifest.segments.forEach((segment, index) => {
    const entry = segment.visualFile?.trim() ? rejectedEntry(rejected, assetKey(segment.visualFile)) : null;
    if (entry) flags.push(rejectedFlag(segment, segmentRef(segment, index), entry));
  });
  const reused = assets.filter((a) => a.uses.length > 1 && !rejectedEntry(rejected, a.key));
  const undeclared = triage ? reused.filter((a) => !triage.reused.some((r) => triageMatches(r, a.key))) : reused;
  if (!triage && reused.length) flags.push(noTriageFlag(reused));
  if (triage) flags.push(...undeclared.map(undeclaredReuseFlag));
  return gateResult(
    'asset_triage_reuse_manifest',
    {
      segmentsWithVisual: manifest.segments.filter((s) => s.visualFile?.trim()).length,
      distinctAssets: assets.length,
      reusedAssets: reused.length,
      undeclaredReuse: undeclared.length,
      rejectedInUse: flags.filter((f) => f.severity === 'BLOCK').length,
      triageDeclared: triage !== undefined,
    },
    byStart(flags),
  );
}

// ---------------------------------------------------------------- voiceover_music_balance

/** Meter series: value k is the window ending (k + 1) × 100 ms after the audio start. */
const SERIES_STEP_SECONDS = 0.1;
const SHORT_TERM_SECONDS = 3;
const MOMENTARY_SECONDS = 0.4;
/** Float slack when converting segment times to series steps. */
const STEP_TOLERANCE = 1e-6;

interface MeasuredLevel {
  measure: 'short-term' | 'momentary';
  /** Median of the windows inside the segment above the −70 LUFS gate; null when all of them are silent. */
  lufs: number | null;
  windows: number;
}

/** Windows of a meter series lying wholly inside [start, end] (media time). */
function windowsInside(series: (number | null)[], a: AudioSignals, start: number, end: number, width: number): (number | null)[] {
  const steps = (seconds: number) => (seconds - a.startSeconds) / SERIES_STEP_SECONDS;
  const first = Math.ceil(steps(start + width) - STEP_TOLERANCE) - 1;
  const last = Math.floor(steps(end) + STEP_TOLERANCE) - 1;
  return series.slice(Math.max(0, first), Math.max(0, Math.min(series.length, last + 1)));
}

/** The segment's level from the short-term series, or the momentary one when the segment is shorter than 3 s. */
function measuredLevel(a: AudioSignals, ref: SegmentRef): MeasuredLevel | null {
  const candidates: [MeasuredLevel['measure'], (number | null)[], number][] = [
    ['short-term', a.loudness.shortTerm, SHORT_TERM_SECONDS],
    ['momentary', a.loudness.momentary, MOMENTARY_SECONDS],
  ];
  for (const [measure, series, width] of candidates) {
    const windows = windowsInside(series, a, ref.start, ref.end, width);
    if (windows.length === 0) continue;
    const audible = windows.filter((v): v is number => v !== null);
    return { measure, lufs: audible.length ? round(median(audible), 1) : null, windows: windows.length };
  }
  return null;
}

const powerSumDb = (levels: number[]) => 10 * Math.log10(levels.reduce((sum, db) => sum + 10 ** (db / 10), 0));

function marginPhrase(margin: number): string {
  if (margin > 0) return `Voice is only ${fixed1(margin)} dB above the music`;
  return margin === 0 ? 'Voice and music are equally loud' : `Music is ${fixed1(-margin)} dB louder than the voice`;
}

function balanceFlag(ref: SegmentRef, voice: number, music: number, severity: Severity, th: GateThresholds): FlagDraft {
  const name = segmentName(ref);
  const margin = round(voice - music, 1);
  const watch = threshold(th, 'watchBelowDb');
  const lowerBy = round(watch - margin, 1);
  return {
    severity,
    start: ref.start,
    end: ref.end,
    summary: `${marginPhrase(margin)} in ${name} (mix.voiceDb ${voice}, mix.musicDb ${music}); ${watch} dB or more keeps speech clear`,
    evidence: { segment: ref, field: fieldPath(ref.index, 'mix'), voiceDb: voice, musicDb: music, marginDb: margin, threshold: thresholdValues(th, ['watchBelowDb', 'blockBelowDb']) },
    repair: {
      action: 'rebalance_mix',
      reachable: false,
      instruction: `Lower the music under ${name} by at least ${fixed1(lowerBy)} dB (to ${fixed1(voice - watch)} dB or below, ${watch} dB under the voice) or duck it while the voice speaks, re-render the mix for ${spanText(ref.start, ref.end)} and update mix.musicDb.`,
      verify: reRunWithManifest('voiceover_music_balance', `no voiceover_music_balance flag for segments[${ref.index}]`),
    },
  };
}

function mismatchFlag(ref: SegmentRef, voice: number, music: number | undefined, measured: MeasuredLevel, mismatchDb: number): FlagDraft {
  const name = segmentName(ref);
  const expected = round(powerSumDb(music === undefined ? [voice] : [voice, music]), 1);
  const declared = music === undefined ? `voice ${voice} dB` : `voice ${voice} dB + music ${music} dB ≈ ${fixed1(expected)} dB`;
  const heard = measured.lufs === null ? 'silence' : `${fixed1(measured.lufs)} LUFS (median ${measured.measure} loudness)`;
  return {
    severity: 'WATCH',
    start: ref.start,
    end: ref.end,
    summary: `Mix metadata does not match the render in ${name}: declared ${declared}, measured ${heard}`,
    evidence: {
      segment: ref,
      field: fieldPath(ref.index, 'mix'),
      voiceDb: voice,
      musicDb: music ?? null,
      declaredMixDb: expected,
      measuredLufs: measured.lufs,
      measure: measured.measure,
      windows: measured.windows,
      differenceDb: measured.lufs === null ? null : round(measured.lufs - expected, 1),
      threshold: { renderMismatchDb: mismatchDb },
    },
    repair: {
      action: 'check_mix_metadata',
      reachable: false,
      instruction: `Check that the mix levels of ${name} describe this render (same export, same scale, LUFS or dBFS): correct mix.voiceDb/mix.musicDb in the manifest, or re-export the mix of ${spanText(ref.start, ref.end)} if the render is wrong.`,
      verify: reRunWithManifest('voiceover_music_balance', `no voiceover_music_balance flag for segments[${ref.index}]`),
    },
  };
}

function balanceSeverity(margin: number, th: GateThresholds): Severity | null {
  return severityBand(margin, threshold(th, 'watchBelowDb'), threshold(th, 'blockBelowDb'), fallsBelow);
}

interface MixComparison {
  flag: FlagDraft | null;
  differenceDb: number | null;
}

function compareWithRender(a: AudioSignals, ref: SegmentRef, voice: number, music: number | undefined, mismatchDb: number): MixComparison | null {
  const measured = measuredLevel(a, ref);
  if (!measured) return null;
  const expected = powerSumDb(music === undefined ? [voice] : [voice, music]);
  const difference = measured.lufs === null ? null : round(measured.lufs - expected, 1);
  const mismatch = difference === null || exceeds(Math.abs(difference), mismatchDb);
  return { flag: mismatch ? mismatchFlag(ref, voice, music, measured, mismatchDb) : null, differenceDb: difference };
}

function voiceoverMusicBalance(ctx: GateContext): GateResult {
  const manifest = manifestOrSkip(ctx, 'voiceover_music_balance');
  if (!isManifest(manifest)) return manifest;
  const th = ctx.thresholds;
  const audio = ctx.signals.audio;
  const withMix = manifest.segments.flatMap((s, i) => (s.mix && (s.mix.voiceDb !== undefined || s.mix.musicDb !== undefined) ? [{ segment: s, ref: segmentRef(s, i) }] : []));
  const measurements: Record<string, unknown> = { segments: manifest.segments.length, segmentsWithMix: withMix.length };
  if (withMix.length === 0) return { gate: 'voiceover_music_balance', status: 'skipped', reason: 'needs mix levels (segments[].mix.voiceDb and musicDb) in the manifest', measurements, flags: [] };
  const flags: FlagDraft[] = [];
  const margins: number[] = [];
  const differences: number[] = [];
  let compared = 0;
  for (const { segment, ref } of withMix) {
    const { voiceDb: voice, musicDb: music } = segment.mix ?? {};
    if (voice !== undefined && music !== undefined) {
      margins.push(voice - music);
      const severity = balanceSeverity(round(voice - music, 1), th);
      if (severity) flags.push(balanceFlag(ref, voice, music, severity, th));
    }
    const comparison = audio && voice !== undefined ? compareWithRender(audio, ref, voice, music, threshold(th, 'renderMismatchDb')) : null;
    if (!comparison) continue;
    compared++;
    if (comparison.differenceDb !== null) differences.push(comparison.differenceDb);
    if (comparison.flag) flags.push(comparison.flag);
  }
  Object.assign(measurements, {
    segmentsWithBalance: margins.length,
    lowestVoiceOverMusicDb: margins.length ? round(Math.min(...margins), 1) : null,
    renderComparison: audio ? 'measured short-term loudness per segment' : 'not possible: the file has no audio',
    segmentsComparedWithRender: compared,
    largestRenderDifferenceDb: differences.length ? differences.reduce((a, b) => (Math.abs(b) > Math.abs(a) ? b : a)) : null,
  });
  return gateResult('voiceover_music_balance', measurements, flags);
}

// ---------------------------------------------------------------- text_crop_jitter

function cutFlag(d: DeclaredText, th: GateThresholds): FlagDraft | null {
  const crossed = frameOverhangs(d.box).filter((e) => exceeds(e.overhang, 0));
  if (crossed.length === 0) return null;
  const worst = Math.max(...crossed.map((e) => e.overhang));
  const severity: Severity = exceeds(worst, threshold(th, 'edgeOverhangBlockFraction')) ? 'BLOCK' : 'WATCH';
  const name = segmentName(d.segment);
  const text = quote(d.text);
  const edges = crossed.length > 1 ? `${crossed.map((e) => e.edge).join(' and ')} edges` : `${crossed[0].edge} edge`;
  return {
    severity,
    start: d.segment.start,
    end: d.segment.end,
    summary: `${text} in ${name} is cut by the ${edges} of the frame (its box reaches ${pct(worst)} past it)`,
    evidence: { segment: d.segment, ...textEvidence(d), edges: crossed.map((e) => ({ edge: e.edge, overhangFraction: round(e.overhang, 4) })), threshold: thresholdValues(th, ['edgeOverhangBlockFraction']) },
    repair: {
      action: 'move_text',
      reachable: false,
      instruction: `Move or shrink ${text} in ${name} so its whole box is inside the frame (now ${boxText(d.box)}), ideally inside the 90 % graphics-safe area, re-render ${spanText(d.segment.start, d.segment.end)} and update the box.`,
      verify: reRunWithManifest('text_crop_jitter', `no text_crop_jitter flag for ${textFieldPath(d.segment.index, d.textIndex)}`),
    },
  };
}

function jitterFlag(before: DeclaredText, after: DeclaredText, shift: number, th: GateThresholds): FlagDraft {
  const text = quote(after.text);
  const cut = hms(after.segment.start);
  return {
    severity: 'WATCH',
    start: after.segment.start,
    end: after.segment.end,
    summary: `${text} jumps by ${pct(shift)} of the frame at ${cut}, from ${segmentName(before.segment)} to ${segmentName(after.segment)}`,
    evidence: {
      segment: after.segment,
      previousSegment: before.segment,
      text: after.text,
      fields: [textFieldPath(before.segment.index, before.textIndex), textFieldPath(after.segment.index, after.textIndex)],
      boxBefore: roundedBox(before.box),
      boxAfter: roundedBox(after.box),
      shiftFraction: round(shift, 4),
      threshold: thresholdValues(th, ['jitterWatchFraction', 'intentionalMoveFraction', 'adjacentGapSeconds']),
    },
    repair: {
      action: 'align_text',
      reachable: false,
      instruction: `Give ${text} the same box in segments[${before.segment.index}] and segments[${after.segment.index}] (before ${boxText(before.box)}, after ${boxText(after.box)}) so it does not jump at ${cut}, and re-render ${spanText(after.segment.start, after.segment.end)}; if the move is meant, make it a clear reposition or an animated move.`,
      verify: reRunWithManifest('text_crop_jitter', `no text_crop_jitter flag at ${cut}`),
    },
  };
}

interface JitterScan {
  flags: FlagDraft[];
  compared: number;
  largestShift: number;
}

/** The same text in back-to-back segments: a small shift of its box is jitter, a large one a deliberate move. */
function scanJitter(segments: ManifestSegment[], th: GateThresholds): JitterScan {
  const scan: JitterScan = { flags: [], compared: 0, largestShift: 0 };
  const watch = threshold(th, 'jitterWatchFraction');
  const intentional = threshold(th, 'intentionalMoveFraction');
  for (let i = 1; i < segments.length; i++) {
    if (exceeds(segments[i].start - segments[i - 1].end, threshold(th, 'adjacentGapSeconds'))) continue;
    const before = new Map<string, DeclaredText>();
    for (const d of boxedTexts(segments[i - 1], i - 1)) if (!before.has(textKey(d.text))) before.set(textKey(d.text), d);
    for (const after of boxedTexts(segments[i], i)) {
      const previous = before.get(textKey(after.text));
      if (!previous) continue;
      before.delete(textKey(after.text));
      const shift = boxShift(previous.box, after.box);
      scan.compared++;
      scan.largestShift = Math.max(scan.largestShift, shift);
      if (exceeds(shift, watch) && fallsBelow(shift, intentional)) scan.flags.push(jitterFlag(previous, after, shift, th));
    }
  }
  return scan;
}

function textCropJitter(ctx: GateContext): GateResult {
  return declaredAndRead(ctx, 'text_crop_jitter', (m) => declaredCropJitter(m, ctx.thresholds), (text) => pixelCropJitter(text, ctx.thresholds));
}

function declaredCropJitter(manifest: Manifest, th: GateThresholds): GateResult {
  const texts = manifest.segments.flatMap(boxedTexts);
  const cuts = texts.map((d) => cutFlag(d, th)).filter((f): f is FlagDraft => f !== null);
  const jitter = scanJitter(manifest.segments, th);
  return gateResult(
    'text_crop_jitter',
    {
      boxesChecked: texts.length,
      textsWithoutBox: countBoxless(manifest.segments),
      cutBoxes: cuts.length,
      pairsCompared: jitter.compared,
      jitterShifts: jitter.flags.length,
      largestShiftFraction: round(jitter.largestShift, 4),
    },
    byStart([...cuts, ...jitter.flags]),
  );
}

// ---------------------------------------------------------------- text_overlap

function overlapFlag(a: DeclaredText, b: DeclaredText, ratio: number, severity: Severity, th: GateThresholds): FlagDraft {
  const name = segmentName(a.segment);
  const [ta, tb] = [quote(a.text), quote(b.text)];
  return {
    severity,
    start: a.segment.start,
    end: a.segment.end,
    summary: `${ta} and ${tb} overlap in ${name}: ${pct(ratio)} of the smaller box is covered`,
    evidence: { segment: a.segment, texts: [textEvidence(a), textEvidence(b)], overlapRatio: round(ratio, 3), threshold: thresholdValues(th, ['overlapWatchRatio', 'overlapBlockRatio']) },
    repair: {
      action: 'move_text',
      reachable: false,
      instruction: `Move or shrink ${ta} (${boxText(a.box)}) or ${tb} (${boxText(b.box)}) in ${name} so their boxes no longer overlap, or merge them into one text block; re-render ${spanText(a.segment.start, a.segment.end)} and update the boxes.`,
      verify: reRunWithManifest('text_overlap', `no text_overlap flag for segments[${a.segment.index}]`),
    },
  };
}

function overlapFlags(texts: DeclaredText[], th: GateThresholds): { flags: FlagDraft[]; pairs: number; largest: number } {
  const out = { flags: [] as FlagDraft[], pairs: 0, largest: 0 };
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      const [a, b] = [texts[i], texts[j]];
      const smaller = Math.min(boxArea(a.box), boxArea(b.box));
      if (smaller <= 0) continue;
      out.pairs++;
      const ratio = intersectionArea(a.box, b.box) / smaller;
      out.largest = Math.max(out.largest, ratio);
      const severity = severityBand(ratio, threshold(th, 'overlapWatchRatio'), threshold(th, 'overlapBlockRatio'), exceeds, reaches);
      if (severity) out.flags.push(overlapFlag(a, b, ratio, severity, th));
    }
  }
  return out;
}

function uiZoneFlag(d: DeclaredText, { share, severity, zones }: UnderUi, z: UiZones, th: GateThresholds): FlagDraft {
  const name = segmentName(d.segment);
  const text = quote(d.text);
  const clear = `x ${pct(z.side)}-${pct(1 - z.side)}, y ${pct(z.top)}-${pct(1 - z.bottom)}`;
  return {
    severity,
    start: d.segment.start,
    end: d.segment.end,
    summary: `${text} in ${name} lies ${pct(share)} under the 9:16 platform UI zones (${zones.join(', ')})`,
    evidence: {
      segment: d.segment,
      ...textEvidence(d),
      shareUnderUi: round(share, 3),
      zones,
      threshold: thresholdValues(th, UI_ZONE_KEYS),
    },
    repair: {
      action: 'move_text',
      reachable: false,
      instruction: `Move ${text} in ${name} into the area clear of platform UI (${clear} of the frame; now ${boxText(d.box)}), shrinking it if needed; re-render ${spanText(d.segment.start, d.segment.end)} and update the box.`,
      verify: reRunWithManifest('text_overlap', `no text_overlap flag for ${textFieldPath(d.segment.index, d.textIndex)}`),
    },
  };
}

function uiZoneFlags(texts: DeclaredText[], z: UiZones, th: GateThresholds): FlagDraft[] {
  return texts.flatMap((d) => {
    const under = underUi(d.box, z, th);
    return under ? [uiZoneFlag(d, under, z, th)] : [];
  });
}

function textOverlap(ctx: GateContext): GateResult {
  return declaredAndRead(ctx, 'text_overlap', (m) => declaredOverlap(m, ctx.thresholds), (text) => pixelOverlap(text, ctx.thresholds));
}

function declaredOverlap(manifest: Manifest, th: GateThresholds): GateResult {
  const zones = uiZones(th);
  const flags: FlagDraft[] = [];
  let pairs = 0;
  let largest = 0;
  let underUi = 0;
  manifest.segments.forEach((segment, index) => {
    const texts = boxedTexts(segment, index);
    const overlaps = overlapFlags(texts, th);
    const ui = zones ? uiZoneFlags(texts, zones, th) : [];
    pairs += overlaps.pairs;
    largest = Math.max(largest, overlaps.largest);
    underUi += ui.length;
    flags.push(...overlaps.flags, ...ui);
  });
  return gateResult(
    'text_overlap',
    {
      boxesChecked: manifest.segments.reduce((n, s, i) => n + boxedTexts(s, i).length, 0),
      textsWithoutBox: countBoxless(manifest.segments),
      pairsChecked: pairs,
      overlappingPairs: flags.length - underUi,
      largestOverlapRatio: round(largest, 3),
      uiZones: uiZonesMeasurement(zones),
      boxesUnderUi: underUi,
      source: 'declared boxes in the manifest',
    },
    flags,
  );
}

// ---------------------------------------------------------------- hallucinated_plate_text

function plateTextFlag(ref: SegmentRef, text: OnScreenText, textIndex: number): FlagDraft {
  const name = segmentName(ref);
  const field = textFieldPath(ref.index, textIndex);
  const hasWords = tokenize(text.text).length > 0;
  const shown = quote(text.text);
  return {
    severity: hasWords ? 'BLOCK' : 'WATCH',
    start: ref.start,
    end: ref.end,
    summary: hasWords
      ? `Generated plate ${name} shows unapproved text ${shown}`
      : `Generated plate ${name} declares unapproved text without readable words (${shown})`,
    evidence: { segment: ref, field, text: text.text, approved: text.approved ?? null, box: text.box ? roundedBox(text.box) : null },
    repair: {
      action: 're_render_plate',
      reachable: false,
      instruction: `Re-generate the plate of ${name} without the lettering ${shown} (or paint it out) and re-render ${spanText(ref.start, ref.end)}; if the text is meant to be there, set approved: true on ${field}.`,
      verify: reRunWithManifest('hallucinated_plate_text', `no hallucinated_plate_text flag for ${field}`),
    },
  };
}

function hallucinatedPlateText(ctx: GateContext): GateResult {
  return declaredAndRead(ctx, 'hallucinated_plate_text', declaredPlateText, (text) => pixelPlateText(text, ctx.sidecars.manifest ?? null, ctx.thresholds));
}

function declaredPlateText(manifest: Manifest): GateResult {
  const plates = manifest.segments.flatMap((s, i) => (s.kind === 'generated_plate' ? [{ segment: s, ref: segmentRef(s, i) }] : []));
  const flags = plates.flatMap(({ segment, ref }) =>
    (segment.onScreenText ?? []).flatMap((text, textIndex) => (text.approved === true ? [] : [plateTextFlag(ref, text, textIndex)])),
  );
  const declared = plates.filter(({ segment }) => (segment.onScreenText ?? []).length > 0).length;
  const texts = plates.reduce((n, { segment }) => n + (segment.onScreenText ?? []).length, 0);
  return gateResult(
    'hallucinated_plate_text',
    {
      plates: plates.length,
      platesWithDeclaredText: declared,
      platesWithoutDeclaredText: plates.length - declared,
      approvedTexts: texts - flags.length,
      unapprovedTexts: flags.length,
    },
    flags,
  );
}

// ---------------------------------------------------------------- definitions

export const manifestMediaGates: GateDefinition[] = [
  defineGate({
    id: 'contact_sheet_evidence',
    area: 'structure',
    title: 'Contact-sheet evidence exists',
    algorithm:
      "Each segment's contactSheet is resolved against the folder of the manifest file: a missing file, a blank reference or one leading outside that folder (\"..\", absolute paths, symbolic links out) is BLOCK for that segment. " +
      'URLs are not fetched (WATCH, not verifiable); a manifest given inline has no folder, so its references are WATCH, not verifiable. ' +
      'Segments that declare no contact sheet are one WATCH (also when none does). Flags quote the declared reference, never a server path.',
    requires: { kinds: ['video'], sidecars: ['manifest'] },
    thresholds: (delivery) => manifestMediaThresholds(delivery).contact_sheet_evidence ?? {},
    run: contactSheetEvidence,
  }),
  defineGate({
    id: 'opening_footer_text_presence',
    area: 'structure',
    title: 'Opening footer text present',
    algorithm:
      'The opening is every segment starting within the first openingSeconds. It passes when one of them declares on-screen text that is approved (approved: true) and whose box reaches the footer band ' +
      '(bottom edge y + h at or below footerBandTop of the height; for 9:16 delivery the band is the lower half, since the bottom 35 % is under platform UI). ' +
      'Otherwise one WATCH names the closest miss: footer text not approved, text without a box, text above the band, or no text (or no segment) at all.',
    requires: { kinds: ['video'], sidecars: ['manifest'] },
    thresholds: (delivery) => manifestMediaThresholds(delivery).opening_footer_text_presence ?? {},
    run: openingFooterTextPresence,
  }),
  defineGate({
    id: 'clean_segment_source_scrub',
    area: 'structure',
    title: 'Segment sources scrubbed clean',
    algorithm:
      "Each segment's sourceScrub.status is read as words (case and punctuation ignored). A status that is exactly one of cleanStatuses passes; one naming a defect word or phrase of blockStatuses " +
      '(e.g. "watermark detected", "failed") is BLOCK; any other status (e.g. pending, "not clean") is WATCH. Segments of scrubRequiredKinds without a status are WATCH; other kinds may omit it.',
    requires: { kinds: ['video'], sidecars: ['manifest'] },
    thresholds: (delivery) => manifestMediaThresholds(delivery).clean_segment_source_scrub ?? {},
    run: cleanSegmentSourceScrub,
  }),
  defineGate({
    id: 'asset_triage_reuse_manifest',
    area: 'structure',
    title: 'Asset triage and reuse recorded',
    algorithm:
      'visualFile names are compared as normalised relative paths (a bare file name in the triage lists matches that file in any folder). A segment using an asset in assetTriage.rejected is BLOCK. ' +
      'An asset used again after other picture (back-to-back segments of one file within continuationGapSeconds are one use) is a reuse: WATCH when assetTriage.reused does not list it, ' +
      'and a single WATCH when the manifest reuses assets but has no assetTriage section at all.',
    requires: { kinds: ['video'], sidecars: ['manifest'] },
    thresholds: (delivery) => manifestMediaThresholds(delivery).asset_triage_reuse_manifest ?? {},
    run: assetTriageReuse,
  }),
  defineGate({
    id: 'voiceover_music_balance',
    area: 'audio',
    title: 'Voice-over against music balance',
    algorithm:
      'Per segment with mix.voiceDb and mix.musicDb: voice less than watchBelowDb above the music is WATCH, less than blockBelowDb BLOCK. When the file has audio, each segment declaring voiceDb is compared with the render: ' +
      'the median short-term loudness (3 s windows wholly inside the segment; 400 ms momentary windows for segments under 3 s) against the power sum of the declared voice and music levels; ' +
      'a difference over renderMismatchDb, or silence where a voice is declared, is WATCH (the mix metadata does not match the render). No mix levels in the manifest: skipped.',
    requires: { kinds: ['video', 'audio'], signals: ['audio'], sidecars: [{ sidecar: 'manifest', part: 'mix metadata' }] },
    thresholds: (delivery) => manifestMediaThresholds(delivery).voiceover_music_balance ?? {},
    run: voiceoverMusicBalance,
  }),
  defineGate({
    id: 'text_crop_jitter',
    area: 'text',
    title: 'Text cut by the frame edge or jittering',
    algorithm:
      'From the declared on-screen text boxes (fractions of the frame): a box past a frame edge (x < 0, y < 0, x + w > 1, y + h > 1) cuts the text, BLOCK when the overhang exceeds edgeOverhangBlockFraction, WATCH below. ' +
      'The same text (normalised words) in back-to-back segments (gap ≤ adjacentGapSeconds) whose box edges move by more than jitterWatchFraction but less than intentionalMoveFraction jumps at the cut: WATCH. ' +
      'Read text (OCR): a line whose box comes within edgeTouchFraction of a frame edge is cut (BLOCK); the same words moving by more than pixelJitterWatchFraction (and less than intentionalMoveFraction) between neighbouring readings (a sample and its confirming frame half a second later, or consecutive samples), other than in a steady one-way move (a crawl), jitter: WATCH.',
    requires: { kinds: ['video', 'image'], signals: ['text'], orSidecar: 'manifest' },
    thresholds: (delivery) => manifestMediaThresholds(delivery).text_crop_jitter ?? {},
    run: textCropJitter,
  }),
  defineGate({
    id: 'text_overlap',
    area: 'text',
    title: 'Text boxes overlapping each other or UI zones',
    algorithm:
      'From the declared on-screen text boxes of each segment: two boxes whose intersection covers more than overlapWatchRatio of the smaller box are WATCH, at least overlapBlockRatio BLOCK. ' +
      'For 9:16 delivery profiles, the share of each box under the approximate platform UI zones (top, bottom and side bands) above uiZoneWatchShare is WATCH, at least uiZoneBlockShare BLOCK. ' +
      'Read text (OCR): two lines read in the same sample whose boxes overlap are judged by the same ratios. Read text under the 9:16 UI zones is reported once, by text_safe_area.',
    requires: { kinds: ['video', 'image'], signals: ['text'], orSidecar: 'manifest' },
    thresholds: (delivery) => manifestMediaThresholds(delivery).text_overlap ?? {},
    run: textOverlap,
  }),
  defineGate({
    id: 'hallucinated_plate_text',
    area: 'text',
    title: 'Unapproved text in generated plates',
    algorithm:
      'Every on-screen text declared on a generated_plate segment must carry approved: true; unapproved text with words is BLOCK (quoted), unapproved text without readable words WATCH. ' +
      'Read text (OCR): a line that no approved declared text of an overlapping segment matches (approvedSimilarity) and whose words are mostly not real words (fewer than realWordShare dictionary words, numbers or short acronyms among its words of three or more letters) is BLOCK on a generated_plate segment and WATCH elsewhere or without a manifest.',
    requires: { kinds: ['video', 'image'], signals: ['text'], orSidecar: 'manifest' },
    thresholds: (delivery) => manifestMediaThresholds(delivery).hallucinated_plate_text ?? {},
    run: hallucinatedPlateText,
  }),
];
