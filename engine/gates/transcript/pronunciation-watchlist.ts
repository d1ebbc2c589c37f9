// pronunciation_watchlist: watch-listed wrong forms of terms, and banned phrases, in the spoken words.
import { houseRule } from '../../profiles/threshold-values.js';
import { findPhrase, phraseWords, type Token } from '../../text/match.js';
import { quote, tokenSpan, type Timeline } from '../../text/timeline.js';
import type { FlagDraft, GateContext, GateResult, GateThresholds, Repair, Severity } from '../../types.js';
import { defineGate } from '../define.js';
import { gateResultAtMs, skippedGate } from '../kit/result.js';
import { threshold, thresholdSeverity } from '../kit/thresholds.js';
import { hms } from '../kit/wording.js';
import { contextOf, located, missingSidecars, timelineOf, timeSpanText, TIMING_RULE, timingEvidence, verify } from './transcript-evidence.js';

function pronunciationWatchlistThresholds(): GateThresholds {
  return {
    bannedVariantSeverity: houseRule('BLOCK', 'severity', 'a watch-listed wrong form of a term (a mispronounced name) is an error the producer named in advance'),
    bannedWordSeverity: houseRule('BLOCK', 'severity', 'the watchlist defines top-level banned words as "must not be said at all"'),
    maxFlagsPerPhrase: houseRule(25, 'flags', 'flags listed per banned phrase (a filler word can occur hundreds of times); every occurrence is counted in the measurements'),
  };
}

interface PhraseHit {
  /** Indices into timeline.spoken. */
  first: number;
  last: number;
  phrase: string;
  expected: string | null;
  severity: Severity;
}

function spokenHits(spoken: readonly Token[], phrase: string): { first: number; last: number }[] {
  const words = phraseWords(phrase);
  return findPhrase(spoken, words).map((i) => ({ first: i, last: i + words.length - 1 }));
}

const within = (inner: { first: number; last: number }, outer: { first: number; last: number }) => inner.first >= outer.first && inner.last <= outer.last;

function watchlistHits(ctx: GateContext, timeline: Timeline): PhraseHit[] {
  const watchlist = ctx.sidecars.watchlist!;
  const variantSeverity = thresholdSeverity(ctx.thresholds, 'bannedVariantSeverity');
  const wordSeverity = thresholdSeverity(ctx.thresholds, 'bannedWordSeverity');
  const hits: PhraseHit[] = [];
  for (const term of watchlist.terms) {
    // A wrong form inside the correct one ("New York" in "New York Times") is not a mistake.
    const correct = spokenHits(timeline.spoken, term.expected);
    for (const variant of term.banned) {
      for (const h of spokenHits(timeline.spoken, variant)) {
        if (!correct.some((c) => within(h, c))) hits.push({ ...h, phrase: variant, expected: term.expected, severity: variantSeverity });
      }
    }
  }
  for (const banned of watchlist.banned) {
    for (const h of spokenHits(timeline.spoken, banned)) hits.push({ ...h, phrase: banned, expected: null, severity: wordSeverity });
  }
  return withoutOverlappingPhrases(hits);
}

/** One hit per stretch of speech: the longer phrase wins, then term variants before banned words. */
function withoutOverlappingPhrases(hits: PhraseHit[]): PhraseHit[] {
  const ranked = [...hits].sort((x, y) => y.last - y.first - (x.last - x.first) || Number(x.expected === null) - Number(y.expected === null) || x.first - y.first);
  const kept: PhraseHit[] = [];
  for (const h of ranked) if (!kept.some((k) => k.first <= h.last && h.first <= k.last)) kept.push(h);
  return kept.sort((x, y) => x.first - y.first);
}

