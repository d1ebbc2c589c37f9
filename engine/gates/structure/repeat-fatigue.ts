// repeat_fatigue: the same shot used again (declared by file, or by source family and description) and, when the
// video was decoded, near-identical picture sequences, named by the manifest segments at both times.
import { isVerticalDelivery, t } from '../../profiles/threshold-values.js';
import type { Manifest } from '../../sidecars/formats/manifest.js';
import type { FlagDraft, GateThresholds, VideoSignals } from '../../types.js';
import { wordsKey } from '../../text/match.js';
import { defineGate } from '../define.js';
import { fallsBelow, severityBand } from '../kit/bands.js';
import { gateResult } from '../kit/result.js';
import { round } from '../kit/stats.js';
import { threshold, thresholdValues } from '../kit/thresholds.js';
import { spanText } from '../kit/wording.js';
import { CONTIGUOUS_EPSILON, excerpt, quoted, segmentAt, segmentLabel, segmentPath, segmentRef, undeclared, verify, withManifest, worse, type Segment } from './manifest-segments.js';

function repeatFatigueThresholds(short: boolean): GateThresholds {
  return {
    watchUses: t(
      short ? 2 : 3,
      'uses',
      short
        ? 'Preflight house rule: a short is seen end to end, often on loop, so any second use of the same shot is noticed'
        : 'Preflight house rule: a third use of the same shot in one programme reads as filler',
      'house',
    ),
    blockUses: t(
      short ? 3 : 5,
      'uses',
      short
        ? 'Preflight house rule: three uses of one shot in under three minutes is recycled footage'
        : 'Preflight house rule: five uses of one shot is recycled footage, not a motif',
      'house',
    ),
    minReuseGapSeconds: t(
      short ? 10 : 30,
      's',
      'Preflight house rule: a shot coming back this soon after it left is still in the viewer’s memory (contiguous segments of one shot count as one use)',
      'house',
    ),
    pictureRepeatWatchSeconds: t(
      short ? 1.0 : 2.0,
      's',
      'Preflight house rule: a near-identical picture sequence this long is a recognisable reused shot (loop_freeze’s 1 s floor is for loops; reuse needs a whole shot)',
      'house',
    ),
    pictureRepeatBlockSeconds: t(
      short ? 3.0 : 6.0,
      's',
      'Preflight house rule: a repeated picture sequence this long is an obviously recycled shot',
      'house',
    ),
  };
}

/** The keys under which two segments count as the same shot: the same file, or the same source family and description. */
function shotKeys(segment: Segment): string[] {
  // Talking-head segments cut from one camera recording are one continuous take, not a reused shot.
  if (segment.kind === 'talking_head') return [];
  const keys: string[] = [];
  const file = segment.visualFile ? normaliseAssetPath(segment.visualFile) : '';
  if (file) keys.push(`file:${file}`);
  const family = segment.sourceFamily ? wordsKey(segment.sourceFamily) : '';
  const description = segment.description ? wordsKey(segment.description) : '';
  if (family && description) keys.push(`shot:${family}|${description}`);
  return keys;
}

function normaliseAssetPath(path: string): string {
  return path.trim().replace(/\\/g, '/').replace(/^(\.\/)+/, '');
}

/** For each segment, the id of its shot group (segments sharing either key are one shot); −1 for segments without identity. */
function shotGroupOf(segments: Segment[]): number[] {
  const parent = segments.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const firstWithKey = new Map<string, number>();
  const keyed = segments.map((s, i) => {
    const keys = shotKeys(s);
    for (const key of keys) {
      const seen = firstWithKey.get(key);
      if (seen === undefined) firstWithKey.set(key, i);
      else parent[find(i)] = find(seen);
    }
    return keys.length > 0;
  });
  return segments.map((_, i) => (keyed[i] ? find(i) : -1));
}

function shotGroups(groupOf: number[]): number[][] {
  const groups = new Map<number, number[]>();
  groupOf.forEach((group, index) => {
    if (group < 0) return;
    const members = groups.get(group) ?? [];
    members.push(index);
    groups.set(group, members);
  });
  return [...groups.values()].sort((a, b) => a[0] - b[0]);
}

interface ShotUse {
  segments: number[];
  start: number;
  end: number;
}

/** Contiguous segments of one shot are one use (a shot split where the narration changes is not a reuse). */
function shotUses(segments: Segment[], group: number[]): ShotUse[] {
  const uses: ShotUse[] = [];
  for (const index of group) {
    const s = segments[index];
    const last = uses[uses.length - 1];
    if (last && s.start <= last.end + CONTIGUOUS_EPSILON) {
      last.segments.push(index);
      last.end = Math.max(last.end, s.end);
    } else uses.push({ segments: [index], start: s.start, end: s.end });
  }
  return uses;
}

function declaredReusedAssets(manifest: Manifest): Set<string> {
  return new Set((manifest.assetTriage?.reused ?? []).map(normaliseAssetPath));
}

