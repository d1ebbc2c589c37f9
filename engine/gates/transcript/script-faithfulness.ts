// script_faithfulness: the narration aligned with the expected script: word error rate and drifting spans in time.
import type { DeliveryProfileId } from '../../profiles/index.js';
import { houseRule } from '../../profiles/threshold-values.js';
import { alignWords, wordErrorRate, type Alignment, type ChangeBlock } from '../../text/align.js';
import { findAnnotations } from '../../text/annotations.js';
import { tokenize, type Token } from '../../text/match.js';
import { outsideAnnotations, quoteWords, tokenSpan, type Timeline, type TimeSpan } from '../../text/timeline.js';
import type { FlagDraft, GateContext, GateResult, GateThresholds } from '../../types.js';
import { defineGate } from '../define.js';
import { reaches, severityBand } from '../kit/bands.js';
import { gateResultAtMs, skippedGate } from '../kit/result.js';
import { round } from '../kit/stats.js';
import { threshold, thresholdValues } from '../kit/thresholds.js';
import { hms } from '../kit/wording.js';
import { located, missingSidecars, timelineOf, timeSpanText, TIMING_RULE, timingEvidence, verify } from './transcript-evidence.js';

function scriptFaithfulnessThresholds(delivery: DeliveryProfileId): GateThresholds {
  const aiRender = delivery === 'ai_render_gate';
  return {
    werWatchPct: houseRule(
      aiRender ? 8 : 10,
      '% of script words',
      'well above the word error rate of current speech recognition on clean read speech (about 3–5 %; Whisper large-v2 reports 2.7 % on LibriSpeech test-clean), so recognition noise alone does not trip it' +
        (aiRender ? '; tighter for AI renders, whose narration is synthesised from the script word for word' : ''),
    ),
    werBlockPct: houseRule(aiRender ? 20 : 25, '% of script words', 'a quarter of the script missing, changed or added is a different narration, not a rendering error'),
    minSpanWords: houseRule(3, 'words', 'drifting spans of 1–2 words are left to the WER: recognition errors and number formats ("16" against "sixteen") look like that'),
    spanBlockWords: houseRule(15, 'words', 'a drifting span this long is a skipped, repeated or ad-libbed sentence'),
    spanMergeWords: houseRule(2, 'words', 'change blocks separated by this many matching words or fewer are one drifting span'),
    maxFlags: houseRule(50, 'flags', 'drifting spans listed as flags (largest first, then shown in time order); every span is counted in the measurements'),
  };
}

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
      instruction: `At ${timeSpanText(time)}${noTimings}: ${fix}; then replace the span in the edit.`,
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

function judgeScriptFaithfulness(ctx: GateContext): GateResult {
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

export const scriptFaithfulnessGate = defineGate({
  id: 'script_faithfulness',
  area: 'transcript',
  title: 'Narration follows the expected script',
  algorithm:
    'Normalises script and transcript into words (match.ts tokens; bracketed annotations left out) and aligns them: common prefix and suffix, then words unique ' +
      "to both as anchors (patience diff), then Myers' diff between anchors with an edit budget, and a banded Levenshtein alignment for gaps over that budget; a 2-hour programme aligns in well under a second. " +
      'Each change block counts max(script words, spoken words) as errors (substitutions, then deletions or insertions): the Levenshtein WER when edits are ' +
      'separated by matching words, an upper bound otherwise. WER = errors / script words: at werWatchPct WATCH, at werBlockPct BLOCK. ' +
      'Change blocks at most spanMergeWords apart form a drifting span; a span of minSpanWords errors or more is a flag quoting the script against what was said, ' +
      'at the time of the spoken words (or of the pause where script words are missing), BLOCK from spanBlockWords errors. Numbers written as digits in one and as ' +
      `words in the other count as different words. ${TIMING_RULE}`,
  requires: { kinds: ['video', 'audio'], sidecars: ['transcript', 'expected script'] },
  thresholds: scriptFaithfulnessThresholds,
  run: judgeScriptFaithfulness,
});
