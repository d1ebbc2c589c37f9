// visual_narration_match: narration about one thing over a picture of another.
import type { FlagDraft, Severity } from '../../types.js';
import { defineGate } from '../define.js';
import { gateResult } from '../kit/result.js';
import { spanText } from '../kit/wording.js';
import { declaredNames, NAMES, namesMatch, quoted, segmentLabel, segmentPath, segmentRef, undeclared, verify, withManifest, type Segment } from './manifest-segments.js';

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

const judgeVisualNarrationMatch = withManifest('visual_narration_match', (_ctx, manifest) => {
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

export const visualNarrationMatchGate = defineGate({
  id: 'visual_narration_match',
  area: 'structure',
  title: 'Visual matches the narration',
  algorithm:
    'For each segment declaring both namedEntities and subjects: when none of its named entities matches any of its subjects, the narration is about one thing over a ' +
      `picture of another. BLOCK when a subject is a name the manifest's narration names somewhere (a wrong, identifiable picture), else WATCH. ${NAMES}`,
  requires: { kinds: ['video'], sidecars: ['manifest'] },
  run: judgeVisualNarrationMatch,
});