function isDeclaredReused(segments: Segment[], indices: number[], reused: Set<string>): boolean {
  return indices.some((i) => segments[i].visualFile !== undefined && reused.has(normaliseAssetPath(segments[i].visualFile!)));
}

function shotDescription(segment: Segment): string {
  if (segment.visualFile) return `"${segment.visualFile}"`;
  return `the ${segment.sourceFamily} shot "${excerpt(segment.description ?? '')}"`;
}

function reuseFlag(segments: Segment[], uses: ShotUse[], n: number, th: GateThresholds, declaredReused: boolean): FlagDraft | null {
  const use = uses[n];
  const previous = uses[n - 1];
  const gapSeconds = previous ? use.start - previous.end : null;
  const bySoonReuse = gapSeconds !== null && fallsBelow(gapSeconds, threshold(th, 'minReuseGapSeconds')) ? 'WATCH' : null;
  const byUses = severityBand(n + 1, threshold(th, 'watchUses'), threshold(th, 'blockUses'));
  let severity = worse(byUses, bySoonReuse);
  if (!severity) return null;
  // The pipeline declared the reuse deliberate: still worth a look, never a refusal.
  if (declaredReused) severity = 'WATCH';
  const first = use.segments[0];
  const s = segments[first];
  const label = segmentLabel(segments, first);
  const where = `${segmentPath(first)} (${spanText(use.start, use.end)})`;
  const gapClause = bySoonReuse ? `, ${round(gapSeconds!, 1)} s after its previous use` : '';
  const earlier = uses.slice(0, n).map((u) => `${segmentPath(u.segments[0])} ${spanText(u.start, u.end)}`);
  return {
    severity,
    start: use.start,
    end: use.end,
    summary: `${label} reuses ${shotDescription(s)} (use ${n + 1} of ${uses.length}${gapClause})`,
    evidence: {
      kind: 'manifest_reuse',
      segment: segmentRef(segments, first),
      use: n + 1,
      uses: uses.length,
      previousUse: segmentRef(segments, previous.segments[0]),
      gapSeconds: gapSeconds === null ? null : round(gapSeconds, 3),
      rules: [...(byUses ? ['uses'] : []), ...(bySoonReuse ? ['gap'] : [])],
      declaredReused,
      fields: quoted(segments, first, ['visualFile', 'sourceFamily', 'description']),
      allUses: uses.map((u) => ({ segments: u.segments.map((i) => segmentPath(i)), span: spanText(u.start, u.end) })),
      threshold: thresholdValues(th, ['watchUses', 'blockUses', 'minReuseGapSeconds']),
    },
    repair: {
      action: 'replace_visual',
      reachable: false,
      instruction:
        `Replace the visual of ${where} with a different shot: ${shotDescription(s)} already plays at ${earlier.join(', ')}.` +
        (s.visualFile && !declaredReused ? ` If the reuse is deliberate, list "${s.visualFile}" in assetTriage.reused.` : ''),
      verify: verify('repeat_fatigue', where),
    },
  };
}

function manifestReuseFlags(segments: Segment[], groups: number[][], th: GateThresholds, reused: Set<string>): { flags: FlagDraft[]; mostUses: number; reusedShots: number } {
  const flags: FlagDraft[] = [];
  let mostUses = 0;
  let reusedShots = 0;
  for (const group of groups) {
    const uses = shotUses(segments, group);
    mostUses = Math.max(mostUses, uses.length);
    if (uses.length < 2) continue;
    reusedShots++;
    const declaredReused = isDeclaredReused(segments, group, reused);
    for (let n = 1; n < uses.length; n++) {
      const flag = reuseFlag(segments, uses, n, th, declaredReused);
      if (flag) flags.push(flag);
    }
  }
  return { flags, mostUses, reusedShots };
}

interface PictureRepeat {
  start: number;
  end: number;
  sourceStart: number;
  seconds: number;
}

function pictureRepeats(video: VideoSignals): PictureRepeat[] {
  const at = (frame: number) => video.startSeconds + frame / video.fps;
  return video.repeats.map((r) => ({ start: at(r.repeatFrame), end: at(r.repeatFrame + r.frames), sourceStart: at(r.sourceFrame), seconds: r.frames / video.fps }));
}

