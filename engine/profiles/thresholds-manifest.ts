// Thresholds of the manifest structure gates (repeat_fatigue, speaker_visual_binding, static_head_dominance,
// literal_subject_match, visual_narration_match, first_three_seconds, end_screen_tease, rehook_cadence) per delivery
// profile. Short-form (vertical) deliveries are judged on a faster clock than long form.
import type { GateThresholds } from '../types.js';
import type { DeliveryProfileId } from './index.js';
import { t, VERTICAL_DELIVERIES } from './threshold-values.js';

const isShortForm = (delivery: DeliveryProfileId) => VERTICAL_DELIVERIES.includes(delivery);

function repeatFatigue(short: boolean): GateThresholds {
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

function staticHeadDominance(short: boolean): GateThresholds {
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

function firstThreeSeconds(short: boolean): GateThresholds {
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

function endScreenTease(short: boolean): GateThresholds {
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

function rehookCadence(short: boolean): GateThresholds {
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

export function manifestThresholds(delivery: DeliveryProfileId): Record<string, GateThresholds> {
  const short = isShortForm(delivery);
  return {
    repeat_fatigue: repeatFatigue(short),
    static_head_dominance: staticHeadDominance(short),
    first_three_seconds: firstThreeSeconds(short),
    end_screen_tease: endScreenTease(short),
    rehook_cadence: rehookCadence(short),
  };
}
