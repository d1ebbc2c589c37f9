// Thresholds of the visual gates (black_frames, loop_freeze, canvas_fill) per delivery profile, with sources.
import type { GateThresholds } from '../types.js';
import type { DeliveryProfileId } from './index.js';
import { t, VERTICAL_DELIVERIES } from './threshold-values.js';

function blackFrames(): GateThresholds {
  return {
    interiorWatchSeconds: t(0.5, 's', 'Preflight house rule (DESIGN.md): interior black ≥ 0.5 s is WATCH in every video profile', 'house'),
    interiorBlockSeconds: t(2.0, 's', 'Preflight house rule; Netflix source QC trims commercial black to ≤ 2 s', 'secondary'),
    headTailAllowanceSeconds: t(1.0, 's', 'Netflix source QC: 1 s of black at head and tail is normal', 'secondary'),
    pictureBlackRatio: t(0.98, 'fraction', 'ffmpeg blackdetect pic_th default; EBU QC 0016B minimum area', 'primary'),
    pixelBlackLevel: t(0.1, 'fraction of luma range', 'ffmpeg blackdetect pix_th default', 'primary'),
  };
}

function loopFreeze(delivery: DeliveryProfileId): GateThresholds {
  const aiGate = delivery === 'ai_render_gate';
  return {
    freezeWatchSeconds: t(2.0, 's', 'ffmpeg freezedetect d default; SpectraQC 2 s minimum', 'secondary'),
    freezeBlockSeconds: t(aiGate ? 3.0 : 5.0, 's', 'Preflight house rule: a frozen picture this long reads as a broken render', 'house'),
    freezeNoise: t(0.002, 'mean abs luma difference', 'Preflight house rule, on the 192-px analysis picture (freezedetect n=−60 dB is 0.001 at full size); also the static-frame floor of loop detection', 'house'),
    loopWatchSeconds: t(1.0, 's', 'Preflight house rule: a repeated non-static sequence of 1 s is visible to viewers', 'house'),
    loopBlockSeconds: t(aiGate ? 1.5 : 3.0, 's', 'Preflight house rule: repeated sequences are a generation/edit artefact', 'house'),
  };
}

function canvasFill(delivery: DeliveryProfileId): GateThresholds {
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

function avSync(delivery: DeliveryProfileId): GateThresholds {
  const broadcast = delivery === 'broadcast_r128';
  const [watchSource, blockSource] = broadcast
    ? ['ATSC IS-191 (+15/−45 ms at the encoder input), via tvtechnology.com', 'EBU R37 (+40/−60 ms), via tvtechnology.com']
    : ['ITU-R BT.1359-1 detectability (+45/−125 ms), via tvtechnology.com', 'ITU-R BT.1359-1 acceptability (+90/−185 ms), via tvtechnology.com'];
  return {
    audioEarlyWatchMs: t(broadcast ? 15 : 45, 'ms', watchSource, 'secondary'),
    audioLateWatchMs: t(broadcast ? 45 : 125, 'ms', watchSource, 'secondary'),
    audioEarlyBlockMs: t(broadcast ? 40 : 90, 'ms', blockSource, 'secondary'),
    audioLateBlockMs: t(broadcast ? 60 : 185, 'ms', blockSource, 'secondary'),
    audioShortWatchFrames: t(2, 'frames', 'Telestream Qualify FC-108: audio shorter than video by more than 2 frames', 'secondary'),
    audioLongWatchSeconds: t(2, 's', 'Telestream Qualify FC-108: audio longer than video by more than 2 s', 'secondary'),
    durationMismatchBlockSeconds: t(5, 's', 'Preflight house rule: a mismatch this long leaves a silent picture or a blank screen', 'house'),
    syncPatternMinEvents: t(3, 'events', 'Preflight house rule: flash/beep pairs needed before a content-level offset is reported', 'house'),
  };
}

export function visualThresholds(delivery: DeliveryProfileId): Record<string, GateThresholds> {
  return { black_frames: blackFrames(), loop_freeze: loopFreeze(delivery), canvas_fill: canvasFill(delivery), av_sync: avSync(delivery) };
}
