// Gates on the sidecars: what the transcript says (leaks, watch-listed terms, faithfulness to the script, sentence
// boundaries, dialogue in a music short) and what the chunk reports say. Every flag quotes the text with its time:
// word timings when the transcript has them, else the cue (segment) holding the text, else the whole programme.
import type { ChunkSidecar } from '../sidecars/formats/chunk-sidecar.js';
import type { Transcript } from '../sidecars/formats/transcript.js';
import { alignWords, wordErrorRate, type Alignment, type ChangeBlock } from '../text/align.js';
import { findAnnotations } from '../text/annotations.js';
import { findLeaks, LEAK_CATEGORIES, type LeakCategory, type LeakHit, type LeakRules } from '../text/leaks.js';
import { findPhrase, phraseWords, tokenize, type Token } from '../text/match.js';
import { charSpan, outsideAnnotations, quote, quoteWords, tokenSpan, tokensInRange, widenToWords, transcriptTimeline, type Timeline, type TimeSpan } from '../text/timeline.js';
import type { FlagDraft, GateContext, GateDefinition, GateResult, GateThresholds, Repair, SidecarNeed, Severity } from '../types.js';
import { reaches, severityBand } from './kit/bands.js';
import { trimCommand } from './kit/commands.js';
import { gateResultAtMs, skippedGate } from './kit/result.js';
import { round } from './kit/stats.js';
import { threshold, thresholdList, thresholdSeverity, thresholdValues } from './kit/thresholds.js';
import { hms } from './kit/wording.js';
import { defineGate } from './define.js';
import { transcriptThresholds } from '../profiles/thresholds-transcript.js';

const spanText = (span: TimeSpan) => `${hms(span.start)}-${hms(span.end)}`;
const CONTEXT_WORDS = 5;
/** A trimmed tail keeps this much after the last word, so the programme does not end on the final syllable. */
const TAIL_KEEP_SECONDS = 1;
/** Lines quoted in a dialogue_in_music_short flag. */
const LISTED_LINES = 10;

/** The media has a real timeline (a sidecar-only check has no streams; its duration is only the transcript's end). */
function hasMediaTimeline(ctx: GateContext): boolean {
  return ctx.media.videoStreamCount + ctx.media.audioStreamCount > 0 && Number.isFinite(ctx.media.durationSeconds) && ctx.media.durationSeconds > 0;
}

function timelineOf(ctx: GateContext, transcript: Transcript, stageWords?: readonly string[]): Timeline {
  return transcriptTimeline(transcript, hasMediaTimeline(ctx) ? ctx.media.durationSeconds : 0, stageWords);
}

function timingEvidence(timeline: Timeline): Record<string, unknown> {
  if (timeline.timing === 'words') return { timing: 'words' };
  if (timeline.timing === 'segments') return { timing: 'segments', note: 'segment timings: the time is that of the cue(s) holding the text' };
  return { timing: 'none', note: 'no word timings: the flag spans the whole programme; find the quoted text in the transcript' };
}

function located(span: TimeSpan): Record<string, unknown> {
  return { at: hms(span.start), start: round(span.start, 3), end: round(span.end, 3) };
}

/** A few words either side of a character range, to find the quote by ear or in the transcript. */
function contextOf(timeline: Timeline, from: number, to: number): string {
  const range = tokensInRange(timeline, from, to);
  if (!range) return quote(timeline.text, from, to);
  const first = Math.max(0, range.first - CONTEXT_WORDS);
  const last = Math.min(timeline.tokens.length - 1, range.last + CONTEXT_WORDS);
  return quoteWords(timeline.text, Math.min(from, timeline.tokens[first].start), Math.max(to, timeline.tokens[last].end), 240);
}

function verify(gate: string, span: TimeSpan, what = `${gate} flag`): string {
  return `Re-run the check with checks=${gate}; expect no ${what} at ${spanText(span)}.`;
}

/** The first `max` flags, BLOCK before WATCH then in time order; the rest are counted, not listed. */
function capFlags(flags: FlagDraft[], max: number): { listed: FlagDraft[]; omitted: number } {
  if (flags.length <= max) return { listed: flags, omitted: 0 };
  const rank = (f: FlagDraft) => (f.severity === 'BLOCK' ? 0 : 1);
  const listed = [...flags].sort((x, y) => rank(x) - rank(y) || x.start - y.start).slice(0, max);
  return { listed: listed.sort((x, y) => x.start - y.start), omitted: flags.length - max };
}

function missingSidecars(needed: [string, unknown][]): string | null {
  const missing = needed.filter(([, value]) => value === undefined).map(([name]) => name);
  return missing.length ? `needs ${missing.join(' and ')}` : null;
}

// ---------------------------------------------------------------- spoken_leaks

function leakRules(th: GateThresholds): LeakRules {
  return {
    urlTlds: thresholdList(th, 'urlTlds'),
    domainStopWords: thresholdList(th, 'domainStopWords'),
    markupPhrases: thresholdList(th, 'markupPhrases'),
    markupWatchPhrases: thresholdList(th, 'markupWatchPhrases'),
    promptPhrases: thresholdList(th, 'promptPhrases'),
    numberedParameters: thresholdList(th, 'numberedParameters'),
    generatorNames: thresholdList(th, 'generatorNames'),
    placeholderPhrases: thresholdList(th, 'placeholderPhrases'),
    placeholderMarkers: thresholdList(th, 'placeholderMarkers'),
    placeholderWords: thresholdList(th, 'placeholderWords'),
  };
}

