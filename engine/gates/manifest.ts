// Structure gates on the manifest sidecar: shot reuse, speaker binding, talking-head share, subject and narration
// match, the hook, the end-screen tease and the re-hook cadence. Every rule reads typed manifest fields by name; free
// text (narration, description) is only searched for names the manifest itself declares, as whole words and phrases.
import type { Manifest, ManifestSegment, Marker } from '../sidecars/formats/manifest.js';
import { containsPhrase, phraseWords } from '../text/match.js';
import type { FlagDraft, GateContext, GateDefinition, GateResult, GateThresholds, MediaInfo, Severity, VideoSignals } from '../types.js';
import { exceeds, fallsBelow, severityBand } from './kit/bands.js';
import { trimCommand } from './kit/commands.js';
import { gateResult, skippedGate } from './kit/result.js';
import { round } from './kit/stats.js';
import { threshold, thresholdFlag, thresholdSeverity, thresholdValues } from './kit/thresholds.js';
import { hms, spanText } from './kit/wording.js';
import { defineGate } from './define.js';
import { manifestThresholds } from '../profiles/thresholds-manifest.js';

type Segment = ManifestSegment;
type SegmentField = keyof Segment & string;

/** Segments written end-to-start with float noise (3.2 vs 3.2000001) still touch. */
const CONTIGUOUS_EPSILON = 1e-3;
/** Evidence lists of segments stop here so a two-hour manifest keeps flags readable. */
const MAX_LISTED_SEGMENTS = 20;

// ---------------------------------------------------------------- shared helpers

const segmentPath = (index: number, field?: string) => `segments[${index}]${field ? `.${field}` : ''}`;

/** A declared name in comparable form: normalised whole words, '' when it holds none. */
const nameKey = (name: string) => phraseWords(name).join(' ');
const sameName = (a: string, b: string) => nameKey(a) !== '' && nameKey(a) === nameKey(b);
/** Two declared names refer to the same thing when one contains the other as whole words ("Eiffel Tower" / "the Eiffel Tower at night"). */
const namesMatch = (a: string, b: string) => containsPhrase(a, b) || containsPhrase(b, a);
const declaredNames = (names: string[] | undefined) => (names ?? []).filter((n) => nameKey(n) !== '');

const hasMarker = (segment: Segment, marker: Marker) => segment.markers?.includes(marker) ?? false;
const markersDeclared = (manifest: Manifest) => manifest.segments.some((s) => s.markers !== undefined);

