// Bracketed annotations in transcripts and scripts: "[Music]", "(laughs)", "*sighs*". They describe sound or stage
// business, not speech: gates that time or compare speech leave them out, and spoken_leaks reports them.
import { phraseWords } from './match.js';

/** Words that make a parenthesised or asterisk-wrapped aside a stage direction rather than speech. */
export const STAGE_DIRECTION_WORDS: readonly string[] = [
  'applause',
  'background',
  'beep',
  'bleep',
  'breath',
  'breathes',
  'cheering',
  'chuckles',
  'chuckling',
  'clears',
  'coughs',
  'crosstalk',
  'gasps',
  'inaudible',
  'intro',
  'laughing',
  'laughs',
  'laughter',
  'music',
  'noise',
  'outro',
  'pause',
  'sfx',
  'sighs',
  'silence',
  'singing',
  'sniffs',
  'sound',
  'static',
  'unintelligible',
  'whispers',
];

export type AnnotationBracket = 'square' | 'round' | 'asterisk';

export interface Annotation {
  /** Character range in the text, brackets included. */
  start: number;
  end: number;
  /** The text inside the brackets. */
  inner: string;
  bracket: AnnotationBracket;
}

// Square brackets never occur in speech, so any short bracketed text is an annotation. Round brackets and asterisks
// also wrap real words ("the cell (a tiny unit)"), so those count only when a stage-direction word is inside.
const SQUARE = /\[([^[\]\n]{1,80})\]/g;
const ROUND = /\(([^()\n]{1,40})\)/g;
const ASTERISK = /(?<![*\p{L}\p{N}])\*([^*\n]{1,40})\*(?![*\p{L}\p{N}])/gu;
const MAX_ASIDE_WORDS = 3;

function isStageAside(inner: string, stageWords: ReadonlySet<string>): boolean {
  const words = phraseWords(inner);
  return words.length > 0 && words.length <= MAX_ASIDE_WORDS && words.some((w) => stageWords.has(w));
}

/** Annotations in text order, never overlapping. */
export function findAnnotations(text: string, stageWords: readonly string[] = STAGE_DIRECTION_WORDS): Annotation[] {
  const stage = new Set(stageWords);
  const found: Annotation[] = [];
  const collect = (pattern: RegExp, bracket: AnnotationBracket, accept: (inner: string) => boolean) => {
    for (const m of text.matchAll(pattern)) {
      const start = m.index ?? 0;
      const end = start + m[0].length;
      if (!accept(m[1]) || found.some((a) => a.start < end && start < a.end)) continue;
      found.push({ start, end, inner: m[1].trim(), bracket });
    }
  };
  collect(SQUARE, 'square', (inner) => inner.trim() !== '');
  collect(ROUND, 'round', (inner) => isStageAside(inner, stage));
  collect(ASTERISK, 'asterisk', (inner) => isStageAside(inner, stage));
  return found.sort((a, b) => a.start - b.start);
}