const LEAK_LABEL: Record<LeakCategory, string> = {
  spoken_url: 'URL in the narration',
  markup: 'Markup in the narration',
  stage_direction: 'Stage direction in the transcript',
  prompt_text: 'Prompt or generation text in the narration',
  generator_name: 'Generator name in the narration',
  placeholder: 'Placeholder text in the narration',
};

const LEAK_FIX: Record<Exclude<LeakCategory, 'stage_direction'>, string> = {
  spoken_url: 'say the site name in words, or show the address on screen instead of reading it',
  markup: 'strip markdown from the script before text-to-speech',
  prompt_text: 'it is prompt or generation text, not narration',
  generator_name: 'unless the video is about this tool, cut the name or replace it',
  placeholder: 'replace it with the intended words',
};

function leakRepair(hit: LeakHit, q: string, span: TimeSpan, noTimings: boolean): Repair {
  const where = `${spanText(span)}${noTimings ? ' (no word timings: find the text in the transcript)' : ''}`;
  if (hit.category === 'stage_direction') {
    return {
      action: 'remove_stage_direction',
      reachable: false,
      instruction:
        `The transcript holds "${q}" at ${where}. If the voice reads it aloud, delete it from the script and re-voice ${spanText(span)}; ` +
        'if it is a caption annotation of a real sound, keep it in the captions only, never in the text sent to the voice.',
      verify: verify('spoken_leaks', span),
    };
  }
  return {
    action: 're_voice_span',
    reachable: false,
    instruction: `Remove "${q}" from the script at ${where} (${LEAK_FIX[hit.category]}), then re-voice or re-render ${spanText(span)} and replace it in the edit.`,
    verify: verify('spoken_leaks', span),
  };
}

function leakFlag(timeline: Timeline, hit: LeakHit): FlagDraft {
  const span = charSpan(timeline, hit.from, hit.to);
  const q = quote(timeline.text, hit.from, hit.to);
  return {
    severity: hit.severity,
    start: span.start,
    end: span.end,
    summary: `${LEAK_LABEL[hit.category]} at ${hms(span.start)}: "${q}" (${hit.rule})`,
    evidence: {
      quote: q,
      context: contextOf(timeline, hit.from, hit.to),
      category: hit.category,
      rule: hit.rule,
      ...located(span),
      ...timingEvidence(timeline),
    },
    repair: leakRepair(hit, q, span, timeline.timing === 'none'),
  };
}

function spokenLeaksGate(ctx: GateContext): GateResult {
  const transcript = ctx.sidecars.transcript;
  if (!transcript) return skippedGate('spoken_leaks', 'needs transcript');
  const timeline = timelineOf(ctx, transcript, thresholdList(ctx.thresholds, 'stageDirectionWords'));
  const hits = findLeaks(timeline.text, timeline.tokens, timeline.annotations, leakRules(ctx.thresholds));
  const { listed, omitted } = capFlags(
    hits.map((hit) => leakFlag(timeline, hit)),
    threshold(ctx.thresholds, 'maxFlags'),
  );
  const byCategory = Object.fromEntries(LEAK_CATEGORIES.map((c) => [c, hits.filter((h) => h.category === c).length]));
  return gateResultAtMs(
    'spoken_leaks',
    { timing: timeline.timing, spokenWords: timeline.spoken.length, leaks: hits.length, byCategory, flagsNotListed: omitted },
    listed,
  );
}

// ---------------------------------------------------------------- pronunciation_watchlist

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
  const where = `${spanText(span)}${timeline.timing === 'none' ? ' (no word timings: find the text in the transcript)' : ''}`;
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

