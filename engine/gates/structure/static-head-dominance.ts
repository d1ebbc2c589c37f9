// static_head_dominance: the share of talking-head time, and long unbroken talking-head runs.
import { isVerticalDelivery, t } from '../../profiles/threshold-values.js';
import type { FlagDraft, GateThresholds } from '../../types.js';
import { defineGate } from '../define.js';
import { exceeds, severityBand } from '../kit/bands.js';
import { gateResult } from '../kit/result.js';
import { round } from '../kit/stats.js';
import { threshold, thresholdValues } from '../kit/thresholds.js';
import { hms, spanText } from '../kit/wording.js';
import { CONTIGUOUS_EPSILON, excerpt, listedRefs, MAX_LISTED_SEGMENTS, programmeEnd, quoted, segmentPath, segmentRef, undeclared, verify, withManifest, type Segment } from './manifest-segments.js';

function staticHeadDominanceThresholds(short: boolean): GateThresholds {
  return {
    watchSharePct: t(
      short ? 75 : 60,
      '% of programme',
      short
        ? 'Preflight house rule: a short that is mostly one face is a valid format, so only a near-total talking head is noted'
        : 'Preflight house rule: narrated long form with more talking head than cutaways reads as a static lecture',
      'house',
    ),
    blockSharePct: t(
      short ? 95 : 85,
      '% of programme',
      'Preflight house rule: a programme this dominated by a static talking head has almost no visual change',
      'house',
    ),
    runWatchSeconds: t(
      short ? 15 : 45,
      's',
      short
        ? 'Preflight house rule: 15 s without a cut is a third or more of a typical short'
        : 'Preflight house rule: editors cut away from a static head at least every 30–60 s in narrated long form',
      'house',
    ),
    runBlockSeconds: t(short ? 30 : 120, 's', 'Preflight house rule: an unbroken static head this long is the usual point where viewers drop off', 'house'),
  };
}

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

const judgeStaticHeadDominance = withManifest('static_head_dominance', (ctx, manifest) => {
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

export const staticHeadDominanceGate = defineGate({
  id: 'static_head_dominance',
  area: 'structure',
  title: 'Static talking head dominating',
  algorithm:
    'Talking-head time is the union of talking_head segments (other kinds, intendedStatic b-roll included, do not count). Its share of the programme (the media duration, ' +
      'or the manifest end without media) above watchSharePct is WATCH and above blockSharePct BLOCK; each unbroken run of touching talking_head segments longer than ' +
      'runWatchSeconds is WATCH and longer than runBlockSeconds BLOCK.',
  requires: { kinds: ['video'], sidecars: ['manifest'] },
  thresholds: (delivery) => staticHeadDominanceThresholds(isVerticalDelivery(delivery)),
  run: judgeStaticHeadDominance,
});
