// Text that should never reach a viewer's ears: URLs, markup, stage directions, prompt text and generation
// parameters, generator names and placeholders. Pure detection on a text and its match.ts tokens; phrase lists
// are spoken_leaks' thresholds (engine/gates/transcript/spoken-leaks.ts), so they are published with the numbers.
import type { Severity } from '../types.js';
import type { Annotation } from './annotations.js';
import { findPhrase, phraseWords, type Token } from './match.js';

export type LeakCategory = 'spoken_url' | 'markup' | 'stage_direction' | 'prompt_text' | 'generator_name' | 'placeholder';

export const LEAK_CATEGORIES: readonly LeakCategory[] = ['spoken_url', 'markup', 'stage_direction', 'prompt_text', 'generator_name', 'placeholder'];

export interface LeakRules {
  /** Top-level domains recognised after "dot" or in a written domain. */
  urlTlds: readonly string[];
  /** Words that cannot start a spoken domain ("the dot com bubble"). */
  domainStopWords: readonly string[];
  /** Markup symbols read aloud: BLOCK. */
  markupPhrases: readonly string[];
  /** Markup names that also occur in ordinary speech: WATCH. */
  markupWatchPhrases: readonly string[];
  /** Assistant boilerplate and generation-parameter names: BLOCK. */
  promptPhrases: readonly string[];
  /** Parameter names that are a leak only when a number follows ("seed 1234"): BLOCK. */
  numberedParameters: readonly string[];
  /** Generator tool and vendor names: WATCH (a video may be about them). */
  generatorNames: readonly string[];
  /** Placeholder phrases: BLOCK. */
  placeholderPhrases: readonly string[];
  /** Placeholder markers matched as written, in capitals ("TODO"): BLOCK. */
  placeholderMarkers: readonly string[];
  /** Words that make bracketed text a placeholder ("[NAME]") rather than a stage direction. */
  placeholderWords: readonly string[];
}

export interface LeakHit {
  category: LeakCategory;
  severity: Severity;
  /** What was recognised, in words. */
  rule: string;
  /** Character range in the text. */
  from: number;
  to: number;
}