function pronunciationWatchlistGate(ctx: GateContext): GateResult {
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

// ---------------------------------------------------------------- script_faithfulness

interface DriftSpan extends ChangeBlock {
  substitutions: number;
  deletions: number;
  insertions: number;
  /** Word errors in the span: substitutions + deletions + insertions. */
  errors: number;
}

function blockErrors(block: ChangeBlock): Pick<DriftSpan, 'substitutions' | 'deletions' | 'insertions' | 'errors'> {
  const ref = block.refEnd - block.refStart;
  const hyp = block.hypEnd - block.hypStart;
  const substitutions = Math.min(ref, hyp);
  return { substitutions, deletions: ref - substitutions, insertions: hyp - substitutions, errors: Math.max(ref, hyp) };
}

/** Change blocks separated by at most `mergeWords` matching words form one drifting span. */
function driftSpans(alignment: Alignment, mergeWords: number): DriftSpan[] {
  const spans: DriftSpan[] = [];
  for (const block of alignment.blocks) {
    const errors = blockErrors(block);
    const previous = spans.at(-1);
    if (previous && block.refStart - previous.refEnd <= mergeWords) {
      previous.refEnd = block.refEnd;
      previous.hypEnd = block.hypEnd;
      previous.substitutions += errors.substitutions;
      previous.deletions += errors.deletions;
      previous.insertions += errors.insertions;
      previous.errors += errors.errors;
    } else {
      spans.push({ ...block, ...errors });
    }
  }
  return spans;
}

interface ScriptWords {
  text: string;
  tokens: Token[];
}

function scriptWords(text: string): ScriptWords {
  return { text, tokens: outsideAnnotations(tokenize(text), findAnnotations(text)) };
}

/** Where a span is in time: its spoken words, or for words left out the pause between the neighbouring spoken words. */
function driftTime(timeline: Timeline, span: DriftSpan): TimeSpan {
  const spoken = timeline.spoken;
  if (span.hypEnd > span.hypStart) return tokenSpan(timeline, spoken[span.hypStart].index, spoken[span.hypEnd - 1].index);
  const start = span.hypStart > 0 ? timeline.ends[spoken[span.hypStart - 1].index] : 0;
  const end = span.hypStart < spoken.length ? timeline.starts[spoken[span.hypStart].index] : timeline.end;
  return { start, end: Math.max(start, end) };
}

function quoteRange(text: string, tokens: readonly Token[], from: number, to: number): string {
  return to > from ? quoteWords(text, tokens[from].start, tokens[to - 1].end) : '';
}

function driftDescription(expected: string, said: string): { summary: string; fix: string } {
  if (said === '') return { summary: `script words not spoken: "${expected}"`, fix: `re-voice the line with the missing words "${expected}", or remove them from the script if the cut is intended` };
  if (expected === '') return { summary: `words not in the script spoken: "${said}"`, fix: `cut "${said}", or add it to the script if the addition is intended` };
  return { summary: `said "${said}", script has "${expected}"`, fix: `re-voice the line as scripted ("${expected}"), or update the script if the new wording is approved` };
}

function driftFlag(ctx: GateContext, timeline: Timeline, script: ScriptWords, span: DriftSpan): FlagDraft {
  const time = driftTime(timeline, span);
  const expected = quoteRange(script.text, script.tokens, span.refStart, span.refEnd);
  const said = quoteRange(timeline.text, timeline.spoken, span.hypStart, span.hypEnd);
  const { summary, fix } = driftDescription(expected, said);
  const noTimings = timeline.timing === 'none' ? ' (no word timings: find the text in the transcript)' : '';
  return {
    severity: reaches(span.errors, threshold(ctx.thresholds, 'spanBlockWords')) ? 'BLOCK' : 'WATCH',
    start: time.start,
    end: time.end,
    summary: `Narration drifts from the script at ${hms(time.start)}: ${summary}`,
    evidence: {
      expected,
      spoken: said,
      wordErrors: span.errors,
      substitutions: span.substitutions,
      deletions: span.deletions,
      insertions: span.insertions,
      scriptWords: span.refEnd > span.refStart ? `${span.refStart + 1}-${span.refEnd}` : `after ${span.refStart}`,
      ...located(time),
      ...timingEvidence(timeline),
      threshold: thresholdValues(ctx.thresholds, ['minSpanWords', 'spanBlockWords', 'spanMergeWords']),
    },
    repair: {
      action: 're_voice_span',
      reachable: false,
      instruction: `At ${spanText(time)}${noTimings}: ${fix}; then replace the span in the edit.`,
      verify: verify('script_faithfulness', time, 'drifting span'),
    },
  };
}

function werFlag(ctx: GateContext, timeline: Timeline, werPct: number, alignment: Alignment, largest: { at: string; expected: string; spoken: string }[]): FlagDraft | null {
  const watch = threshold(ctx.thresholds, 'werWatchPct');
  const block = threshold(ctx.thresholds, 'werBlockPct');
  const severity = severityBand(werPct, watch, block);
  if (!severity) return null;
  const span = { start: 0, end: timeline.end };
  const worst = largest[0];
  return {
    severity,
    start: span.start,
    end: span.end,
    summary: `Narration differs from the expected script: word error rate ${round(werPct, 1)} % (WATCH at ${watch} %, BLOCK at ${block} %)`,
    evidence: {
      werPct: round(werPct, 2),
      scriptWords: alignment.refLength,
      spokenWords: alignment.hypLength,
      substitutions: alignment.substitutions,
      deletions: alignment.deletions,
      insertions: alignment.insertions,
      largestSpans: largest,
      ...timingEvidence(timeline),
      threshold: thresholdValues(ctx.thresholds, ['werWatchPct', 'werBlockPct']),
    },
    repair: {
      action: 're_voice',
      reachable: false,
      instruction:
        `Check that the expected script is the version this narration was made from. If it is, re-voice the drifting spans listed as flags` +
        `${worst ? ` (largest at ${worst.at}: said "${worst.spoken}", script has "${worst.expected}")` : ''}; if the narration is the approved version, update the script.`,
      verify: `Re-run the check with checks=script_faithfulness; expect a word error rate under ${watch} %.`,
    },
  };
}

function scriptFaithfulnessGate(ctx: GateContext): GateResult {
  const missing = missingSidecars([
    ['transcript', ctx.sidecars.transcript],
    ['expected script', ctx.sidecars.expectedScript],
  ]);
  if (missing) return skippedGate('script_faithfulness', missing);
  const script = scriptWords(ctx.sidecars.expectedScript!.text);
  if (script.tokens.length === 0) return skippedGate('script_faithfulness', 'needs expected script: the script has no words');
  const timeline = timelineOf(ctx, ctx.sidecars.transcript!);
  const alignment = alignWords(
    script.tokens.map((t) => t.norm),
    timeline.spoken.map((t) => t.norm),
  );
  const werPct = 100 * (wordErrorRate(alignment) ?? 0);
  const spans = driftSpans(alignment, threshold(ctx.thresholds, 'spanMergeWords'));
  const minWords = threshold(ctx.thresholds, 'minSpanWords');
  const flaggedSpans = spans.filter((s) => s.errors >= minWords);
  const largestFirst = [...flaggedSpans].sort((x, y) => y.errors - x.errors || x.refStart - y.refStart);
  const listedSpans = largestFirst.slice(0, threshold(ctx.thresholds, 'maxFlags')).sort((x, y) => x.refStart - y.refStart);
  const largest = largestFirst.slice(0, 5).map((s) => ({
    at: hms(driftTime(timeline, s).start),
    expected: quoteRange(script.text, script.tokens, s.refStart, s.refEnd),
    spoken: quoteRange(timeline.text, timeline.spoken, s.hypStart, s.hypEnd),
  }));
  const overall = werFlag(ctx, timeline, werPct, alignment, largest);
  return gateResultAtMs(
    'script_faithfulness',
    {
      timing: timeline.timing,
      werPct: round(werPct, 2),
      scriptWords: alignment.refLength,
      spokenWords: alignment.hypLength,
      matchedWords: alignment.matches,
      substitutions: alignment.substitutions,
      deletions: alignment.deletions,
      insertions: alignment.insertions,
      driftingSpans: spans.length,
      flaggedSpans: flaggedSpans.length,
      flagsNotListed: flaggedSpans.length - listedSpans.length,
      bandedGaps: alignment.bandedGaps,
    },
    [...(overall ? [overall] : []), ...listedSpans.map((s) => driftFlag(ctx, timeline, script, s))],
  );
}

// ---------------------------------------------------------------- sentence_boundary

const TERMINAL = /[.!?…]/;
const PUNCTUATED = /[.!?…](?=[\s"'”’)\]]|$)|[,;:](?=\s)/;

/** The text after the last spoken word, annotations removed: does it close the sentence? */
function endsOnSentence(timeline: Timeline, last: Token): boolean {
  let tail = timeline.text.slice(last.end);
  for (const a of [...timeline.annotations].reverse()) {
    if (a.start >= last.end) tail = tail.slice(0, a.start - last.end) + tail.slice(a.end - last.end);
  }
  return TERMINAL.test(tail);
}

/** Character offset where the last sentence begins (after the last terminal punctuation before `end`). */
function lastSentenceStart(text: string, end: number): number {
  for (let i = end - 1; i >= 0; i--) if (TERMINAL.test(text[i])) return i + 1;
  return 0;
}

/** The text from `from` to the end of the word at `to`; a long quote keeps its end (where a sentence is cut). */
function tailQuote(text: string, from: number, to: number, max = 160): string {
  const slice = text
    .slice(from, widenToWords(text, to, to)[1])
    .replace(/\s+/g, ' ')
    .trim();
  return slice.length <= max ? slice : `…${slice.slice(slice.length - max + 1).trimStart()}`;
}

function midSentenceFlag(ctx: GateContext, timeline: Timeline, last: Token, timed: boolean): FlagDraft {
  const from = lastSentenceStart(timeline.text, last.end);
  const span = charSpan(timeline, from, last.end);
  const q = tailQuote(timeline.text, from, last.end);
  const cutOff = threshold(ctx.thresholds, 'cutOffSeconds');
  const lastEnd = timeline.ends[last.index];
  const cut = timed && hasMediaTimeline(ctx) && timeline.end - lastEnd <= cutOff;
  return {
    severity: cut ? 'BLOCK' : 'WATCH',
    start: span.start,
    end: span.end,
    summary: cut
      ? `Programme ends mid-sentence: "${q}" is cut by the end of the file at ${hms(timeline.end)}`
      : `Programme ends on an unfinished sentence: "${q}" (${spanText(span)})`,
    evidence: {
      quote: q,
      ...located(span),
      lastWordEnd: round(lastEnd, 3),
      mediaEnd: round(timeline.end, 3),
      ...timingEvidence(timeline),
      threshold: thresholdValues(ctx.thresholds, ['cutOffSeconds']),
    },
    repair: cut
      ? {
          action: 're_export_ending',
          reachable: false,
          instruction: `The last sentence ("${q}") runs into the end of the file at ${hms(timeline.end)}. Re-export with the out point after the end of the sentence, or re-voice ${spanText(span)} as a complete sentence.`,
          verify: verify('sentence_boundary', span, 'mid-sentence flag'),
        }
      : {
          action: 're_voice_span',
          reachable: false,
          instruction: `The programme's last words ("${q}", ${spanText(span)}) do not finish a sentence. Finish the sentence in the script and re-voice it, or cut back to the end of the previous sentence.`,
          verify: verify('sentence_boundary', span, 'mid-sentence flag'),
        },
  };
}

function firstWords(timeline: Timeline, count = 8): { span: TimeSpan; q: string } {
  const spoken = timeline.spoken;
  const last = spoken[Math.min(spoken.length, count) - 1];
  return { span: tokenSpan(timeline, spoken[0].index, last.index), q: quoteWords(timeline.text, spoken[0].start, last.end) };
}

function preRollFlag(ctx: GateContext, timeline: Timeline): FlagDraft | null {
  const limit = threshold(ctx.thresholds, 'preRollWatchSeconds');
  const firstStart = timeline.starts[timeline.spoken[0].index];
  if (firstStart >= limit) return null;
  const { span, q } = firstWords(timeline);
  return {
    severity: 'WATCH',
    start: span.start,
    end: span.end,
    summary: `Speech starts at ${hms(firstStart)}, with no pre-roll: "${q}"`,
    evidence: { quote: q, firstWordStart: round(firstStart, 3), ...located(span), ...timingEvidence(timeline), threshold: thresholdValues(ctx.thresholds, ['preRollWatchSeconds']) },
    repair: {
      action: 'add_pre_roll',
      reachable: true,
      instruction: `The first word starts at ${hms(firstStart)}, inside the first ${limit} s. Add a short lead-in (e.g. 0.5 s of held first frame and silence) before "${q}" in the edit and re-export.`,
      verify: `Re-run the check with checks=sentence_boundary; expect the first word to start at or after ${limit} s.`,
    },
  };
}

function lastWords(timeline: Timeline, count = 8): { span: TimeSpan; q: string } {
  const spoken = timeline.spoken;
  const first = spoken[Math.max(0, spoken.length - count)];
  const last = spoken[spoken.length - 1];
  return { span: tokenSpan(timeline, first.index, last.index), q: tailQuote(timeline.text, first.start, last.end) };
}

function tailGapFlag(ctx: GateContext, timeline: Timeline, lastEnd: number): FlagDraft | null {
  const watch = threshold(ctx.thresholds, 'tailGapWatchSeconds');
  const block = threshold(ctx.thresholds, 'tailGapBlockSeconds');
  const gap = timeline.end - lastEnd;
  const severity = severityBand(gap, watch, block);
  if (!severity) return null;
  const { q } = lastWords(timeline);
  const span = { start: lastEnd, end: timeline.end };
  return {
    severity,
    start: span.start,
    end: span.end,
    summary: `${round(gap, 1)} s without speech after the last words ("${q}", ending ${hms(lastEnd)})`,
    evidence: {
      quote: q,
      lastWordEnd: round(lastEnd, 3),
      mediaEnd: round(timeline.end, 3),
      tailGapSeconds: round(gap, 3),
      ...timingEvidence(timeline),
      threshold: thresholdValues(ctx.thresholds, ['tailGapWatchSeconds', 'tailGapBlockSeconds']),
    },
    repair: {
      action: 'trim_tail',
      reachable: true,
      instruction:
        `Nothing is said in ${spanText(span)} after "${q}". If that is not an intended end screen or outro (keep those under ${watch} s), ` +
        `trim the tail to ${TAIL_KEEP_SECONDS} s after the last word: ${trimCommand(ctx.media, 'tail', ctx.media.startSeconds + lastEnd + TAIL_KEEP_SECONDS)}`,
      verify: `Re-run the check with checks=sentence_boundary; expect under ${watch} s between the last word and the end.`,
    },
  };
}

function overrunFlag(ctx: GateContext, timeline: Timeline, lastEnd: number): FlagDraft | null {
  const limit = threshold(ctx.thresholds, 'overrunWatchSeconds');
  if (lastEnd - timeline.end <= limit) return null;
  const { q } = lastWords(timeline);
  const span = { start: timeline.end, end: lastEnd };
  return {
    severity: 'WATCH',
    start: span.start,
    end: span.end,
    summary: `Transcript runs ${round(lastEnd - timeline.end, 1)} s past the end of the media (last words "${q}" end at ${hms(lastEnd)})`,
    evidence: { quote: q, lastWordEnd: round(lastEnd, 3), mediaEnd: round(timeline.end, 3), ...timingEvidence(timeline), threshold: thresholdValues(ctx.thresholds, ['overrunWatchSeconds']) },
    repair: {
      action: 'check_export',
      reachable: false,
      instruction: `The transcript has speech until ${hms(lastEnd)} but the file ends at ${hms(timeline.end)}: either the export is cut short (re-export the full programme) or the transcript is of another version (transcribe this file).`,
      verify: 'Re-run the check with checks=sentence_boundary; expect no transcript time past the end of the media.',
    },
  };
}

function sentenceBoundaryGate(ctx: GateContext): GateResult {
  const transcript = ctx.sidecars.transcript;
  if (!transcript) return skippedGate('sentence_boundary', 'needs transcript');
  const timeline = timelineOf(ctx, transcript);
  const spoken = timeline.spoken;
  if (spoken.length === 0) return gateResultAtMs('sentence_boundary', { timing: timeline.timing, spokenWords: 0 }, []);
  const timed = timeline.timing !== 'none';
  const mediaKnown = timed && hasMediaTimeline(ctx);
  const last = spoken[spoken.length - 1];
  const lastEnd = spoken.reduce((latest, t) => Math.max(latest, timeline.ends[t.index]), 0);
  const punctuated = PUNCTUATED.test(timeline.text);
  const onSentence = punctuated ? endsOnSentence(timeline, last) : null;
  const overrun = mediaKnown ? overrunFlag(ctx, timeline, lastEnd) : null;
  const flags = [
    onSentence === false ? midSentenceFlag(ctx, timeline, last, timed) : null,
    timed ? preRollFlag(ctx, timeline) : null,
    mediaKnown && !overrun ? tailGapFlag(ctx, timeline, lastEnd) : null,
    overrun,
  ].filter((f): f is FlagDraft => f !== null);
  return gateResultAtMs(
    'sentence_boundary',
    {
      timing: timeline.timing,
      spokenWords: spoken.length,
      punctuated,
      endsOnSentence: onSentence,
      firstWordStart: timed ? round(timeline.starts[spoken[0].index], 3) : null,
      lastWordEnd: timed ? round(lastEnd, 3) : null,
      mediaEnd: mediaKnown ? round(timeline.end, 3) : null,
      tailGapSeconds: mediaKnown ? round(timeline.end - lastEnd, 3) : null,
    },
    flags.sort((x, y) => x.start - y.start),
  );
}

// ---------------------------------------------------------------- dialogue_in_music_short

interface SpokenLine {
  first: number;
  last: number;
  start: number;
  end: number;
  /** Seconds covered by the line's words (their union, gaps inside the line excluded). */
  speech: number;
}

/** Consecutive spoken words closer than `gap` seconds form a line. */
function spokenLines(timeline: Timeline, gap: number): SpokenLine[] {
  const lines: SpokenLine[] = [];
  timeline.spoken.forEach((token, k) => {
    const start = timeline.starts[token.index];
    const end = Math.min(timeline.ends[token.index], timeline.end);
    const line = lines.at(-1);
    if (line && start - line.end < gap) {
      line.speech += Math.max(0, end - Math.max(start, line.end));
      line.last = k;
      line.end = Math.max(line.end, end);
    } else {
      lines.push({ first: k, last: k, start, end, speech: Math.max(0, end - start) });
    }
  });
  return lines;
}

function lineEvidence(timeline: Timeline, line: SpokenLine): Record<string, unknown> {
  const q = quoteWords(timeline.text, timeline.spoken[line.first].start, timeline.spoken[line.last].end);
  return { at: hms(line.start), start: round(line.start, 3), end: round(line.end, 3), quote: q };
}

function dialogueInMusicShortGate(ctx: GateContext): GateResult {
  const transcript = ctx.sidecars.transcript;
  if (!transcript) return skippedGate('dialogue_in_music_short', 'needs transcript');
  if (!hasMediaTimeline(ctx)) return skippedGate('dialogue_in_music_short', 'needs the media duration: a sidecar-only check has none');
  const th = ctx.thresholds;
  const duration = ctx.media.durationSeconds;
  const maxShort = threshold(th, 'maxShortSeconds');
  if (duration > maxShort) return skippedGate('dialogue_in_music_short', `applies to shorts of at most ${maxShort} s; this media is ${round(duration, 1)} s`);
  const timeline = timelineOf(ctx, transcript);
  const words = timeline.spoken.length;
  const estimated = timeline.timing === 'none';
  const lines = estimated ? [] : spokenLines(timeline, threshold(th, 'lineGapSeconds'));
  const speech = estimated ? Math.min(duration, words / threshold(th, 'assumedWordsPerSecond')) : lines.reduce((sum, line) => sum + line.speech, 0);
  const coveragePct = (100 * speech) / duration;
  const measurements = {
    timing: timeline.timing,
    spokenWords: words,
    speechSeconds: round(speech, 2),
    speechEstimated: estimated,
    durationSeconds: round(duration, 3),
    speechCoveragePct: round(coveragePct, 1),
    lines: estimated ? null : lines.length,
  };
  const limit = threshold(th, 'sparseSpeechWatchPct');
  if (words === 0 || coveragePct >= limit) return gateResultAtMs('dialogue_in_music_short', measurements, []);
  const listed = lines.slice(0, LISTED_LINES).map((line) => lineEvidence(timeline, line));
  const span = estimated ? { start: 0, end: duration } : { start: lines[0].start, end: lines[lines.length - 1].end };
  const where = estimated
    ? `the spoken lines (no word timings; the transcript reads "${quoteWords(timeline.text, timeline.spoken[0].start, timeline.spoken[words - 1].end)}")`
    : listed.map((l) => `${l.at} "${l.quote}"`).join('; ');
  return gateResultAtMs('dialogue_in_music_short', measurements, [
    {
      severity: 'WATCH',
      start: span.start,
      end: span.end,
      summary: `Dialogue covers ${round(coveragePct, 1)} % of this ${round(duration, 1)} s short (${round(speech, 1)} s of speech${estimated ? ', estimated' : ` in ${lines.length} line${lines.length === 1 ? '' : 's'}`}): it may be buried under the music`,
      evidence: { ...measurements, spokenLines: estimated ? [] : listed, ...timingEvidence(timeline), threshold: thresholdValues(th, ['sparseSpeechWatchPct', 'maxShortSeconds']) },
      repair: {
        action: 'check_mix',
        reachable: false,
        instruction:
          `Listen to ${where}: in a music-led short these lines must sit clearly above the music. Duck the music under each line and caption it; ` +
          'if the short is meant to be music-only, remove the lines.',
        verify: 'This flag measures how little of the short is speech, not the mix: after the fix, confirm by ear that every listed line is intelligible over the music.',
      },
    },
  ]);
}

// ---------------------------------------------------------------- chunk_sidecar_failures

type ChunkState = 'failed' | 'no_status' | 'unfinished' | 'verdict_watch' | 'passed';

function chunkState(chunk: ChunkSidecar, doneStatuses: ReadonlySet<string>, passVerdicts: ReadonlySet<string>): ChunkState {
  if (chunk.failed) return 'failed';
  if (chunk.status === null && chunk.verdict === null) return 'no_status';
  if (chunk.status !== null && !doneStatuses.has(chunk.status.trim().toLowerCase())) return 'unfinished';
  if (chunk.verdict !== null && !passVerdicts.has(chunk.verdict.trim().toUpperCase())) return 'verdict_watch';
  return 'passed';
}

/** A report's own start/end (seconds), when it gives valid ones; else the whole programme. */
function chunkTime(ctx: GateContext, chunk: ChunkSidecar): TimeSpan {
  const { start, end } = chunk.report;
  if (typeof start === 'number' && typeof end === 'number' && Number.isFinite(start) && Number.isFinite(end) && start >= 0 && end >= start) return { start, end };
  return { start: 0, end: Math.max(0, ctx.media.durationSeconds || 0) };
}

function chunkMessage(chunk: ChunkSidecar): string | null {
  for (const key of ['error', 'message', 'reason']) {
    const value = chunk.report[key];
    if (typeof value === 'string' && value.trim() !== '') return quote(value, 0, value.length);
  }
  return null;
}

function describeChunk(chunk: ChunkSidecar): string {
  const parts = [chunk.status !== null ? `status "${chunk.status}"` : null, chunk.verdict !== null ? `verdict "${chunk.verdict}"` : null].filter(Boolean);
  return parts.length ? parts.join(', ') : 'no status or verdict';
}

function chunkRepair(chunk: ChunkSidecar, state: Exclude<ChunkState, 'passed'>, message: string | null): Pick<Repair, 'action' | 'instruction'> {
  const report = `${chunk.source}${message ? `: "${message}"` : ''}`;
  switch (state) {
    case 'failed':
      return { action: 're_render_chunk', instruction: `Re-render chunk ${chunk.id} (${report}), re-assemble the programme from the new chunk and check it again with the new chunk report.` };
    case 'no_status':
      return { action: 'report_chunk_status', instruction: `Chunk ${chunk.id}'s report (${report}) says neither status nor verdict: make the renderer write them (e.g. "status": "done", "verdict": "PASS"), or re-render the chunk.` };
    case 'unfinished':
      return { action: 'wait_for_chunk', instruction: `Chunk ${chunk.id} is still "${chunk.status}" (${report}): let it finish (or re-run it) and assemble the programme only from finished chunks.` };
    case 'verdict_watch':
      return { action: 'review_chunk', instruction: `Chunk ${chunk.id}'s own QC says "${chunk.verdict}" (${report}): review that report before delivery and re-render the chunk if it needs fixing.` };
  }
}

const CHUNK_SUMMARY: Record<Exclude<ChunkState, 'passed'>, string> = {
  failed: 'failed',
  no_status: 'has no status or verdict',
  unfinished: 'is not finished',
  verdict_watch: 'did not pass its own QC',
};

function chunkFlag(ctx: GateContext, chunk: ChunkSidecar, state: Exclude<ChunkState, 'passed'>): FlagDraft {
  const time = chunkTime(ctx, chunk);
  const message = chunkMessage(chunk);
  return {
    severity: state === 'failed' ? 'BLOCK' : 'WATCH',
    start: time.start,
    end: time.end,
    summary: `Chunk ${chunk.id} ${CHUNK_SUMMARY[state]} (${describeChunk(chunk)})${message ? `: "${message}"` : ''}`,
    evidence: { chunk: chunk.id, status: chunk.status, verdict: chunk.verdict, source: chunk.source, ...(message ? { message } : {}), state, ...located(time) },
    repair: { ...chunkRepair(chunk, state, message), reachable: false, verify: `Re-run the check with checks=chunk_sidecar_failures and the new chunk reports; expect no flag for chunk ${chunk.id}.` },
  };
}

function chunkSidecarFailuresGate(ctx: GateContext): GateResult {
  const chunks = ctx.sidecars.chunkSidecars;
  if (!chunks) return skippedGate('chunk_sidecar_failures', 'needs chunk sidecars');
  if (chunks.length === 0) return skippedGate('chunk_sidecar_failures', 'needs chunk sidecars: none were given');
  const done = new Set(thresholdList(ctx.thresholds, 'doneStatuses').map((s) => s.toLowerCase()));
  const pass = new Set(thresholdList(ctx.thresholds, 'passVerdicts').map((s) => s.toUpperCase()));
  const states = chunks.map((chunk) => ({ chunk, state: chunkState(chunk, done, pass) }));
  const count = (state: ChunkState) => states.filter((s) => s.state === state).length;
  const flags = states.flatMap(({ chunk, state }) => (state === 'passed' ? [] : [chunkFlag(ctx, chunk, state)]));
  return gateResultAtMs(
    'chunk_sidecar_failures',
    {
      chunks: chunks.length,
      passed: count('passed'),
      failed: count('failed'),
      unfinished: count('unfinished'),
      noStatus: count('no_status'),
      verdictNotPass: count('verdict_watch'),
      failedChunks: states.filter((s) => s.state === 'failed').map((s) => s.chunk.id),
    },
    flags.sort((x, y) => x.start - y.start),
  );
}

// ---------------------------------------------------------------- definitions

function transcriptGate(id: string, title: string, sidecars: SidecarNeed[], algorithm: string, run: (ctx: GateContext) => GateResult): GateDefinition {
  return defineGate({ id, area: 'transcript', title, algorithm, requires: { kinds: ['video', 'audio'], sidecars }, thresholds: (delivery) => transcriptThresholds(delivery)[id] ?? {}, run });
}

const TIMING_RULE =
  'Flags carry the time of the quoted words: word timings when the transcript has them, else the times of the cue (segment) holding them, ' +
  'else the whole programme, with "no word timings" in the evidence.';

export const transcriptGates: GateDefinition[] = [
  transcriptGate(
    'spoken_leaks',
    'Spoken URLs, markup, prompts or placeholders',
    ['transcript'],
    'Scans the transcript on whole words and phrases (case, accents and punctuation normalised; engine/text/match.ts), with the phrase lists below. ' +
      'URLs: http(s) followed by "colon", or a written address with protocol or path, is BLOCK; a domain ("example dot com", "www dot …", or written "example.com", ' +
      'a word that is not a function word + "dot" + a listed top-level domain) is WATCH, and BLOCK when "slash" and a path follow. ' +
      'Markup: written markdown (**, __, ```, # headings, [text](link)) and markupPhrases are BLOCK; markupWatchPhrases WATCH. ' +
      'Stage directions: square-bracketed text, and round-bracketed or *asterisk* asides of up to 3 words with a stageDirectionWords word ("(laughs)"), are WATCH. ' +
      'Prompt text: promptPhrases and written parameters (--ar, --seed, --v …) are BLOCK; numberedParameters only when a number follows ("seed 1234", never "mustard seed"); ' +
      '"aspect ratio" followed by a ratio ("16 by 9") is WATCH. generatorNames are WATCH (a video may be about the tool). ' +
      'Placeholders: placeholderPhrases, template variables ({{name}}, {name}), placeholderMarkers written in capitals and square-bracketed text holding a placeholderWords word ("[NAME]") are BLOCK. ' +
      `Overlapping findings keep one: BLOCK first, then the longer. ${TIMING_RULE}`,
    spokenLeaksGate,
  ),
  transcriptGate(
    'pronunciation_watchlist',
    'Watch-listed terms pronounced as expected',
    ['transcript', 'watchlist'],
    "Finds each term's banned variants, and the top-level banned phrases, in the spoken words (bracketed annotations left out) as whole words and phrases " +
      '(case, accents and punctuation normalised). A variant inside an occurrence of the expected form is not a mistake. Each occurrence is a flag with ' +
      `bannedVariantSeverity or bannedWordSeverity; saying the expected form is fine and is counted. ${TIMING_RULE}`,
    pronunciationWatchlistGate,
  ),
  transcriptGate(
    'script_faithfulness',
    'Narration follows the expected script',
    ['transcript', 'expected script'],
    'Normalises script and transcript into words (match.ts tokens; bracketed annotations left out) and aligns them: common prefix and suffix, then words unique ' +
      "to both as anchors (patience diff), then Myers' diff between anchors with an edit budget, and a banded Levenshtein alignment for gaps over that budget; a 2-hour programme aligns in well under a second. " +
      'Each change block counts max(script words, spoken words) as errors (substitutions, then deletions or insertions): the Levenshtein WER when edits are ' +
      'separated by matching words, an upper bound otherwise. WER = errors / script words: at werWatchPct WATCH, at werBlockPct BLOCK. ' +
      'Change blocks at most spanMergeWords apart form a drifting span; a span of minSpanWords errors or more is a flag quoting the script against what was said, ' +
      'at the time of the spoken words (or of the pause where script words are missing), BLOCK from spanBlockWords errors. Numbers written as digits in one and as ' +
      `words in the other count as different words. ${TIMING_RULE}`,
    scriptFaithfulnessGate,
  ),
  transcriptGate(
    'sentence_boundary',
    'Programme starts and ends on sentence boundaries',
    ['transcript'],
    'Ends mid-sentence: when the transcript is punctuated, the last spoken word (annotations such as [Music] left out) must be followed by . ! ? or …; ' +
      'if not, WATCH, and BLOCK when its word ends within cutOffSeconds of the media end (the file cuts the sentence). With timings: the first word starting ' +
      'before preRollWatchSeconds is WATCH (no pre-roll); the media running tailGapWatchSeconds (WATCH) or tailGapBlockSeconds (BLOCK) past the last word is a ' +
      'long tail gap; transcript times more than overrunWatchSeconds past the media end are WATCH. Without timings, or in a sidecar-only check, only the ' +
      'ending is judged. An unpunctuated transcript cannot show sentence ends, so its ending is not judged.',
    sentenceBoundaryGate,
  ),
  transcriptGate(
    'dialogue_in_music_short',
    'Dialogue buried in a music short',
    ['transcript'],
    'For media of at most maxShortSeconds (else skipped). Whether dialogue is audible over music cannot be read from a transcript, and the mix is not ' +
      'separated into voice and music here; what is measured is how much of the short is speech: the union of the spoken words\u2019 times ' +
      '(words closer than lineGapSeconds form a line; cue times when there are no word timings; without any timings, words ÷ assumedWordsPerSecond, marked ' +
      'estimated) over the duration. Speech under sparseSpeechWatchPct of a short that has any speech is WATCH: a music-led short whose few lines are easily ' +
      'buried, listed with their times for a person to check by ear. No speech (music only) or more speech passes. Never BLOCK.',
    dialogueInMusicShortGate,
  ),
  {
    ...transcriptGate(
      'chunk_sidecar_failures',
      'Chunk sidecars report failures',
      ['sidecar directory'],
      'One line per chunk report. A chunk whose status or verdict marks it failed (docs/sidecars.md) is BLOCK, named with its status, verdict, source and any ' +
        'error, message or reason text. A chunk with neither status nor verdict, with a status not in doneStatuses (running, pending, …), or with a verdict ' +
        'not in passVerdicts (e.g. WATCH) is WATCH. A report with numeric start and end (seconds) places its flag there; otherwise the flag spans the programme. ' +
        'All chunks finished and passed: pass, with the counts.',
      chunkSidecarFailuresGate,
    ),
    area: 'structure',
  },
];
