// asset_triage_reuse_manifest: rejected assets in use, and reused assets the triage does not list.
import { posix } from 'node:path';
import { t } from '../../profiles/threshold-values.js';
import type { ManifestSegment } from '../../sidecars/formats/manifest.js';
import { jsonPath } from '../../sidecars/formats/json-path.js';
import type { FlagDraft, GateContext, GateResult, GateThresholds } from '../../types.js';
import { defineGate } from '../define.js';
import { exceeds } from '../kit/bands.js';
import { byStart, displayReference, EVIDENCE_SEGMENTS, fieldPath, listNames, manifestOrSkip, isManifest, segmentName, segmentRef, SUMMARY_SEGMENTS, type SegmentRef } from '../kit/manifest-refs.js';
import { gateResult } from '../kit/result.js';
import { threshold } from '../kit/thresholds.js';
import { quote, reRunWithManifest, spanText } from '../kit/wording.js';

function assetTriageReuseThresholds(): GateThresholds {
  return {
    continuationGapSeconds: t(
      0.1,
      's',
      'Preflight house rule: consecutive segments of the same file less than 0.1 s apart are one continuous use (a shot split by the manifest), not a reuse',
      'house',
    ),
  };
}

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

export const assetTriageReuseManifestGate = defineGate({
  id: 'asset_triage_reuse_manifest',
  area: 'structure',
  title: 'Asset triage and reuse recorded',
  algorithm:
    'visualFile names are compared as normalised relative paths (a bare file name in the triage lists matches that file in any folder). A segment using an asset in assetTriage.rejected is BLOCK. ' +
    'An asset used again after other picture (back-to-back segments of one file within continuationGapSeconds are one use) is a reuse: WATCH when assetTriage.reused does not list it, ' +
    'and a single WATCH when the manifest reuses assets but has no assetTriage section at all.',
  requires: { kinds: ['video'], sidecars: ['manifest'] },
  thresholds: assetTriageReuseThresholds,
  run: assetTriageReuse,
});
