// spoken_leaks: URLs, markup, stage directions, prompt text, generator names and placeholders in the narration.
import { houseList, houseRule } from '../../profiles/threshold-values.js';
import { STAGE_DIRECTION_WORDS } from '../../text/annotations.js';
import { findLeaks, LEAK_CATEGORIES, type LeakCategory, type LeakHit, type LeakRules } from '../../text/leaks.js';
import { charSpan, quote, type Timeline, type TimeSpan } from '../../text/timeline.js';
import type { FlagDraft, GateContext, GateResult, GateThresholds, Repair } from '../../types.js';
import { defineGate } from '../define.js';
import { gateResultAtMs, skippedGate } from '../kit/result.js';
import { threshold, thresholdList } from '../kit/thresholds.js';
import { hms } from '../kit/wording.js';
import { capFlags, contextOf, located, timelineOf, timeSpanText, TIMING_RULE, timingEvidence, verify } from './transcript-evidence.js';

function spokenLeaksThresholds(): GateThresholds {
  return {
    urlTlds: houseList(
      ['com', 'org', 'net', 'io', 'ai', 'co', 'dev', 'app', 'gov', 'edu', 'info', 'tv', 'me', 'ly', 'xyz', 'uk', 'de', 'fr', 'nl', 'eu'],
      'common top-level domains; a domain is a word, "dot" and one of these (spoken) or a written name ending in one',
    ),
    domainStopWords: houseList(
      ['the', 'a', 'an', 'this', 'that', 'these', 'those', 'of', 'in', 'on', 'at', 'to', 'for', 'and', 'or', 'but', 'my', 'your', 'our', 'their', 'his', 'her', 'its', 'is', 'was'],
      'function words that cannot name a domain, so "the dot com bubble" is not a URL',
    ),
    markupPhrases: houseList(
      ['asterisk asterisk', 'double asterisk', 'hashtag heading', 'hash heading', 'hashtag hashtag', 'hash hash', 'pound pound', 'triple backtick', 'backtick backtick', 'underscore underscore'],
      'markdown symbols read aloud by a voice engine; BLOCK',
    ),
    markupWatchPhrases: houseList(
      ['bullet point', 'open bracket', 'close bracket', 'open parenthesis', 'close parenthesis', 'backtick'],
      'markup names that also occur in ordinary speech (a coding tutorial, "one bullet point"); WATCH for a person to judge',
    ),
    promptPhrases: houseList(
      [
        'as an ai language model',
        'as a large language model',
        'as an ai assistant',
        'i cannot fulfill that request',
        'here is your script',
        "here's your script",
        'here is the revised script',
        "here's the revised script",
        'negative prompt',
        'cfg scale',
        'guidance scale',
        'sampling steps',
        'denoising strength',
        'prompt strength',
      ],
      'assistant boilerplate and image/video generation parameter names, never said in a finished narration; BLOCK',
    ),
    numberedParameters: houseList(['seed', 'cfg'], 'generation parameters that leak only when a number follows ("seed 1234"; "mustard seed" does not); BLOCK'),
    generatorNames: houseList(
      ['midjourney', 'stable diffusion', 'dall-e', 'chatgpt', 'chat gpt', 'gpt-4', 'gpt-4o', 'elevenlabs', 'eleven labs', 'heygen', 'synthesia', 'leonardo ai', 'kling ai', 'runway gen-3', 'luma dream machine', 'suno ai', 'udio'],
      'distinctive names of image, video, voice and text generators; names that are also ordinary words or first names are left out (add them to the watchlist banned list). WATCH: a video may be about these tools',
    ),
    placeholderPhrases: houseList(
      [
        'lorem ipsum',
        'dolor sit amet',
        'insert name here',
        'insert text here',
        'insert link here',
        'insert title here',
        'insert product here',
        'insert company here',
        'your name here',
        'your text here',
        'placeholder text',
        'text goes here',
        'name goes here',
      ],
      'template filler never meant to be spoken; BLOCK',
    ),
    placeholderMarkers: houseList(['TODO', 'FIXME', 'XXX'], 'editorial markers, matched as written in capitals only; BLOCK'),
    placeholderWords: houseList(
      ['name', 'insert', 'placeholder', 'your', 'todo', 'tbd', 'link', 'url', 'title', 'company', 'product', 'brand', 'date', 'variable', 'xxx'],
      'a square-bracketed text with one of these words is a placeholder ("[NAME]"), BLOCK; other bracketed text is a stage direction, WATCH',
    ),
    stageDirectionWords: houseList(
      [...STAGE_DIRECTION_WORDS],
      'a parenthesised or asterisk-wrapped aside of up to 3 words with one of these words is a stage direction ("(laughs)"); square-bracketed text always is',
    ),
    maxFlags: houseRule(100, 'flags', 'flags listed per check (BLOCK first, then in time order); every finding is counted in the measurements'),
  };
}

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
  const where = `${timeSpanText(span)}${noTimings ? ' (no word timings: find the text in the transcript)' : ''}`;
  if (hit.category === 'stage_direction') {
    return {
      action: 'remove_stage_direction',
      reachable: false,
      instruction:
        `The transcript holds "${q}" at ${where}. If the voice reads it aloud, delete it from the script and re-voice ${timeSpanText(span)}; ` +
        'if it is a caption annotation of a real sound, keep it in the captions only, never in the text sent to the voice.',
      verify: verify('spoken_leaks', span),
    };
  }
  return {
    action: 're_voice_span',
    reachable: false,
    instruction: `Remove "${q}" from the script at ${where} (${LEAK_FIX[hit.category]}), then re-voice or re-render ${timeSpanText(span)} and replace it in the edit.`,
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

function judgeSpokenLeaks(ctx: GateContext): GateResult {
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

export const spokenLeaksGate = defineGate({
  id: 'spoken_leaks',
  area: 'transcript',
  title: 'Spoken URLs, markup, prompts or placeholders',
  algorithm:
    'Scans the transcript on whole words and phrases (case, accents and punctuation normalised; engine/text/match.ts), with the phrase lists below. ' +
      'URLs: http(s) followed by "colon", or a written address with protocol or path, is BLOCK; a domain ("example dot com", "www dot …", or written "example.com", ' +
      'a word that is not a function word + "dot" + a listed top-level domain) is WATCH, and BLOCK when "slash" and a path follow. ' +
      'Markup: written markdown (**, __, ```, # headings, [text](link)) and markupPhrases are BLOCK; markupWatchPhrases WATCH. ' +
      'Stage directions: square-bracketed text, and round-bracketed or *asterisk* asides of up to 3 words with a stageDirectionWords word ("(laughs)"), are WATCH. ' +
      'Prompt text: promptPhrases and written parameters (--ar, --seed, --v …) are BLOCK; numberedParameters only when a number follows ("seed 1234", never "mustard seed"); ' +
      '"aspect ratio" followed by a ratio ("16 by 9") is WATCH. generatorNames are WATCH (a video may be about the tool). ' +
      'Placeholders: placeholderPhrases, template variables ({{name}}, {name}), placeholderMarkers written in capitals and square-bracketed text holding a placeholderWords word ("[NAME]") are BLOCK. ' +
      `Overlapping findings keep one: BLOCK first, then the longer. ${TIMING_RULE}`,
  requires: { kinds: ['video', 'audio'], sidecars: ['transcript'] },
  thresholds: spokenLeaksThresholds,
  run: judgeSpokenLeaks,
});
