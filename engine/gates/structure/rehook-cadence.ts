// rehook_cadence: hooks and rehooks at a steady cadence through the programme.
import { isVerticalDelivery, t } from '../../profiles/threshold-values.js';
import type { FlagDraft, GateThresholds } from '../../types.js';
import { defineGate } from '../define.js';
import { gateResult } from '../kit/result.js';
import { round } from '../kit/stats.js';
import { threshold, thresholdValues } from '../kit/thresholds.js';
import { hms, spanText } from '../kit/wording.js';
import { CONTIGUOUS_EPSILON, hasMarker, markersDeclared, programmeEnd, quoted, segmentAt, segmentLabel, segmentPath, segmentRef, undeclared, verify, withManifest, type Segment } from './manifest-segments.js';

function rehookCadenceThresholds(short: boolean): GateThresholds {
  return {
    gapWatchSeconds: t(
      short ? 20 : 90,
      's',
      short
        ? 'Preflight house rule: a short needs a fresh reason to keep watching about every 20 s'
        : 'Preflight house rule: retention curves of narrated long form sag when nothing new is promised for about 90 s',
      'house',
    ),
    noRehookBlockSeconds: t(
      short ? 180 : 300,
      's',
      short
        ? 'Preflight house rule: only a vertical programme over 3 min must have a rehook (a short of at most 180 s never does)'
        : 'Preflight house rule: over 5 min with only the opening hook has no retention structure at all',
      'house',
    ),
  };
}

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

const judgeRehookCadence = withManifest('rehook_cadence', (ctx, manifest) => {
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

export const rehookCadenceGate = defineGate({
  id: 'rehook_cadence',
  area: 'structure',
  title: 'Re-hooks at a steady cadence',
  algorithm:
    'Needs declared markers. The programme start, the start of every hook or rehook segment and the programme end split the timeline; each gap longer than ' +
      'gapWatchSeconds is WATCH, with segments near each missing beat suggested. A programme longer than noRehookBlockSeconds with no rehook at all is one BLOCK instead.',
  requires: { kinds: ['video'], sidecars: ['manifest'] },
  thresholds: (delivery) => rehookCadenceThresholds(isVerticalDelivery(delivery)),
  run: judgeRehookCadence,
});
