// first_three_seconds: a hook early enough, and no opening without content.
import { isVerticalDelivery, t } from '../../profiles/threshold-values.js';
import type { FlagDraft, GateThresholds, MediaInfo } from '../../types.js';
import { defineGate } from '../define.js';
import { exceeds, severityBand } from '../kit/bands.js';
import { trimCommand } from '../kit/commands.js';
import { gateResult } from '../kit/result.js';
import { round } from '../kit/stats.js';
import { threshold, thresholdSeverity, thresholdValues } from '../kit/thresholds.js';
import { hms, spanText } from '../kit/wording.js';
import { hasMarker, listedRefs, markersDeclared, quoted, segmentLabel, segmentPath, segmentRef, verify, withManifest, type Segment } from './manifest-segments.js';

function firstThreeSecondsThresholds(short: boolean): GateThresholds {
  return {
    hookWatchStartSeconds: t(
      short ? 1.5 : 3.0,
      's',
      short
        ? 'Preflight house rule: a short is swiped away within its first second or two, so the hook must start by 1.5 s'
        : 'Preflight house rule: the hook must start within the first three seconds (the gate’s name)',
      'house',
    ),
    hookBlockStartSeconds: t(
      short ? 3.0 : 10.0,
      's',
      'Preflight house rule: a hook starting this late arrives after most viewers have decided to leave',
      'house',
    ),
    missingHookSeverity: t(
      short ? 'BLOCK' : 'WATCH',
      'severity',
      short
        ? 'Preflight house rule: a short without a hook has nothing to hold the swipe'
        : 'Preflight house rule: long form without a declared hook is worth a look, not a refusal',
      'house',
    ),
    openingWatchSeconds: t(
      short ? 0.5 : 1.5,
      's',
      'Preflight house rule: an opening title card, deliberate pause or undeclared gap this long delays the content',
      'house',
    ),
    openingBlockSeconds: t(
      short ? 1.5 : 3.0,
      's',
      'Preflight house rule: an opening this long with no content uses up the whole hook window',
      'house',
    ),
  };
}

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

const judgeFirstThreeSeconds = withManifest('first_three_seconds', (ctx, manifest) => {
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

export const firstThreeSecondsGate = defineGate({
  id: 'first_three_seconds',
  area: 'structure',
  title: 'Hook in the first three seconds',
  algorithm:
    'When the manifest declares markers: the first segment marked hook must start by hookWatchStartSeconds (later is WATCH, after hookBlockStartSeconds BLOCK); no hook at all ' +
      'has the profile’s missingHookSeverity. Always: the opening without content (an undeclared gap before the first segment plus leading title_card or intendedPause ' +
      'segments not marked hook) longer than openingWatchSeconds is WATCH and longer than openingBlockSeconds BLOCK.',
  requires: { kinds: ['video'], sidecars: ['manifest'] },
  thresholds: (delivery) => firstThreeSecondsThresholds(isVerticalDelivery(delivery)),
  run: judgeFirstThreeSeconds,
});