function watchlistFlag(timeline: Timeline, hit: PhraseHit, occurrence: number, total: number): FlagDraft {
  const first = timeline.spoken[hit.first];
  const last = timeline.spoken[hit.last];
  const span = tokenSpan(timeline, first.index, last.index);
  const q = quote(timeline.text, first.start, last.end);
  const where = `${timeSpanText(span)}${timeline.timing === 'none' ? ' (no word timings: find the text in the transcript)' : ''}`;
  const repair: Repair =
    hit.expected !== null
      ? {
          action: 're_voice_span',
          reachable: false,
          instruction:
            `At ${where} the narration says "${q}"; the watchlist wants "${hit.expected}". Re-voice the line saying "${hit.expected}" ` +
            '(give the voice engine a phonetic respelling or a pronunciation-dictionary entry) and replace the span in the edit.',
          verify: verify('pronunciation_watchlist', span, `"${hit.phrase}" flag`),
        }
      : {
          action: 're_voice_span',
          reachable: false,
          instruction: `At ${where} the narration says the banned phrase "${q}". Cut it, or re-voice the line without it and replace the span in the edit.`,
          verify: verify('pronunciation_watchlist', span, `"${hit.phrase}" flag`),
        };
  return {
    severity: hit.severity,
    start: span.start,
    end: span.end,
    summary: hit.expected !== null ? `"${q}" said at ${hms(span.start)} instead of "${hit.expected}"` : `Banned phrase "${q}" said at ${hms(span.start)}`,
    evidence: {
      quote: q,
      context: contextOf(timeline, first.start, last.end),
      watchlistEntry: hit.phrase,
      ...(hit.expected !== null ? { expected: hit.expected } : {}),
      occurrence: `${occurrence} of ${total}`,
      ...located(span),
      ...timingEvidence(timeline),
    },
    repair,
  };
}

function watchlistMeasurements(ctx: GateContext, timeline: Timeline, hits: PhraseHit[]): Record<string, unknown> {
  const watchlist = ctx.sidecars.watchlist!;
  const count = (phrase: string, expected: string | null) => hits.filter((h) => h.phrase === phrase && h.expected === expected).length;
  return {
    timing: timeline.timing,
    spokenWords: timeline.spoken.length,
    terms: watchlist.terms.map((term) => ({
      expected: term.expected,
      saidCorrectly: spokenHits(timeline.spoken, term.expected).length,
      banned: Object.fromEntries(term.banned.map((variant) => [variant, count(variant, term.expected)])),
    })),
    bannedPhrases: Object.fromEntries(watchlist.banned.map((phrase) => [phrase, count(phrase, null)])),
    flagged: hits.length,
  };
}

function judgePronunciationWatchlist(ctx: GateContext): GateResult {
  const missing = missingSidecars([
    ['transcript', ctx.sidecars.transcript],
    ['watchlist', ctx.sidecars.watchlist],
  ]);
  if (missing) return skippedGate('pronunciation_watchlist', missing);
  const timeline = timelineOf(ctx, ctx.sidecars.transcript!);
  const hits = watchlistHits(ctx, timeline);
  const perPhrase = threshold(ctx.thresholds, 'maxFlagsPerPhrase');
  const keyOf = (hit: PhraseHit) => `${hit.expected ?? ''}\u0000${hit.phrase}`;
  const totals = new Map<string, number>();
  for (const hit of hits) totals.set(keyOf(hit), (totals.get(keyOf(hit)) ?? 0) + 1);
  const seen = new Map<string, number>();
  const flags: FlagDraft[] = [];
  for (const hit of hits) {
    const occurrence = (seen.get(keyOf(hit)) ?? 0) + 1;
    seen.set(keyOf(hit), occurrence);
    if (occurrence <= perPhrase) flags.push(watchlistFlag(timeline, hit, occurrence, totals.get(keyOf(hit))!));
  }
  return gateResultAtMs('pronunciation_watchlist', { ...watchlistMeasurements(ctx, timeline, hits), flagsNotListed: hits.length - flags.length }, flags);
}

export const pronunciationWatchlistGate = defineGate({
  id: 'pronunciation_watchlist',
  area: 'transcript',
  title: 'Watch-listed terms pronounced as expected',
  algorithm:
    "Finds each term's banned variants, and the top-level banned phrases, in the spoken words (bracketed annotations left out) as whole words and phrases " +
      '(case, accents and punctuation normalised). A variant inside an occurrence of the expected form is not a mistake. Each occurrence is a flag with ' +
      `bannedVariantSeverity or bannedWordSeverity; saying the expected form is fine and is counted. ${TIMING_RULE}`,
  requires: { kinds: ['video', 'audio'], sidecars: ['transcript', 'watchlist'] },
  thresholds: pronunciationWatchlistThresholds,
  run: judgePronunciationWatchlist,
});
