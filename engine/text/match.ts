// Whole-word and whole-phrase matching with case, accents and punctuation normalised, so "company" never contains
// "pan", "interface" is not "face", and "mustard seed" is not the prompt word "seed" unless the phrase says so.

export interface Token {
  /** Normalised form: lower case, accents and punctuation removed. */
  norm: string;
  /** Index of the token in the sequence. */
  index: number;
  /** Character range in the original text. */
  start: number;
  end: number;
}

/** Lower case, Unicode-normalised, combining accents stripped, curly quotes and dashes unified. */
export function normalise(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[’‘`´]/g, "'")
    .replace(/[‐‑‒–—―]/g, '-');
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;

/** Words of a text with their positions; apostrophes inside words are kept ("don't"), other punctuation splits. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  // Match on the original text and normalise each word on its own, so character offsets stay exact.
  let index = 0;
  for (const m of text.matchAll(WORD)) {
    tokens.push({ norm: normalise(m[0]).replace(/'/g, ''), index: index++, start: m.index ?? 0, end: (m.index ?? 0) + m[0].length });
  }
  return tokens;
}

/** The normalised words of a phrase. */
export function phraseWords(phrase: string): string[] {
  return tokenize(phrase).map((t) => t.norm);
}

/** A text's words in comparable form (case, accents and punctuation dropped), joined by single spaces; '' when it has none. */
export const wordsKey = (text: string): string => phraseWords(text).join(' ');

/** Every place the phrase occurs as whole consecutive words; returns the index of the first token of each match. */
export function findPhrase(tokens: readonly Token[], phrase: string | readonly string[]): number[] {
  const words = typeof phrase === 'string' ? phraseWords(phrase) : phrase;
  if (words.length === 0) return [];
  const hits: number[] = [];
  outer: for (let i = 0; i + words.length <= tokens.length; i++) {
    for (let k = 0; k < words.length; k++) if (tokens[i + k].norm !== words[k]) continue outer;
    hits.push(i);
  }
  return hits;
}

export function containsPhrase(text: string, phrase: string): boolean {
  return findPhrase(tokenize(text), phrase).length > 0;
}
