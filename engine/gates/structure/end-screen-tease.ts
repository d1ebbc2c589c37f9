// end_screen_tease: a call to action in the last seconds of the programme.
import { isVerticalDelivery, t } from '../../profiles/threshold-values.js';
import type { FlagDraft, GateThresholds } from '../../types.js';
import { defineGate } from '../define.js';
import { gateResult } from '../kit/result.js';
import { round } from '../kit/stats.js';
import { threshold, thresholdFlag, thresholdValues } from '../kit/thresholds.js';
import { spanText } from '../kit/wording.js';
import { hasMarker, listedRefs, markersDeclared, programmeEnd, quoted, segmentLabel, segmentPath, segmentRef, undeclared, verify, withManifest, type Segment } from './manifest-segments.js';

function endScreenTeaseThresholds(short: boolean): GateThresholds {
  const endScreenDoc = 'Video-site help pages (end screens sit in the last 5–20 s of a video at least 25 s long; not on shorts), via third-party guides';
  return {
    ctaWindowSeconds: t(short ? 5 : 20, 's', short ? 'Preflight house rule: a short’s call to action belongs in its last seconds' : endScreenDoc, short ? 'house' : 'secondary'),
    requireCta: t(
      !short,
      'boolean',
      short
        ? 'Video-site help pages via third-party guides: shorts carry no end screen, so a missing tease is not reported'
        : 'Preflight house rule on top of the end-screen window: long form without a tease loses the next click',
      short ? 'secondary' : 'house',
    ),
    minProgrammeSeconds: t(25, 's', endScreenDoc, 'secondary'),
  };
}

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

const judgeEndScreenTease = withManifest('end_screen_tease', (ctx, manifest) => {
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

export const endScreenTeaseGate = defineGate({
  id: 'end_screen_tease',
  area: 'structure',
  title: 'End screen tease present',
  algorithm:
    'Needs declared markers. Where requireCta holds and the programme is at least minProgrammeSeconds long, a segment marked cta must overlap the last ctaWindowSeconds; ' +
      'a call to action only earlier, or none, is WATCH.',
  requires: { kinds: ['video'], sidecars: ['manifest'] },
  thresholds: (delivery) => endScreenTeaseThresholds(isVerticalDelivery(delivery)),
  run: judgeEndScreenTease,
});
