// literal_subject_match: what a segment shows is named, and what its narration names is shown at that time.
import { containsPhrase } from '../../text/match.js';
import type { FlagDraft } from '../../types.js';
import { defineGate } from '../define.js';
import { gateResult } from '../kit/result.js';
import { spanText } from '../kit/wording.js';
import { declaredNames, listedRefs, NAMES, namesMatch, overlaps, quoted, segmentLabel, segmentPath, segmentRef, undeclared, verify, withManifest, type Segment } from './manifest-segments.js';

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

const judgeLiteralSubjectMatch = withManifest('literal_subject_match', (_ctx, manifest) => {
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

export const literalSubjectMatchGate = defineGate({
  id: 'literal_subject_match',
  area: 'structure',
  title: 'Visual matches the named subject',
  algorithm:
    'WATCH for a segment none of whose subjects is named in its narration, its description or its namedEntities, and WATCH for a segment whose namedEntities include a name that no ' +
      `segment overlapping it in time lists in its subjects (other segments showing it are cited). ${NAMES}`,
  requires: { kinds: ['video'], sidecars: ['manifest'] },
  run: judgeLiteralSubjectMatch,
});
