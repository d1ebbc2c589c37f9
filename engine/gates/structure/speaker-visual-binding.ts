// speaker_visual_binding: who is shown against who speaks, per segment.
import type { FlagDraft, Severity } from '../../types.js';
import { wordsKey } from '../../text/match.js';
import { defineGate } from '../define.js';
import { gateResult } from '../kit/result.js';
import { spanText } from '../kit/wording.js';
import { quoted, sameName, segmentLabel, segmentPath, segmentRef, undeclared, verify, withManifest, type Segment } from './manifest-segments.js';

interface BindingFinding {
  rule: string;
  severity: Severity;
  problem: string;
  fix: string;
  speaksIn?: number;
}

/** Blank names count as none. */
const declaredName = (name: string | null | undefined): string | null | undefined => (name === undefined ? undefined : name === null || wordsKey(name) === '' ? null : name);

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

const judgeSpeakerVisualBinding = withManifest('speaker_visual_binding', (_ctx, manifest) => {
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

export const speakerVisualBindingGate = defineGate({
  id: 'speaker_visual_binding',
  area: 'structure',
  title: 'Speaker shown while speaking',
  algorithm:
    'A talking_head segment whose onScreenCharacter differs from its speaker is BLOCK; one with no speaker declared, with speaker null (unless intendedPause), or with ' +
      'onScreenCharacter null is WATCH. In other segments a voice-over is normal: WATCH only when the on-screen character is one who speaks elsewhere in the manifest ' +
      'and someone else speaks here. Character names are compared as normalised words.',
  requires: { kinds: ['video'], sidecars: ['manifest'] },
  run: judgeSpeakerVisualBinding,
});