interface Scan {
  text: string;
  tokens: readonly Token[];
  annotations: readonly Annotation[];
  rules: LeakRules;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const isDigits = (norm: string) => /^\d+$/.test(norm);

const NUMBER_WORDS = new Set(
  'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty'.split(' '),
);
const RATIO_JOINERS = new Set(['by', 'to', 'x', 'colon', 'over']);

function hit(category: LeakCategory, severity: Severity, rule: string, from: number, to: number): LeakHit {
  return { category, severity, rule, from, to };
}

function tokenHit(scan: Scan, category: LeakCategory, severity: Severity, rule: string, first: number, last: number): LeakHit {
  return hit(category, severity, rule, scan.tokens[first].start, scan.tokens[last].end);
}

function phraseHits(scan: Scan, phrases: readonly string[], category: LeakCategory, severity: Severity, rule: (phrase: string) => string): LeakHit[] {
  return phrases.flatMap((phrase) => {
    const words = phraseWords(phrase);
    return findPhrase(scan.tokens, words).map((i) => tokenHit(scan, category, severity, rule(phrase), i, i + words.length - 1));
  });
}

function regexHits(scan: Scan, pattern: RegExp, make: (m: RegExpMatchArray) => Omit<LeakHit, 'from' | 'to'> | null): LeakHit[] {
  const hits: LeakHit[] = [];
  for (const m of scan.text.matchAll(pattern)) {
    const made = make(m);
    if (made) hits.push({ ...made, from: m.index ?? 0, to: (m.index ?? 0) + m[0].length });
  }
  return hits;
}

// ---------------------------------------------------------------- URLs

function writtenUrlHits(scan: Scan): LeakHit[] {
  const tlds = scan.rules.urlTlds.map(escapeRegExp).join('|');
  if (!tlds) return [];
  const pattern = new RegExp(`\\bhttps?://\\S+|\\bwww\\.\\S+|\\b[a-z0-9][a-z0-9-]*(?:\\.[a-z0-9-]+)*\\.(?:${tlds})\\b(?:/\\S*)?`, 'giu');
  return regexHits(scan, pattern, (m) => {
    const withPath = /^https?:\/\//i.test(m[0]) || m[0].replace(/^https?:\/\//i, '').includes('/');
    return { category: 'spoken_url', severity: withPath ? 'BLOCK' : 'WATCH', rule: withPath ? 'URL with protocol or path' : 'domain name' };
  });
}

/** "example dot com", "www dot example dot co dot uk slash shop", "https colon slash slash …". */
function spokenUrlHits(scan: Scan): LeakHit[] {
  const { tokens } = scan;
  const tlds = new Set(scan.rules.urlTlds);
  const stop = new Set(scan.rules.domainStopWords);
  const norm = (i: number) => tokens[i]?.norm;
  const hits: LeakHit[] = [];
  for (let i = 1; i + 1 < tokens.length; i++) {
    if (norm(i) !== 'dot' || !tlds.has(norm(i + 1)) || stop.has(norm(i - 1)) || norm(i - 1) === 'dot') continue;
    let first = i - 1;
    while (norm(first - 1) === 'dot' && first >= 2) first -= 2;
    if (norm(first - 1) === 'www') first--;
    let last = i + 1;
    while (norm(last + 1) === 'dot' && norm(last + 2) !== undefined && tlds.has(norm(last + 2))) last += 2;
    let blocking = false;
    while (norm(last + 1) === 'slash' && norm(last + 2) !== undefined) {
      last += 2;
      blocking = true;
    }
    const protocol = protocolBefore(scan, first);
    if (protocol !== null) {
      first = protocol;
      blocking = true;
    }
    hits.push(tokenHit(scan, 'spoken_url', blocking ? 'BLOCK' : 'WATCH', blocking ? 'spoken URL with protocol or path' : 'spoken domain name', first, last));
    i = last;
  }
  return [...hits, ...bareProtocolHits(scan)];
}

/** Index of "http(s)" in "https colon slash slash" just before `index`, or null. */
function protocolBefore(scan: Scan, index: number): number | null {
  const words = scan.tokens.slice(Math.max(0, index - 4), index).map((t) => t.norm);
  const at = words.findIndex((w, k) => (w === 'http' || w === 'https') && words[k + 1] === 'colon');
  return at < 0 ? null : index - words.length + at;
}

function bareProtocolHits(scan: Scan): LeakHit[] {
  const { tokens } = scan;
  const hits: LeakHit[] = [];
  for (let i = 0; i + 1 < tokens.length; i++) {
    if ((tokens[i].norm === 'http' || tokens[i].norm === 'https') && tokens[i + 1].norm === 'colon') {
      hits.push(tokenHit(scan, 'spoken_url', 'BLOCK', 'spoken URL protocol', i, i + 1));
    }
  }
  return hits;
}

// ---------------------------------------------------------------- markup

const WRITTEN_MARKUP = /\[[^\]\n]+\]\([^)\s]+\)|\*\*[^*\n]{1,80}\*\*|\*\*|__[^_\n]{1,80}__|__|```|(?:^|\n)[ \t]*#{1,6}[ \t]|(?:^|\s)#{2,6}\s/g;

function markupHits(scan: Scan): LeakHit[] {
  return [
    ...regexHits(scan, WRITTEN_MARKUP, () => ({ category: 'markup', severity: 'BLOCK', rule: 'markdown left in the text' })),
    ...phraseHits(scan, scan.rules.markupPhrases, 'markup', 'BLOCK', (p) => `markup read aloud ("${p}")`),
    ...phraseHits(scan, scan.rules.markupWatchPhrases, 'markup', 'WATCH', (p) => `possible markup read aloud ("${p}")`),
  ].map(trimWhitespace(scan.text));
}

/** Written-markup matches may start or end on the whitespace around them. */
function trimWhitespace(text: string): (h: LeakHit) => LeakHit {
  return (h) => {
    let { from, to } = h;
    while (from < to && /\s/.test(text[from])) from++;
    while (to > from && /\s/.test(text[to - 1])) to--;
    return { ...h, from, to };
  };
}

// ---------------------------------------------------------------- stage directions and placeholders

function isPlaceholderInner(inner: string, placeholderWords: ReadonlySet<string>): boolean {
  return phraseWords(inner).some((w) => placeholderWords.has(w));
}

function annotationHits(scan: Scan): LeakHit[] {
  const placeholderWords = new Set(scan.rules.placeholderWords);
  return scan.annotations.map((a) =>
    a.bracket === 'square' && isPlaceholderInner(a.inner, placeholderWords)
      ? hit('placeholder', 'BLOCK', 'bracketed placeholder', a.start, a.end)
      : hit('stage_direction', 'WATCH', 'bracketed stage direction', a.start, a.end),
  );
}

const TEMPLATE_VARIABLE = /\{\{[^{}\n]{0,60}\}\}|\{[A-Za-z_][\w.]{0,40}\}/g;

function placeholderHits(scan: Scan): LeakHit[] {
  const markers = scan.rules.placeholderMarkers.map(escapeRegExp).join('|');
  const markerPattern = markers ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${markers})(?![\\p{L}\\p{N}])`, 'gu') : null;
  return [
    ...phraseHits(scan, scan.rules.placeholderPhrases, 'placeholder', 'BLOCK', (p) => `placeholder text ("${p}")`),
    ...regexHits(scan, TEMPLATE_VARIABLE, () => ({ category: 'placeholder', severity: 'BLOCK', rule: 'template variable' })),
    ...(markerPattern ? regexHits(scan, markerPattern, (m) => ({ category: 'placeholder', severity: 'BLOCK', rule: `placeholder marker ${m[0]}` })) : []),
  ];
}

// ---------------------------------------------------------------- prompt text and parameters

const WRITTEN_PARAMETER = /(?<!\S)--(?:ar|aspect|seed|v|version|stylize|stylise|chaos|style|no|q|quality|niji|iw|tile|weird)\b/g;

