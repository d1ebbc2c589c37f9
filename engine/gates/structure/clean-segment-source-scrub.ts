// clean_segment_source_scrub: every segment source scrubbed of watermarks, logos and burnt-in text, as declared.
import { t } from '../../profiles/threshold-values.js';
import type { ManifestSegment } from '../../sidecars/formats/manifest.js';
import { findPhrase, tokenize, wordsKey } from '../../text/match.js';
import type { FlagDraft, GateContext, GateResult, GateThresholds } from '../../types.js';
import { defineGate } from '../define.js';
import { fieldPath, manifestOrSkip, isManifest, segmentName, segmentRef, type SegmentRef } from '../kit/manifest-refs.js';
import { gateResult } from '../kit/result.js';
import { thresholdList } from '../kit/thresholds.js';
import { quote, reRunWithManifest, spanText } from '../kit/wording.js';

function cleanSegmentSourceScrubThresholds(): GateThresholds {
  return {
    cleanStatuses: t(['clean', 'scrubbed', 'ok'], 'status', 'Preflight house rule: statuses (whole words, case and punctuation ignored) that mean the source was checked and is clean', 'house'),
    blockStatuses: t(
      ['dirty', 'failed', 'fail', 'rejected', 'watermark', 'watermarked', 'logo', 'burnt in text', 'burned in text'],
      'status words',
      'Preflight house rule: a status naming one of these words or phrases reports a known defect of the source (BLOCK); any other unclean status is WATCH',
      'house',
    ),
    scrubRequiredKinds: t(
      ['generated_plate', 'b_roll'],
      'segment kinds',
      'Preflight house rule: generated and third-party footage is where watermarks, logos and burnt-in text come from, so these kinds must declare a scrub status',
      'house',
    ),
  };
}

type ScrubFinding = 'defect' | 'not_clean' | 'undeclared';

interface ScrubRules {
  clean: Set<string>;
  defects: string[];
  requiredKinds: string[];
}

function scrubRules(th: GateThresholds): ScrubRules {
  return {
    clean: new Set(thresholdList(th, 'cleanStatuses').map((s) => wordsKey(s))),
    defects: thresholdList(th, 'blockStatuses'),
    requiredKinds: thresholdList(th, 'scrubRequiredKinds'),
  };
}

/** Clean only when the whole status is a clean word ("not clean" is not clean); a defect word anywhere is a defect. */
function scrubFinding(segment: ManifestSegment, rules: ScrubRules): ScrubFinding | null {
  const status = segment.sourceScrub?.status;
  if (status === undefined) return segment.kind && rules.requiredKinds.includes(segment.kind) ? 'undeclared' : null;
  if (rules.clean.has(wordsKey(status))) return null;
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
    const key = wordsKey(status) || status.trim();
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

export const cleanSegmentSourceScrubGate = defineGate({
  id: 'clean_segment_source_scrub',
  area: 'structure',
  title: 'Segment sources scrubbed clean',
  algorithm:
    "Each segment's sourceScrub.status is read as words (case and punctuation ignored). A status that is exactly one of cleanStatuses passes; one naming a defect word or phrase of blockStatuses " +
    '(e.g. "watermark detected", "failed") is BLOCK; any other status (e.g. pending, "not clean") is WATCH. Segments of scrubRequiredKinds without a status are WATCH; other kinds may omit it.',
  requires: { kinds: ['video'], sidecars: ['manifest'] },
  thresholds: cleanSegmentSourceScrubThresholds,
  run: cleanSegmentSourceScrub,
});
