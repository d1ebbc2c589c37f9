// Confirmed readings of the same line in nearby samples become one track: the text, where it was, and for how long.
import { intersectionArea, boxArea, unionFrameBox } from '../gates/kit/geometry.js';
import type { TextObservation, TextTrack } from '../types.js';
import { wordsKey } from '../text/match.js';
import { textSimilarity } from './words.js';
import { median } from '../gates/kit/stats.js';

/** Two readings are the same line when their words are this similar and their boxes overlap this much. */
const SAME_TEXT = 0.8;
const SAME_PLACE = 0.3;

/** A reading its confirming frame read identically; an unstable one differs by a misread letter or two. */
const stable = (o: TextObservation) => o.confirmText === null || wordsKey(o.confirmText) === wordsKey(o.text);

/**
 * Same line: the same words, or similar words where one of the two readings is unstable (a misread). Two stable
 * readings that differ are different texts in the same place ("Caption 12", then "Caption 13").
 */
function sameText(a: TextObservation, b: TextObservation): boolean {
  if (wordsKey(a.text) === wordsKey(b.text)) return true;
  return (!stable(a) || !stable(b)) && textSimilarity(a.text, b.text) >= SAME_TEXT;
}

function overlapShare(a: TextObservation, b: TextObservation): number {
  const smaller = Math.min(boxArea(a.box), boxArea(b.box));
  return smaller > 0 ? intersectionArea(a.box, b.box) / smaller : 0;
}

/** The reading most often seen (ties: the surest one), as the track's text. */
function representativeText(obs: TextObservation[]): string {
  const counts = new Map<string, { n: number; confidence: number }>();
  for (const o of obs) {
    const c = counts.get(o.text) ?? { n: 0, confidence: 0 };
    counts.set(o.text, { n: c.n + 1, confidence: Math.max(c.confidence, o.confidence) });
  }
  return [...counts.entries()].sort((a, b) => b[1].n - a[1].n || b[1].confidence - a[1].confidence || a[0].localeCompare(b[0]))[0][0];
}

/**
 * Groups observations (any order) into tracks: a reading joins the open track of the same text and place last seen
 * at most `maxGapSeconds` earlier. `confirmSeconds` extends the end to the confirming frame.
 */
export function buildTracks(observations: TextObservation[], maxGapSeconds: number, confirmSeconds: number): TextTrack[] {
  const sorted = [...observations].sort((a, b) => a.atSeconds - b.atSeconds || a.box.y - b.box.y || a.box.x - b.box.x);
  const groups: TextObservation[][] = [];
  for (const o of sorted) {
    const open = groups.find((g) => {
      const last = g[g.length - 1];
      return o.atSeconds - last.atSeconds <= maxGapSeconds + 1e-6 && o.atSeconds > last.atSeconds && sameText(o, last) && overlapShare(o, last) >= SAME_PLACE;
    });
    if (open) open.push(o);
    else groups.push([o]);
  }
  return groups.map((g) => ({
    text: representativeText(g),
    start: g[0].seenFromSeconds ?? g[0].atSeconds,
    end: g[g.length - 1].atSeconds + confirmSeconds,
    box: unionFrameBox(g.map((o) => o.box)),
    heightFraction: median(g.map((o) => o.box.h)),
    observations: g,
  }));
}