function isNumberToken(norm: string | undefined): boolean {
  return norm !== undefined && (isDigits(norm) || NUMBER_WORDS.has(norm));
}

/** "aspect ratio 16 by 9", "aspect ratio 16:9", "aspect ratio 16x9" (length of the ratio in tokens, or 0). */
function ratioLength(tokens: readonly Token[], at: number): number {
  const norm = (i: number) => tokens[i]?.norm;
  if (/^\d+x\d+$/.test(norm(at) ?? '')) return 1;
  if (!isNumberToken(norm(at))) return 0;
  if (isNumberToken(norm(at + 1))) return 2;
  if (RATIO_JOINERS.has(norm(at + 1) ?? '') && isNumberToken(norm(at + 2))) return 3;
  return 0;
}

/** "seed 1234", "seed: 1234", "seed=1234", but not "one seed, 3 centimetres deep". */
function joinsValue(text: string, name: Token, value: Token): boolean {
  return /^\s*[:=]?\s*$/.test(text.slice(name.end, value.start));
}

function promptHits(scan: Scan): LeakHit[] {
  const { tokens } = scan;
  const numbered = scan.rules.numberedParameters.flatMap((phrase) => {
    const words = phraseWords(phrase);
    return findPhrase(tokens, words)
      .filter((i) => isDigits(tokens[i + words.length]?.norm ?? '') && joinsValue(scan.text, tokens[i + words.length - 1], tokens[i + words.length]))
      .map((i) => tokenHit(scan, 'prompt_text', 'BLOCK', `generation parameter ("${phrase}" and a number)`, i, i + words.length));
  });
  const ratios = findPhrase(tokens, ['aspect', 'ratio']).flatMap((i) => {
    const length = ratioLength(tokens, i + 2);
    return length ? [tokenHit(scan, 'prompt_text', 'WATCH', 'aspect ratio given as a parameter', i, i + 1 + length)] : [];
  });
  return [
    ...phraseHits(scan, scan.rules.promptPhrases, 'prompt_text', 'BLOCK', (p) => `prompt or assistant text ("${p}")`),
    ...numbered,
    ...ratios,
    ...regexHits(scan, WRITTEN_PARAMETER, (m) => ({ category: 'prompt_text', severity: 'BLOCK', rule: `generation parameter ${m[0]}` })),
  ];
}

// ---------------------------------------------------------------- all

const CATEGORY_PRIORITY: Record<LeakCategory, number> = {
  placeholder: 0,
  prompt_text: 1,
  spoken_url: 2,
  markup: 3,
  generator_name: 4,
  stage_direction: 5,
};

/** Keeps one hit per stretch of text: BLOCK before WATCH, then the longer, then by category priority. */
function withoutOverlaps(hits: LeakHit[]): LeakHit[] {
  const ranked = [...hits].sort(
    (x, y) =>
      (x.severity === y.severity ? 0 : x.severity === 'BLOCK' ? -1 : 1) ||
      y.to - y.from - (x.to - x.from) ||
      CATEGORY_PRIORITY[x.category] - CATEGORY_PRIORITY[y.category] ||
      x.from - y.from,
  );
  const kept: LeakHit[] = [];
  for (const h of ranked) if (!kept.some((k) => k.from < h.to && h.from < k.to)) kept.push(h);
  return kept.sort((x, y) => x.from - y.from || x.to - y.to);
}

/** Index of the first token starting at or after `offset`. */
function tokenAt(tokens: readonly Token[], offset: number): number {
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tokens[mid].start < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Markup read aloud comes in pairs ("asterisk asterisk important asterisk asterisk"): one finding, not two. */
function mergeMarkupPairs(hits: LeakHit[], tokens: readonly Token[]): LeakHit[] {
  const merged: LeakHit[] = [];
  for (const h of hits) {
    const previous = merged.at(-1);
    const close = previous && tokenAt(tokens, h.from) - tokenAt(tokens, previous.to) <= MARKUP_PAIR_GAP_WORDS;
    if (previous && close && h.category === 'markup' && previous.category === 'markup' && previous.rule === h.rule) {
      merged[merged.length - 1] = { ...previous, to: h.to };
    } else {
      merged.push(h);
    }
  }
  return merged;
}

const MARKUP_PAIR_GAP_WORDS = 4;

export function findLeaks(text: string, tokens: readonly Token[], annotations: readonly Annotation[], rules: LeakRules): LeakHit[] {
  const scan: Scan = { text, tokens, annotations, rules };
  const hits = withoutOverlaps(
    [
      ...writtenUrlHits(scan),
      ...spokenUrlHits(scan),
      ...markupHits(scan),
      ...annotationHits(scan),
      ...placeholderHits(scan),
      ...promptHits(scan),
      ...phraseHits(scan, rules.generatorNames, 'generator_name', 'WATCH', (p) => `generator name ("${p}")`),
    ].filter((h) => h.to > h.from),
  );
  return mergeMarkupPairs(hits, tokens);
}