function pictureRepeatFlag(segments: Segment[], repeat: PictureRepeat, groupOf: number[], reused: Set<string>, th: GateThresholds): FlagDraft | null {
  let severity = severityBand(repeat.seconds, threshold(th, 'pictureRepeatWatchSeconds'), threshold(th, 'pictureRepeatBlockSeconds'));
  if (!severity) return null;
  const at = segmentAt(segments, repeat.start);
  const source = segmentAt(segments, repeat.sourceStart);
  const sameShotDeclared = at >= 0 && source >= 0 && groupOf[at] >= 0 && groupOf[at] === groupOf[source];
  if (sameShotDeclared && isDeclaredReused(segments, [at], reused)) severity = 'WATCH';
  const span = spanText(repeat.start, repeat.end);
  const sourceSpan = spanText(repeat.sourceStart, repeat.sourceStart + repeat.seconds);
  const here = at >= 0 ? segmentLabel(segments, at) : `${span} (no manifest segment covers this time)`;
  const there = source >= 0 ? segmentLabel(segments, source) : sourceSpan;
  const mismatch = at >= 0 && source >= 0 && !sameShotDeclared ? '; the manifest declares different visuals for the two' : '';
  const fields = { ...(at >= 0 ? quoted(segments, at, ['visualFile', 'sourceFamily']) : {}), ...(source >= 0 ? quoted(segments, source, ['visualFile', 'sourceFamily']) : {}) };
  return {
    severity,
    start: repeat.start,
    end: repeat.end,
    summary: `${round(repeat.seconds, 1)} s of near-identical picture: ${here} repeats ${sourceSpan} of ${there}${mismatch}`,
    evidence: {
      kind: 'picture_repeat',
      durationSeconds: round(repeat.seconds, 3),
      repeatOfStart: round(repeat.sourceStart, 3),
      repeatOfEnd: round(repeat.sourceStart + repeat.seconds, 3),
      segment: at >= 0 ? segmentRef(segments, at) : null,
      sourceSegment: source >= 0 ? segmentRef(segments, source) : null,
      manifestDeclaresSameShot: sameShotDeclared,
      fields,
      threshold: thresholdValues(th, ['pictureRepeatWatchSeconds', 'pictureRepeatBlockSeconds']),
    },
    repair: {
      action: 'replace_visual',
      reachable: false,
      instruction:
        `The picture at ${span}${at >= 0 ? ` (${segmentPath(at)})` : ''} repeats ${sourceSpan}${source >= 0 ? ` (${segmentPath(source)})` : ''} near-identically. ` +
        `Replace it with a different shot or re-generate it${mismatch ? ', and check the asset: the manifest names a different visual but it renders the same picture' : ''}.`,
      verify: verify('repeat_fatigue', span),
    },
  };
}

function hasTimeline(video: VideoSignals | null): video is VideoSignals {
  return video !== null && video.fps > 0 && video.frameCount > 0;
}

const judgeRepeatFatigue = withManifest('repeat_fatigue', (ctx, manifest) => {
  const segments = manifest.segments;
  const th = ctx.thresholds;
  const groupOf = shotGroupOf(segments);
  const video = hasTimeline(ctx.signals.video) ? ctx.signals.video : null;
  const withIdentity = groupOf.filter((g) => g >= 0).length;
  if (withIdentity === 0 && !video) {
    return undeclared('repeat_fatigue', 'needs manifest visualFile or sourceFamily+description on non-talking-head segments (or decoded video)', {
      segments: segments.length,
      segmentsWithShotIdentity: 0,
      pictureChecked: false,
    });
  }
  const reused = declaredReusedAssets(manifest);
  const groups = shotGroups(groupOf);
  const declared = manifestReuseFlags(segments, groups, th, reused);
  const repeats = video ? pictureRepeats(video) : [];
  const pictureFlags = repeats.flatMap((r) => pictureRepeatFlag(segments, r, groupOf, reused, th) ?? []);
  return gateResult(
    'repeat_fatigue',
    {
      segments: segments.length,
      segmentsWithShotIdentity: withIdentity,
      shots: groups.length,
      reusedShots: declared.reusedShots,
      mostUsesOfOneShot: declared.mostUses,
      pictureChecked: video !== null,
      pictureRepeatsOverThreshold: pictureFlags.length,
      longestPictureRepeatSeconds: round(repeats.reduce((m, r) => Math.max(m, r.seconds), 0), 3),
    },
    [...declared.flags, ...pictureFlags],
  );
});

export const repeatFatigueGate = defineGate({
  id: 'repeat_fatigue',
  area: 'structure',
  title: 'Near-identical shots reused too often',
  algorithm:
    'Declared reuse: segments (except talking_head, which is continuous A-roll) are the same shot when they share a visualFile or the same sourceFamily and description; ' +
      'touching segments of one shot are one use. A use is WATCH from the watchUses-th use and BLOCK from the blockUses-th, and WATCH when it starts less than ' +
      'minReuseGapSeconds after the previous use ended; assets listed in assetTriage.reused are capped at WATCH. Picture reuse, when the check decoded the video: ' +
      'every repeated picture sequence the engine found (the loop_freeze detector: frame hashes and thumbnails matching an earlier run) of at least ' +
      'pictureRepeatWatchSeconds is WATCH, of at least pictureRepeatBlockSeconds BLOCK, named by the segments at both times and whether the manifest declares them the same shot.',
  requires: { kinds: ['video'], sidecars: ['manifest'] },
  thresholds: (delivery) => repeatFatigueThresholds(isVerticalDelivery(delivery)),
  run: judgeRepeatFatigue,
});
