// canvas_fill: letterbox/pillarbox bars and blurred or flat fill padding, from the canvas signals of content frames.
import type { DeliveryProfileId } from '../../profiles/index.js';
import type { GateContext, GateResult, GateThresholds } from '../../types.js';
import { t, VERTICAL_DELIVERIES } from '../../profiles/threshold-values.js';
import { defineGate } from '../define.js';
import { exceeds, reaches, severityBand } from '../kit/bands.js';
import { gateResult, skippedGate } from '../kit/result.js';
import { round } from '../kit/stats.js';
import { threshold, thresholdValues } from '../kit/thresholds.js';
import { decodedVideo, frameTime } from './video-timeline.js';

function canvasFillThresholds(delivery: DeliveryProfileId): GateThresholds {
  const vertical = VERTICAL_DELIVERIES.includes(delivery);
  return {
    watchAreaPct: t(5, '% of picture', 'Preflight house rule: bars or blurred fill over 5 % of the picture are visible padding', 'house'),
    blockAreaPct: t(
      vertical ? 12 : 30,
      '% of picture',
      vertical
        ? 'Preflight house rule for 9:16 delivery: platforms crop or penalise padded uploads (YouTube Shorts/Reels guidance, approximate)'
        : 'Preflight house rule: a picture this padded (e.g. vertical video pillarboxed in 16:9) was exported on the wrong canvas',
      'house',
    ),
    minShareOfFrames: t(0.6, 'fraction', 'Preflight house rule: padding must be present in most content frames (ignores black intros and fades)', 'house'),
    barLumaMax: t(0.08, 'fraction of luma range', 'Preflight house rule: bar rows/columns are near reference black and flat', 'house'),
    blurDetailRatio: t(0.5, 'ratio', 'Preflight house rule: symmetric side bands whose fine detail (Laplacian) is below 50 % of the centre median are blurred or flat fill', 'house'),
  };
}

function canvasFill(ctx: GateContext): GateResult {
  const v = decodedVideo(ctx, false);
  if (typeof v === 'string') return skippedGate('canvas_fill', v);
  const th = ctx.thresholds;
  const c = v.canvas;
  const minShare = threshold(th, 'minShareOfFrames');
  const bars = {
    top: c.barTopFraction,
    bottom: c.barBottomFraction,
    left: c.barLeftFraction,
    right: c.barRightFraction,
  };
  const fill = { top: c.blurTopFraction, bottom: c.blurBottomFraction, left: c.blurLeftFraction, right: c.blurRightFraction };
  const area = (e: typeof bars) => 100 * (1 - (1 - e.top - e.bottom) * (1 - e.left - e.right));
  const barsOn = c.barFramesShare >= minShare || (ctx.media.kind === 'image' && c.framesConsidered > 0);
  const fillOn = c.blurFramesShare >= minShare || (ctx.media.kind === 'image' && c.framesConsidered > 0);
  const barArea = barsOn ? area(bars) : 0;
  const fillArea = fillOn ? area(fill) : 0;
  const total = Math.min(100, barArea + fillArea);
  const measurements = {
    framesConsidered: c.framesConsidered,
    barsPct: { top: percent(bars.top), bottom: percent(bars.bottom), left: percent(bars.left), right: percent(bars.right) },
    fillPct: { top: percent(fill.top), bottom: percent(fill.bottom), left: percent(fill.left), right: percent(fill.right) },
    barFramesShare: round(c.barFramesShare, 3),
    fillFramesShare: round(c.blurFramesShare, 3),
    paddedAreaPct: round(total, 1),
  };
  // WATCH over watchAreaPct of the picture, BLOCK from blockAreaPct, as the thresholds' sources say.
  const severity = c.framesConsidered === 0 ? null : severityBand(total, threshold(th, 'watchAreaPct'), threshold(th, 'blockAreaPct'), exceeds, reaches);
  if (!severity) return gateResult('canvas_fill', measurements, []);
  const kind = barArea >= fillArea ? 'bars' : 'blurred or flat fill';
  const axis = bars.left + bars.right + fill.left + fill.right > bars.top + bars.bottom + fill.top + fill.bottom ? 'pillarbox' : 'letterbox';
  const start = v.startSeconds;
  const end = v.fps > 0 ? frameTime(v, v.frameCount) : 0;
  const w = ctx.media.video?.displayWidth ?? 0;
  const h = ctx.media.video?.displayHeight ?? 0;
  return gateResult('canvas_fill', measurements, [
    {
      severity,
      start,
      end,
      summary: `${round(total, 1)} % of the picture is ${kind} padding (${axis})`,
      evidence: { ...measurements, padding: kind, layout: axis, threshold: thresholdValues(th, ['watchAreaPct', 'blockAreaPct', 'minShareOfFrames']) },
      repair: {
        action: 'reframe',
        reachable: false,
        instruction:
          `Content fills only part of the ${w}×${h} canvas (${axis} ${kind}). Re-export with the content reframed to fill the canvas ` +
          `(crop/scale in the edit, or render at the content's own aspect ratio for a platform that accepts it) instead of padding it.`,
        verify: 'Re-run the check with checks=canvas_fill; expect no canvas_fill flag.',
      },
    },
  ]);
}

const percent = (f: number) => round(100 * f, 1);

export const canvasFillGate = defineGate({
  id: 'canvas_fill',
  area: 'visual',
  title: 'Letterbox/pillarbox bars and blurred-fill padding',
  algorithm:
    'On content frames only (mean luma ≥ 12 % and < 85 % dark, so black intros and fades do not vote): bars are flat near-black rows/columns from each edge; ' +
    'fill is a symmetric pair of side bands whose detail (luma gradient) is below blurDetailRatio of the centre, e.g. a blurred copy behind vertical footage, ' +
    'that ends at a seam: a step along at least half of the straight line where the fill meets the content, three times the step inside the fill ' +
    '(a soft-focus photo, a caption box, a lower third or a vignette grows detail gradually or in part of the line, and has none). ' +
    'The median extents over content frames give the padded area, counted only when present, within 2 % of those extents (coherent over time), in at least minShareOfFrames of them; ' +
    'a padded area over watchAreaPct is WATCH, from blockAreaPct BLOCK.',
  requires: { kinds: ['video', 'image'], signals: ['video'] },
  thresholds: canvasFillThresholds,
  run: canvasFill,
});
