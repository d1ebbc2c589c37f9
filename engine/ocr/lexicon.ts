// Whether read lettering is made of real words: English dictionary words (an-array-of-english-words, ~275,000 words),
// numbers and short acronyms. Generated plates often carry letter-shaped nonsense ("Qxvrtplk"), which reads with high
// confidence but is in no dictionary.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let dictionary: Set<string> | null = null;

function words(): Set<string> {
  dictionary ??= new Set(require('an-array-of-english-words') as string[]);
  return dictionary;
}

/** Words of three or more letters are judged; shorter ones carry too little to tell. */
const MIN_JUDGED_LETTERS = 3;
const ACRONYM_MAX = 4;

const isAcronymShaped = (token: string) => token.length <= ACRONYM_MAX && token === token.toUpperCase() && !/\p{N}/u.test(token);

function isRealToken(token: string): boolean {
  if (/\p{N}/u.test(token)) return true;
  if (isAcronymShaped(token)) return true;
  const lower = token.toLowerCase();
  const dict = words();
  if (dict.has(lower)) return true;
  // Plurals, possessives and simple inflections of dictionary words.
  return [/'s$/, /s$/, /es$/, /ed$/, /ing$/].some((suffix) => suffix.test(lower) && dict.has(lower.replace(suffix, '')));
}

export interface WordJudgement {
  judged: string[];
  unreal: string[];
  /** Share of judged words that are real (1 when nothing was judged). */
  realShare: number;
}

export function judgeWords(text: string): WordJudgement {
  const tokens = (text.match(/[\p{L}\p{N}']+/gu) ?? []).map((t) => t.replace(/^'+|'+$/g, ''));
  const judged = tokens.filter((t) => (t.match(/\p{L}/gu) ?? []).length >= MIN_JUDGED_LETTERS || /\p{N}/u.test(t));
  // Short capitals pass as acronyms beside words or numbers ("NASA 2024 launch"), or alone; a line of several of them
  // and nothing else ("QXV RTPL ZBN") is letter-shaped nonsense, not a row of acronyms.
  const acronymsOnly = judged.filter(isAcronymShaped).length >= 2 && judged.every((t) => isAcronymShaped(t) || !isRealToken(t));
  const unreal = judged.filter((t) => !isRealToken(t) || (acronymsOnly && isAcronymShaped(t) && !words().has(t.toLowerCase())));
  return { judged, unreal, realShare: judged.length ? 1 - unreal.length / judged.length : 1 };
}