function excerpt(text: string, max = 60): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`;
}

/** How a flag names a segment: index, time span and what the picture shows. */
function segmentLabel(segments: Segment[], index: number): string {
  const s = segments[index];
  const what = s.description ? ` ("${excerpt(s.description)}")` : s.visualFile ? ` (${s.visualFile})` : '';
  return `${segmentPath(index)} ${spanText(s.start, s.end)}${what}`;
}

function segmentRef(segments: Segment[], index: number) {
  const s = segments[index];
  return { index, path: segmentPath(index), start: s.start, end: s.end, span: spanText(s.start, s.end), description: s.description ?? null };
}

/** The declared values of a segment's fields, keyed by JSON path, for a flag's evidence. */
function quoted(segments: Segment[], index: number, fields: SegmentField[]): Record<string, unknown> {
  const s = segments[index];
  return Object.fromEntries(fields.filter((f) => s[f] !== undefined).map((f) => [segmentPath(index, f), s[f]]));
}

function listedRefs(segments: Segment[], indices: number[]) {
  return indices.slice(0, MAX_LISTED_SEGMENTS).map((i) => segmentRef(segments, i));
}

function worse(a: Severity | null, b: Severity | null): Severity | null {
  if (a === 'BLOCK' || b === 'BLOCK') return 'BLOCK';
  return a ?? b;
}

/** The programme runs to the end of the media; a sidecar-only check falls back to the manifest's last end. */
function programmeEnd(ctx: GateContext, manifest: Manifest): number {
  if (ctx.media.durationSeconds > 0) return ctx.media.durationSeconds;
  return manifest.segments.reduce((end, s) => Math.max(end, s.end), 0);
}

/** Index of the first segment on screen at `seconds`, or −1 when the manifest declares nothing there. */
function segmentAt(segments: Segment[], seconds: number): number {
  return segments.findIndex((s) => s.start <= seconds && seconds < s.end);
}

const overlaps = (a: Segment, b: Segment) => a.start < b.end && b.start < a.end;

const verify = (gate: string, where: string) => `Re-run the check with checks=${gate}; expect no ${gate} flag for ${where}.`;

type ManifestRun = (ctx: GateContext, manifest: Manifest) => GateResult;

/** Missing manifest or empty timeline → skipped with the reason, never a pass. */
function withManifest(gate: string, run: ManifestRun): (ctx: GateContext) => GateResult {
  return (ctx) => {
    const manifest = ctx.sidecars.manifest;
    if (!manifest) return skippedGate(gate, 'needs manifest');
    if (manifest.segments.length === 0) return { ...skippedGate(gate, 'needs manifest segments: the manifest declares none'), measurements: { segments: 0 } };
    return run(ctx, manifest);
  };
}

/** The manifest is there but declares none of the fields this gate reads. */
function undeclared(gate: string, reason: string, measurements: Record<string, unknown>): GateResult {
  return { ...skippedGate(gate, reason), measurements };
}

// ---------------------------------------------------------------- repeat_fatigue

/** The keys under which two segments count as the same shot: the same file, or the same source family and description. */
function shotKeys(segment: Segment): string[] {
  // Talking-head segments cut from one camera recording are one continuous take, not a reused shot.
  if (segment.kind === 'talking_head') return [];
  const keys: string[] = [];
  const file = segment.visualFile ? normaliseAssetPath(segment.visualFile) : '';
  if (file) keys.push(`file:${file}`);
  const family = segment.sourceFamily ? nameKey(segment.sourceFamily) : '';
  const description = segment.description ? nameKey(segment.description) : '';
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

const repeatFatigue = withManifest('repeat_fatigue', (ctx, manifest) => {
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

// ---------------------------------------------------------------- speaker_visual_binding

interface BindingFinding {
  rule: string;
  severity: Severity;
  problem: string;
  fix: string;
  speaksIn?: number;
}

/** Blank names count as none. */
const declaredName = (name: string | null | undefined): string | null | undefined => (name === undefined ? undefined : name === null || nameKey(name) === '' ? null : name);

function talkingHeadFinding(s: Segment): BindingFinding | null {
  const speaker = declaredName(s.speaker);
  const onScreen = declaredName(s.onScreenCharacter);
  if (speaker === undefined) {
    return { rule: 'talking_head_speaker_undeclared', severity: 'WATCH', problem: 'is a talking head but declares no speaker', fix: 'Declare who talks on camera in speaker, or set kind to what the picture is.' };
  }
  if (speaker === null) {
    if (s.intendedPause) return null;
    return {
      rule: 'talking_head_silent',
      severity: 'WATCH',
      problem: 'is a talking head with no speech (speaker is null)',
      fix: 'Add the speech, mark intendedPause if the silence is deliberate, or replace the shot with b-roll.',
    };
  }
  if (onScreen === null) {
    return { rule: 'talking_head_nobody_on_screen', severity: 'WATCH', problem: `is a talking head of "${speaker}" but declares nobody on screen`, fix: 'Correct onScreenCharacter or kind.' };
  }
  if (onScreen !== undefined && !sameName(onScreen, speaker)) {
    return {
      rule: 'talking_head_other_speaker',
      severity: 'BLOCK',
      problem: `shows "${onScreen}" talking while "${speaker}" speaks`,
      fix: `Show "${speaker}" in this segment, or cut to a cutaway under the voice; if the manifest is wrong, correct speaker or onScreenCharacter.`,
    };
  }
  return null;
}

/** Outside talking heads a voice-over is normal; only a character who speaks elsewhere, shown while someone else speaks, misleads. */
function cutawayFinding(s: Segment, segments: Segment[]): BindingFinding | null {
  const speaker = declaredName(s.speaker);
  const onScreen = declaredName(s.onScreenCharacter);
  if (!speaker || !onScreen || sameName(onScreen, speaker)) return null;
  const speaksIn = segments.findIndex((other) => typeof other.speaker === 'string' && sameName(other.speaker, onScreen));
  if (speaksIn < 0) return null;
  return {
    rule: 'speaking_character_shown_while_other_speaks',
    severity: 'WATCH',
    problem: `shows "${onScreen}", who speaks in ${segmentPath(speaksIn)}, while "${speaker}" speaks`,
    fix: `Show "${speaker}" or a shot without "${onScreen}" while "${speaker}" speaks; if the manifest is wrong, correct speaker or onScreenCharacter.`,
    speaksIn,
  };
}

function bindingFlag(segments: Segment[], index: number, finding: BindingFinding): FlagDraft {
  const s = segments[index];
  const where = `${segmentPath(index)} (${spanText(s.start, s.end)})`;
  return {
    severity: finding.severity,
    start: s.start,
    end: s.end,
    summary: `${segmentLabel(segments, index)} ${finding.problem}`,
    evidence: {
      rule: finding.rule,
      segment: segmentRef(segments, index),
      fields: quoted(segments, index, ['kind', 'speaker', 'onScreenCharacter', 'intendedPause']),
      ...(finding.speaksIn !== undefined ? { speaksIn: segmentRef(segments, finding.speaksIn) } : {}),
    },
    repair: { action: 'rebind_speaker', reachable: false, instruction: `${where}: ${finding.fix}`, verify: verify('speaker_visual_binding', where) },
  };
}

const speakerVisualBinding = withManifest('speaker_visual_binding', (_ctx, manifest) => {
  const segments = manifest.segments;
  const checked = segments.filter((s) => s.kind === 'talking_head' || s.speaker !== undefined || s.onScreenCharacter !== undefined).length;
  if (checked === 0) {
    return undeclared('speaker_visual_binding', 'needs manifest speaker, onScreenCharacter or talking_head segments', { segments: segments.length, segmentsChecked: 0 });
  }
  const flags: FlagDraft[] = [];
  segments.forEach((s, index) => {
    const finding = s.kind === 'talking_head' ? talkingHeadFinding(s) : cutawayFinding(s, segments);
    if (finding) flags.push(bindingFlag(segments, index, finding));
  });
  return gateResult(
    'speaker_visual_binding',
    {
      segments: segments.length,
      segmentsChecked: checked,
      talkingHeadSegments: segments.filter((s) => s.kind === 'talking_head').length,
      mismatches: flags.length,
    },
    flags,
  );
});

// ---------------------------------------------------------------- static_head_dominance

interface HeadRun {
  segments: number[];
  start: number;
  end: number;
}

/** Talking-head time as maximal runs of touching or overlapping talking_head segments (their union, so overlaps count once). */
function talkingHeadRuns(segments: Segment[]): HeadRun[] {
  const runs: HeadRun[] = [];
  segments.forEach((s, index) => {
    if (s.kind !== 'talking_head') return;
    const last = runs[runs.length - 1];
    if (last && s.start <= last.end + CONTIGUOUS_EPSILON) {
      last.segments.push(index);
      last.end = Math.max(last.end, s.end);
    } else runs.push({ segments: [index], start: s.start, end: s.end });
  });
  return runs;
}

const runSeconds = (run: HeadRun) => run.end - run.start;

function runLabel(segments: Segment[], run: HeadRun): string {
  const first = segmentPath(run.segments[0]);
  const last = run.segments.length > 1 ? `..${segmentPath(run.segments[run.segments.length - 1])}` : '';
  return `${first}${last} ${spanText(run.start, run.end)}${segments[run.segments[0]].description ? ` ("${excerpt(segments[run.segments[0]].description!)}")` : ''}`;
}

function kindFields(segments: Segment[], indices: number[]): Record<string, unknown> {
  return Object.assign({}, ...indices.slice(0, MAX_LISTED_SEGMENTS).map((i) => quoted(segments, i, ['kind'])));
}

function shareFlag(segments: Segment[], runs: HeadRun[], total: number, programme: number, th: GateThresholds): FlagDraft | null {
  const sharePct = programme > 0 ? (100 * total) / programme : 0;
  const severity = severityBand(sharePct, threshold(th, 'watchSharePct'), threshold(th, 'blockSharePct'), exceeds);
  if (!severity) return null;
  const indices = runs.flatMap((r) => r.segments);
  const longest = runs.reduce((a, b) => (runSeconds(b) > runSeconds(a) ? b : a));
  const toCover = total - (threshold(th, 'watchSharePct') / 100) * programme;
  return {
    severity,
    start: runs[0].start,
    end: runs[runs.length - 1].end,
    summary: `Talking head fills ${round(sharePct, 1)} % of the programme (${round(total, 1)} s of ${round(programme, 1)} s) in ${indices.length} segments, longest ${runLabel(segments, longest)}`,
    evidence: {
      rule: 'share',
      sharePct: round(sharePct, 1),
      talkingHeadSeconds: round(total, 3),
      programmeSeconds: round(programme, 3),
      segment: segmentRef(segments, longest.segments[0]),
      segments: listedRefs(segments, indices),
      talkingHeadSegments: indices.length,
      fields: kindFields(segments, indices),
      threshold: thresholdValues(th, ['watchSharePct', 'blockSharePct']),
    },
    repair: {
      action: 'add_cutaways',
      reachable: false,
      instruction:
        `Cover at least ${Math.ceil(toCover)} s of talking head with b-roll, graphics or screen recordings to bring it under ${threshold(th, 'watchSharePct')} % ` +
        `of the programme; start with the longest run, ${runLabel(segments, longest)}.`,
      verify: 'Re-run the check with checks=static_head_dominance; expect no share flag.',
    },
  };
}

function runFlag(segments: Segment[], run: HeadRun, th: GateThresholds): FlagDraft | null {
  const seconds = runSeconds(run);
  const watch = threshold(th, 'runWatchSeconds');
  const severity = severityBand(seconds, watch, threshold(th, 'runBlockSeconds'), exceeds);
  if (!severity) return null;
  const span = spanText(run.start, run.end);
  return {
    severity,
    start: run.start,
    end: run.end,
    summary: `Talking head runs ${round(seconds, 1)} s without a cutaway: ${runLabel(segments, run)}`,
    evidence: {
      rule: 'run',
      durationSeconds: round(seconds, 3),
      segment: segmentRef(segments, run.segments[0]),
      segments: listedRefs(segments, run.segments),
      fields: kindFields(segments, run.segments),
      threshold: thresholdValues(th, ['runWatchSeconds', 'runBlockSeconds']),
    },
    repair: {
      action: 'add_cutaways',
      reachable: false,
      instruction: `Break up ${runLabel(segments, run)}: cut away (b-roll, graphic, screen recording) at least every ${watch} s, first by ${hms(run.start + watch)}.`,
      verify: verify('static_head_dominance', span),
    },
  };
}

const staticHeadDominance = withManifest('static_head_dominance', (ctx, manifest) => {
  const segments = manifest.segments;
  const th = ctx.thresholds;
  const withKind = segments.filter((s) => s.kind !== undefined).length;
  if (withKind === 0) return undeclared('static_head_dominance', 'needs manifest segment kinds', { segments: segments.length, segmentsWithKind: 0 });
  const programme = programmeEnd(ctx, manifest);
  const runs = talkingHeadRuns(segments);
  const total = runs.reduce((sum, r) => sum + runSeconds(r), 0);
  const flags = runs.length === 0 ? [] : [shareFlag(segments, runs, total, programme, th), ...runs.map((r) => runFlag(segments, r, th))].filter((f): f is FlagDraft => f !== null);
  return gateResult(
    'static_head_dominance',
    {
      segments: segments.length,
      segmentsWithKind: withKind,
      talkingHeadSegments: runs.reduce((n, r) => n + r.segments.length, 0),
      talkingHeadSeconds: round(total, 3),
      programmeSeconds: round(programme, 3),
      talkingHeadSharePct: programme > 0 ? round((100 * total) / programme, 1) : 0,
      longestRunSeconds: round(runs.reduce((m, r) => Math.max(m, runSeconds(r)), 0), 3),
    },
    flags,
  );
});

// ---------------------------------------------------------------- literal_subject_match

const namedIn = (text: string | undefined, name: string) => text !== undefined && containsPhrase(text, name);

function unnamedClause(s: Segment): string {
  if (s.narration !== undefined && s.description !== undefined) return 'neither its narration nor its description names';
  return `its ${s.narration !== undefined ? 'narration' : 'description'} never names`;
}

/** Subjects the picture shows that neither the narration, the description nor the narration's declared names mention. */
function unnamedSubjectsFlag(segments: Segment[], index: number): FlagDraft | null {
  const s = segments[index];
  const subjects = declaredNames(s.subjects);
  if (subjects.length === 0 || (s.narration === undefined && s.description === undefined)) return null;
  const entities = declaredNames(s.namedEntities);
  const named = (subject: string) => namedIn(s.narration, subject) || namedIn(s.description, subject) || entities.some((e) => namesMatch(e, subject));
  if (subjects.some(named)) return null;
  const where = `${segmentPath(index)} (${spanText(s.start, s.end)})`;
  const list = subjects.map((x) => `"${x}"`).join(', ');
  return {
    severity: 'WATCH',
    start: s.start,
    end: s.end,
    summary: `${segmentLabel(segments, index)} shows ${list}, which ${unnamedClause(s)}`,
    evidence: { rule: 'subjects_unnamed', segment: segmentRef(segments, index), fields: quoted(segments, index, ['subjects', 'narration', 'description']) },
    repair: {
      action: 'replace_visual',
      reachable: false,
      instruction: `${where}: show what the narration talks about, or name the subject in the narration; if the manifest is wrong, correct ${segmentPath(index, 'subjects')} or ${segmentPath(index, 'description')}.`,
      verify: verify('literal_subject_match', where),
    },
  };
}

/** Named entities of a segment's narration that no segment overlapping it in time shows. */
function entitiesNotShownFlag(segments: Segment[], index: number): FlagDraft | null {
  const s = segments[index];
  const entities = declaredNames(s.namedEntities);
  if (entities.length === 0) return null;
  const concurrent = segments.map((_, i) => i).filter((i) => overlaps(segments[i], s));
  const shownNow = (entity: string) => concurrent.some((i) => declaredNames(segments[i].subjects).some((subject) => namesMatch(entity, subject)));
  const missing = entities.filter((e) => !shownNow(e));
  if (missing.length === 0) return null;
  const shownElsewhere = segments.map((_, i) => i).filter((i) => !concurrent.includes(i) && declaredNames(segments[i].subjects).some((subject) => missing.some((e) => namesMatch(e, subject))));
  const where = `${segmentPath(index)} (${spanText(s.start, s.end)})`;
  const list = missing.map((x) => `"${x}"`).join(', ');
  const move = shownElsewhere.length > 0 ? ` (${segmentPath(shownElsewhere[0])} shows it at ${spanText(segments[shownElsewhere[0]].start, segments[shownElsewhere[0]].end)})` : '';
  return {
    severity: 'WATCH',
    start: s.start,
    end: s.end,
    summary: `${segmentLabel(segments, index)}: narration names ${list} but no segment at ${spanText(s.start, s.end)} shows ${missing.length > 1 ? 'them' : 'it'}`,
    evidence: {
      rule: 'entity_not_shown',
      segment: segmentRef(segments, index),
      missing,
      fields: Object.assign(quoted(segments, index, ['namedEntities', 'narration']), ...concurrent.map((i) => quoted(segments, i, ['subjects']))),
      shownElsewhere: listedRefs(segments, shownElsewhere),
    },
    repair: {
      action: 'replace_visual',
      reachable: false,
      instruction: `${where}: show ${list} while the narration names ${missing.length > 1 ? 'them' : 'it'}${move}, or re-time the narration; if the picture does show it, add it to subjects.`,
      verify: verify('literal_subject_match', where),
    },
  };
}

const literalSubjectMatch = withManifest('literal_subject_match', (_ctx, manifest) => {
  const segments = manifest.segments;
  const withSubjects = segments.filter((s) => declaredNames(s.subjects).length > 0).length;
  const withEntities = segments.filter((s) => declaredNames(s.namedEntities).length > 0).length;
  if (withSubjects === 0 && withEntities === 0) {
    return undeclared('literal_subject_match', 'needs manifest subjects or namedEntities', { segments: segments.length, segmentsWithSubjects: 0, segmentsWithNamedEntities: 0 });
  }
  const unnamed = segments.flatMap((_, i) => unnamedSubjectsFlag(segments, i) ?? []);
  const notShown = segments.flatMap((_, i) => entitiesNotShownFlag(segments, i) ?? []);
  return gateResult(
    'literal_subject_match',
    {
      segments: segments.length,
      segmentsWithSubjects: withSubjects,
      segmentsWithNamedEntities: withEntities,
      segmentsWithUnnamedSubjects: unnamed.length,
      segmentsNamingUnshownEntities: notShown.length,
    },
    [...unnamed, ...notShown],
  );
});

// ---------------------------------------------------------------- visual_narration_match

function narrationMismatchFlag(segments: Segment[], index: number, namedAnywhere: string[]): FlagDraft | null {
  const s = segments[index];
  const entities = declaredNames(s.namedEntities);
  const subjects = declaredNames(s.subjects);
  if (entities.length === 0 || subjects.length === 0) return null;
  if (entities.some((e) => subjects.some((subject) => namesMatch(e, subject)))) return null;
  // Showing something the programme names elsewhere is a wrong picture, not merely a loose one.
  const wrongSubjects = subjects.filter((subject) => namedAnywhere.some((name) => namesMatch(name, subject)));
  const severity: Severity = wrongSubjects.length > 0 ? 'BLOCK' : 'WATCH';
  const where = `${segmentPath(index)} (${spanText(s.start, s.end)})`;
  const about = entities.map((x) => `"${x}"`).join(', ');
  const shows = subjects.map((x) => `"${x}"`).join(', ');
  return {
    severity,
    start: s.start,
    end: s.end,
    summary: `${segmentLabel(segments, index)}: narration about ${about} over a picture of ${shows}`,
    evidence: {
      rule: wrongSubjects.length > 0 ? 'shows_other_named_subject' : 'shows_none_of_named',
      segment: segmentRef(segments, index),
      wrongSubjects,
      fields: quoted(segments, index, ['namedEntities', 'subjects', 'narration']),
    },
    repair: {
      action: 'replace_visual',
      reachable: false,
      instruction: `${where}: replace the picture of ${shows} with one of ${about}, or move this narration over a shot that shows it; if the manifest is wrong, correct ${segmentPath(index, 'subjects')}.`,
      verify: verify('visual_narration_match', where),
    },
  };
}

const visualNarrationMatch = withManifest('visual_narration_match', (_ctx, manifest) => {
  const segments = manifest.segments;
  const checked = segments.filter((s) => declaredNames(s.namedEntities).length > 0 && declaredNames(s.subjects).length > 0).length;
  if (checked === 0) return undeclared('visual_narration_match', 'needs manifest segments declaring both namedEntities and subjects', { segments: segments.length, segmentsChecked: 0 });
  const namedAnywhere = segments.flatMap((s) => declaredNames(s.namedEntities));
  const flags = segments.flatMap((_, i) => narrationMismatchFlag(segments, i, namedAnywhere) ?? []);
  return gateResult(
    'visual_narration_match',
    { segments: segments.length, segmentsChecked: checked, mismatches: flags.length, wrongSubjectMismatches: flags.filter((f) => f.severity === 'BLOCK').length },
    flags,
  );
});

// ---------------------------------------------------------------- first_three_seconds

function hookFlag(segments: Segment[], th: GateThresholds): FlagDraft | null {
  const hookIndex = segments.findIndex((s) => hasMarker(s, 'hook'));
  const watch = threshold(th, 'hookWatchStartSeconds');
  if (hookIndex < 0) {
    return {
      severity: thresholdSeverity(th, 'missingHookSeverity'),
      start: 0,
      end: watch,
      summary: `No segment carries a hook marker; the programme opens with ${segmentLabel(segments, 0)}`,
      evidence: {
        rule: 'no_hook',
        segment: segmentRef(segments, 0),
        segmentsDeclaringMarkers: segments.filter((s) => s.markers !== undefined).length,
        fields: quoted(segments, 0, ['kind', 'markers']),
        threshold: thresholdValues(th, ['hookWatchStartSeconds', 'missingHookSeverity']),
      },
      repair: {
        action: 'add_hook',
        reachable: false,
        instruction: `Open with a hook that starts by ${watch} s (the strongest claim or image, ahead of ${segmentPath(0)}), and mark that segment with markers: ["hook"].`,
        verify: 'Re-run the check with checks=first_three_seconds; expect no first_three_seconds flag.',
      },
    };
  }
  const hook = segments[hookIndex];
  const severity = severityBand(hook.start, watch, threshold(th, 'hookBlockStartSeconds'), exceeds);
  if (!severity) return null;
  return {
    severity,
    start: 0,
    end: hook.start,
    summary: `The hook starts at ${hms(hook.start)}, after the first ${watch} s: ${segmentLabel(segments, hookIndex)}`,
    evidence: {
      rule: 'late_hook',
      hookStartSeconds: round(hook.start, 3),
      segment: segmentRef(segments, hookIndex),
      fields: { ...quoted(segments, hookIndex, ['start', 'markers']) },
      threshold: thresholdValues(th, ['hookWatchStartSeconds', 'hookBlockStartSeconds']),
    },
    repair: {
      action: 'move_hook',
      reachable: false,
      instruction: `Move the hook (${segmentPath(hookIndex)}, now at ${hms(hook.start)}) to start by ${watch} s: cut or shorten what plays in ${spanText(0, hook.start)}.`,
      verify: verify('first_three_seconds', `the hook (expect it to start by ${watch} s)`),
    },
  };
}

const isDeadOpening = (s: Segment) => !hasMarker(s, 'hook') && (s.kind === 'title_card' || s.intendedPause === true);

/** Time from 0 until content starts: undeclared gaps, opening title cards and deliberate pauses. */
function deadOpening(segments: Segment[]): { seconds: number; segments: number[] } {
  let end = 0;
  const dead: number[] = [];
  for (let i = 0; i < segments.length; i++) {
    if (!isDeadOpening(segments[i])) return { seconds: segments[i].start, segments: dead };
    dead.push(i);
    end = Math.max(end, segments[i].end);
  }
  return { seconds: end, segments: dead };
}

function openingFlag(media: MediaInfo, segments: Segment[], th: GateThresholds): FlagDraft | null {
  const opening = deadOpening(segments);
  const severity = severityBand(opening.seconds, threshold(th, 'openingWatchSeconds'), threshold(th, 'openingBlockSeconds'), exceeds);
  if (!severity) return null;
  const named = opening.segments.length > 0 ? opening.segments.map((i) => segmentLabel(segments, i)).join(', ') : `a gap before ${segmentLabel(segments, 0)}`;
  const span = spanText(0, opening.seconds);
  return {
    severity,
    start: 0,
    end: opening.seconds,
    summary: `The first ${round(opening.seconds, 2)} s hold no content: ${named}`,
    evidence: {
      rule: 'dead_opening',
      durationSeconds: round(opening.seconds, 3),
      segment: segmentRef(segments, opening.segments[0] ?? 0),
      segments: listedRefs(segments, opening.segments),
      fields: Object.assign(
        opening.segments.length === 0 ? quoted(segments, 0, ['start']) : {},
        ...opening.segments.map((i) => quoted(segments, i, ['kind', 'intendedPause', 'start', 'end'])),
      ),
      threshold: thresholdValues(th, ['openingWatchSeconds', 'openingBlockSeconds']),
    },
    repair: {
      action: 'trim_opening',
      reachable: false,
      instruction:
        `Start on content: shorten or move ${opening.segments.length > 0 ? opening.segments.map((i) => segmentPath(i)).join(', ') : 'the lead-in gap'} (${span}) ` +
        `to at most ${threshold(th, 'openingWatchSeconds')} s, or open with the hook. If nothing in ${span} is needed, trim it: ` +
        trimCommand(media, 'head', media.startSeconds + opening.seconds),
      verify: verify('first_three_seconds', span),
    },
  };
}

const firstThreeSeconds = withManifest('first_three_seconds', (ctx, manifest) => {
  const segments = manifest.segments;
  const th = ctx.thresholds;
  const declared = markersDeclared(manifest);
  const hookIndex = segments.findIndex((s) => hasMarker(s, 'hook'));
  const opening = deadOpening(segments);
  const flags = [declared ? hookFlag(segments, th) : null, openingFlag(ctx.media, segments, th)].filter((f): f is FlagDraft => f !== null);
  return gateResult(
    'first_three_seconds',
    {
      segments: segments.length,
      markersDeclared: declared,
      hookStartSeconds: hookIndex >= 0 ? round(segments[hookIndex].start, 3) : null,
      openingWithoutContentSeconds: round(opening.seconds, 3),
      firstSegmentKind: segments[0].kind ?? null,
    },
    flags,
  );
});

// ---------------------------------------------------------------- end_screen_tease

function ctaFlag(segments: Segment[], end: number, th: GateThresholds): FlagDraft | null {
  const window = threshold(th, 'ctaWindowSeconds');
  const windowStart = Math.max(0, end - window);
  const ctas = segments.map((_, i) => i).filter((i) => hasMarker(segments[i], 'cta'));
  if (ctas.some((i) => segments[i].end > windowStart && segments[i].start < end)) return null;
  const lastIndex = segments.length - 1;
  const last = segmentLabel(segments, lastIndex);
  const tail = spanText(windowStart, end);
  const elsewhere = ctas.map((i) => segmentLabel(segments, i));
  return {
    severity: 'WATCH',
    start: windowStart,
    end,
    summary:
      ctas.length > 0
        ? `The call to action sits at ${elsewhere.join(', ')}, not in the last ${window} s (${tail}); the programme ends with ${last}`
        : `No call to action in the last ${window} s (${tail}); the programme ends with ${last}`,
    evidence: {
      rule: ctas.length > 0 ? 'cta_too_early' : 'no_cta',
      segment: segmentRef(segments, lastIndex),
      ctaSegments: listedRefs(segments, ctas),
      fields: Object.assign(quoted(segments, lastIndex, ['markers']), ...ctas.map((i) => quoted(segments, i, ['markers']))),
      threshold: thresholdValues(th, ['ctaWindowSeconds', 'minProgrammeSeconds']),
    },
    repair: {
      action: 'add_end_screen_tease',
      reachable: false,
      instruction:
        `Add an end-screen tease in ${tail}: over ${segmentPath(lastIndex)}, point to what to watch next, and mark it with markers: ["cta"]` +
        (ctas.length > 0 ? ` (or move the call to action from ${segmentPath(ctas[ctas.length - 1])} there).` : '.'),
      verify: verify('end_screen_tease', `the last ${window} s`),
    },
  };
}

const endScreenTease = withManifest('end_screen_tease', (ctx, manifest) => {
  const segments = manifest.segments;
  const th = ctx.thresholds;
  if (!markersDeclared(manifest)) return undeclared('end_screen_tease', 'needs manifest markers: no segment declares markers', { segments: segments.length, markersDeclared: false });
  const end = programmeEnd(ctx, manifest);
  const required = thresholdFlag(th, 'requireCta') && end >= threshold(th, 'minProgrammeSeconds');
  const ctas = segments.filter((s) => hasMarker(s, 'cta'));
  const flag = required ? ctaFlag(segments, end, th) : null;
  return gateResult(
    'end_screen_tease',
    {
      segments: segments.length,
      markersDeclared: true,
      programmeSeconds: round(end, 3),
      ctaRequired: required,
      ctaSegments: ctas.length,
      lastCtaEndSeconds: ctas.length > 0 ? round(ctas[ctas.length - 1].end, 3) : null,
    },
    flag ? [flag] : [],
  );
});

// ---------------------------------------------------------------- rehook_cadence

interface Beat {
  at: number;
  /** Segment carrying the hook/rehook marker, −1 for the programme's start or end. */
  segment: number;
}

/** Programme start, every hook/rehook, programme end: the gaps between consecutive beats are what viewers sit through. */
function beats(segments: Segment[], end: number): Beat[] {
  const marked = segments.map((s, i) => ({ at: s.start, segment: i })).filter((b) => hasMarker(segments[b.segment], 'hook') || hasMarker(segments[b.segment], 'rehook'));
  const all = [{ at: 0, segment: -1 }, ...marked, { at: end, segment: -1 }];
  return all.filter((b, i) => i === 0 || b.at > all[i - 1].at);
}

/** Where to put rehooks so no stretch of from..to exceeds `every`: the latest segment start in each window, else the time itself. */
function rehookSuggestions(segments: Segment[], from: number, to: number, every: number): string[] {
  const suggestions: string[] = [];
  let cursor = from;
  while (to - cursor > every && suggestions.length < 10) {
    const limit = cursor + every;
    const startsInWindow = segments.map((_, i) => i).filter((i) => segments[i].start > cursor + CONTIGUOUS_EPSILON && segments[i].start <= limit);
    const chosen = startsInWindow[startsInWindow.length - 1];
    if (chosen !== undefined) {
      suggestions.push(`${segmentPath(chosen)} (${hms(segments[chosen].start)})`);
      cursor = segments[chosen].start;
    } else {
      const inside = segmentAt(segments, limit);
      suggestions.push(`${hms(limit)}${inside >= 0 ? ` (inside ${segmentPath(inside)})` : ''}`);
      cursor = limit;
    }
  }
  return suggestions;
}

const beatName = (segments: Segment[], beat: Beat, edge: string) => (beat.segment >= 0 ? segmentLabel(segments, beat.segment) : edge);

function gapFlag(segments: Segment[], from: Beat, to: Beat, th: GateThresholds): FlagDraft | null {
  const gap = to.at - from.at;
  const watch = threshold(th, 'gapWatchSeconds');
  if (gap <= watch) return null;
  const span = spanText(from.at, to.at);
  const anchor = from.segment >= 0 ? from.segment : Math.max(0, segmentAt(segments, from.at));
  const suggestions = rehookSuggestions(segments, from.at, to.at, watch);
  return {
    severity: 'WATCH',
    start: from.at,
    end: to.at,
    summary: `${round(gap, 1)} s without a rehook: from ${beatName(segments, from, 'the programme start')} to ${beatName(segments, to, 'the programme end')}`,
    evidence: {
      rule: 'gap',
      gapSeconds: round(gap, 3),
      segment: segmentRef(segments, anchor),
      from: from.segment >= 0 ? segmentRef(segments, from.segment) : 'programme start',
      to: to.segment >= 0 ? segmentRef(segments, to.segment) : 'programme end',
      fields: Object.assign({}, ...[from, to].filter((b) => b.segment >= 0).map((b) => quoted(segments, b.segment, ['markers']))),
      threshold: thresholdValues(th, ['gapWatchSeconds']),
    },
    repair: {
      action: 'add_rehook',
      reachable: false,
      instruction: `Add a rehook (a new question, promise or reveal) in ${span} so no stretch runs over ${watch} s${suggestions.length > 0 ? `, e.g. at ${suggestions.join(', ')}` : ''}, and mark it with markers: ["rehook"].`,
      verify: verify('rehook_cadence', span),
    },
  };
}

function noRehookFlag(segments: Segment[], end: number, th: GateThresholds): FlagDraft {
  const hookIndex = segments.findIndex((s) => hasMarker(s, 'hook'));
  const anchor = Math.max(0, hookIndex);
  const every = threshold(th, 'gapWatchSeconds');
  const suggestions = rehookSuggestions(segments, segments[anchor].start, end, every);
  return {
    severity: 'BLOCK',
    start: segments[anchor].start,
    end,
    summary: `No rehook in ${round(end / 60, 1)} min of programme; ${hookIndex >= 0 ? `only the hook at ${segmentLabel(segments, hookIndex)}` : 'not even a hook'}`,
    evidence: {
      rule: 'no_rehook',
      programmeSeconds: round(end, 3),
      rehooks: 0,
      segment: segmentRef(segments, anchor),
      fields: quoted(segments, anchor, ['markers']),
      threshold: thresholdValues(th, ['noRehookBlockSeconds', 'gapWatchSeconds']),
    },
    repair: {
      action: 'add_rehook',
      reachable: false,
      instruction: `Add a rehook about every ${every} s after ${segmentPath(anchor)}${suggestions.length > 0 ? `, e.g. at ${suggestions.join(', ')}` : ''}, and mark each with markers: ["rehook"].`,
      verify: 'Re-run the check with checks=rehook_cadence; expect no rehook_cadence BLOCK.',
    },
  };
}

const rehookCadence = withManifest('rehook_cadence', (ctx, manifest) => {
  const segments = manifest.segments;
  const th = ctx.thresholds;
  if (!markersDeclared(manifest)) return undeclared('rehook_cadence', 'needs manifest markers: no segment declares markers', { segments: segments.length, markersDeclared: false });
  const end = programmeEnd(ctx, manifest);
  const rehooks = segments.filter((s) => hasMarker(s, 'rehook')).length;
  const timeline = beats(segments, end);
  const gaps = timeline.slice(1).map((to, i) => ({ from: timeline[i], to }));
  const noRehookAtAll = rehooks === 0 && end > threshold(th, 'noRehookBlockSeconds');
  const flags = noRehookAtAll ? [noRehookFlag(segments, end, th)] : gaps.flatMap((g) => gapFlag(segments, g.from, g.to, th) ?? []);
  return gateResult(
    'rehook_cadence',
    {
      segments: segments.length,
      markersDeclared: true,
      programmeSeconds: round(end, 3),
      hooks: segments.filter((s) => hasMarker(s, 'hook')).length,
      rehooks,
      longestGapSeconds: round(gaps.reduce((m, g) => Math.max(m, g.to.at - g.from.at), 0), 3),
    },
    flags,
  );
});

// ---------------------------------------------------------------- catalogue

const structureGate = (id: string, title: string, algorithm: string, run: (ctx: GateContext) => GateResult): GateDefinition =>
  defineGate({ id, area: 'structure', title, algorithm, requires: { kinds: ['video'], sidecars: ['manifest'] }, thresholds: (delivery) => manifestThresholds(delivery)[id] ?? {}, run });

const NAMES =
  'Names are compared as whole words and phrases with case, accents and punctuation normalised ("interface" never matches "face"); two names match when one contains the other.';

export const manifestGates: GateDefinition[] = [
  structureGate(
    'repeat_fatigue',
    'Near-identical shots reused too often',
    'Declared reuse: segments (except talking_head, which is continuous A-roll) are the same shot when they share a visualFile or the same sourceFamily and description; ' +
      'touching segments of one shot are one use. A use is WATCH from the watchUses-th use and BLOCK from the blockUses-th, and WATCH when it starts less than ' +
      'minReuseGapSeconds after the previous use ended; assets listed in assetTriage.reused are capped at WATCH. Picture reuse, when the check decoded the video: ' +
      'every repeated picture sequence the engine found (the loop_freeze detector: frame hashes and thumbnails matching an earlier run) of at least ' +
      'pictureRepeatWatchSeconds is WATCH, of at least pictureRepeatBlockSeconds BLOCK, named by the segments at both times and whether the manifest declares them the same shot.',
    repeatFatigue,
  ),
  structureGate(
    'speaker_visual_binding',
    'Speaker shown while speaking',
    'A talking_head segment whose onScreenCharacter differs from its speaker is BLOCK; one with no speaker declared, with speaker null (unless intendedPause), or with ' +
      'onScreenCharacter null is WATCH. In other segments a voice-over is normal: WATCH only when the on-screen character is one who speaks elsewhere in the manifest ' +
      'and someone else speaks here. Character names are compared as normalised words.',
    speakerVisualBinding,
  ),
  structureGate(
    'static_head_dominance',
    'Static talking head dominating',
    'Talking-head time is the union of talking_head segments (other kinds, intendedStatic b-roll included, do not count). Its share of the programme (the media duration, ' +
      'or the manifest end without media) above watchSharePct is WATCH and above blockSharePct BLOCK; each unbroken run of touching talking_head segments longer than ' +
      'runWatchSeconds is WATCH and longer than runBlockSeconds BLOCK.',
    staticHeadDominance,
  ),
  structureGate(
    'literal_subject_match',
    'Visual matches the named subject',
    'WATCH for a segment none of whose subjects is named in its narration, its description or its namedEntities, and WATCH for a segment whose namedEntities include a name that no ' +
      `segment overlapping it in time lists in its subjects (other segments showing it are cited). ${NAMES}`,
    literalSubjectMatch,
  ),
  structureGate(
    'visual_narration_match',
    'Visual matches the narration',
    'For each segment declaring both namedEntities and subjects: when none of its named entities matches any of its subjects, the narration is about one thing over a ' +
      `picture of another. BLOCK when a subject is a name the manifest's narration names somewhere (a wrong, identifiable picture), else WATCH. ${NAMES}`,
    visualNarrationMatch,
  ),
  structureGate(
    'first_three_seconds',
    'Hook in the first three seconds',
    'When the manifest declares markers: the first segment marked hook must start by hookWatchStartSeconds (later is WATCH, after hookBlockStartSeconds BLOCK); no hook at all ' +
      'has the profile’s missingHookSeverity. Always: the opening without content (an undeclared gap before the first segment plus leading title_card or intendedPause ' +
      'segments not marked hook) longer than openingWatchSeconds is WATCH and longer than openingBlockSeconds BLOCK.',
    firstThreeSeconds,
  ),
  structureGate(
    'end_screen_tease',
    'End screen tease present',
    'Needs declared markers. Where requireCta holds and the programme is at least minProgrammeSeconds long, a segment marked cta must overlap the last ctaWindowSeconds; ' +
      'a call to action only earlier, or none, is WATCH.',
    endScreenTease,
  ),
  structureGate(
    'rehook_cadence',
    'Re-hooks at a steady cadence',
    'Needs declared markers. The programme start, the start of every hook or rehook segment and the programme end split the timeline; each gap longer than ' +
      'gapWatchSeconds is WATCH, with segments near each missing beat suggested. A programme longer than noRehookBlockSeconds with no rehook at all is one BLOCK instead.',
    rehookCadence,
  ),
];
