// Thresholds of the transcript gates and chunk_sidecar_failures per delivery profile, with sources.
// No authority publishes numbers for these checks: almost all are Preflight house rules, each saying why.
// The phrase lists of spoken_leaks are data here so they are published in docs/gates.md with the numbers.
import { STAGE_DIRECTION_WORDS } from '../text/annotations.js';
import type { GateThresholds, ThresholdValue } from '../types.js';
import type { DeliveryProfileId } from './index.js';
import { t, VERTICAL_DELIVERIES } from './threshold-values.js';

const house = (value: ThresholdValue['value'], unit: string, why: string): ThresholdValue => t(value, unit, `Preflight house rule: ${why}`, 'house');
const list = (value: string[], why: string): ThresholdValue => t(value, 'list', `Preflight house list: ${why}`, 'house');

function spokenLeaks(): GateThresholds {
  return {
    urlTlds: list(
      ['com', 'org', 'net', 'io', 'ai', 'co', 'dev', 'app', 'gov', 'edu', 'info', 'tv', 'me', 'ly', 'xyz', 'uk', 'de', 'fr', 'nl', 'eu'],
      'common top-level domains; a domain is a word, "dot" and one of these (spoken) or a written name ending in one',
    ),
    domainStopWords: list(
      ['the', 'a', 'an', 'this', 'that', 'these', 'those', 'of', 'in', 'on', 'at', 'to', 'for', 'and', 'or', 'but', 'my', 'your', 'our', 'their', 'his', 'her', 'its', 'is', 'was'],
      'function words that cannot name a domain, so "the dot com bubble" is not a URL',
    ),
    markupPhrases: list(
      ['asterisk asterisk', 'double asterisk', 'hashtag heading', 'hash heading', 'hashtag hashtag', 'hash hash', 'pound pound', 'triple backtick', 'backtick backtick', 'underscore underscore'],
      'markdown symbols read aloud by a voice engine; BLOCK',
    ),
    markupWatchPhrases: list(
      ['bullet point', 'open bracket', 'close bracket', 'open parenthesis', 'close parenthesis', 'backtick'],
      'markup names that also occur in ordinary speech (a coding tutorial, "one bullet point"); WATCH for a person to judge',
    ),
    promptPhrases: list(
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
    numberedParameters: list(['seed', 'cfg'], 'generation parameters that leak only when a number follows ("seed 1234"; "mustard seed" does not); BLOCK'),
    generatorNames: list(
      ['midjourney', 'stable diffusion', 'dall-e', 'chatgpt', 'chat gpt', 'gpt-4', 'gpt-4o', 'elevenlabs', 'eleven labs', 'heygen', 'synthesia', 'leonardo ai', 'kling ai', 'runway gen-3', 'luma dream machine', 'suno ai', 'udio'],
      'distinctive names of image, video, voice and text generators; names that are also ordinary words or first names are left out (add them to the watchlist banned list). WATCH: a video may be about these tools',
    ),
    placeholderPhrases: list(
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
    placeholderMarkers: list(['TODO', 'FIXME', 'XXX'], 'editorial markers, matched as written in capitals only; BLOCK'),
    placeholderWords: list(
      ['name', 'insert', 'placeholder', 'your', 'todo', 'tbd', 'link', 'url', 'title', 'company', 'product', 'brand', 'date', 'variable', 'xxx'],
      'a square-bracketed text with one of these words is a placeholder ("[NAME]"), BLOCK; other bracketed text is a stage direction, WATCH',
    ),
    stageDirectionWords: list(
      [...STAGE_DIRECTION_WORDS],
      'a parenthesised or asterisk-wrapped aside of up to 3 words with one of these words is a stage direction ("(laughs)"); square-bracketed text always is',
    ),
    maxFlags: house(100, 'flags', 'flags listed per check (BLOCK first, then in time order); every finding is counted in the measurements'),
  };
}

function pronunciationWatchlist(): GateThresholds {
  return {
    bannedVariantSeverity: house('BLOCK', 'severity', 'a watch-listed wrong form of a term (a mispronounced name) is an error the producer named in advance'),
    bannedWordSeverity: house('BLOCK', 'severity', 'the watchlist defines top-level banned words as "must not be said at all"'),
    maxFlagsPerPhrase: house(25, 'flags', 'flags listed per banned phrase (a filler word can occur hundreds of times); every occurrence is counted in the measurements'),
  };
}

function scriptFaithfulness(delivery: DeliveryProfileId): GateThresholds {
  const aiRender = delivery === 'ai_render_gate';
  return {
    werWatchPct: house(
      aiRender ? 8 : 10,
      '% of script words',
      'well above the word error rate of current speech recognition on clean read speech (about 3–5 %; Whisper large-v2 reports 2.7 % on LibriSpeech test-clean), so recognition noise alone does not trip it' +
        (aiRender ? '; tighter for AI renders, whose narration is synthesised from the script word for word' : ''),
    ),
    werBlockPct: house(aiRender ? 20 : 25, '% of script words', 'a quarter of the script missing, changed or added is a different narration, not a rendering error'),
    minSpanWords: house(3, 'words', 'drifting spans of 1–2 words are left to the WER: recognition errors and number formats ("16" against "sixteen") look like that'),
    spanBlockWords: house(15, 'words', 'a drifting span this long is a skipped, repeated or ad-libbed sentence'),
    spanMergeWords: house(2, 'words', 'change blocks separated by this many matching words or fewer are one drifting span'),
    maxFlags: house(50, 'flags', 'drifting spans listed as flags (largest first, then shown in time order); every span is counted in the measurements'),
  };
}

function sentenceBoundary(delivery: DeliveryProfileId): GateThresholds {
  const vertical = VERTICAL_DELIVERIES.includes(delivery);
  const podcast = delivery === 'podcast_delivery';
  const [tailWatch, tailBlock, tailWhy] = vertical
    ? [4, 10, 'a short loses viewers (and loops) on seconds without speech at the end']
    : podcast
      ? [30, 120, 'outro music after the last words is normal in a podcast; minutes of it are an export error']
      : [25, 60, 'video-site end screens last 5–20 s after the last words (YouTube Help, "Add end screens to videos"), plus a margin'];
  return {
    preRollWatchSeconds: house(0.1, 's', 'speech starting this close to the first frame gets clipped by players and platforms that fade in or trim the start'),
    tailGapWatchSeconds: house(tailWatch, 's', tailWhy),
    tailGapBlockSeconds: house(tailBlock, 's', tailWhy),
    cutOffSeconds: house(0.25, 's', 'an unfinished sentence whose last word ends this close to the media end was cut by the end of the file (BLOCK); further from the end it is WATCH'),
    overrunWatchSeconds: house(0.5, 's', 'transcript times past the media end mean the file was cut short, or the transcript belongs to another version'),
  };
}

function dialogueInMusicShort(): GateThresholds {
  return {
    maxShortSeconds: t(180, 's', 'Shorts are at most 180 s (DESIGN.md reference values; YouTube Shorts limit)', 'secondary'),
    sparseSpeechWatchPct: house(
      30,
      '% of the duration',
      'speech under this share of a short makes it music-led, where a few spoken lines are easily buried under the music; a person should check the mix',
    ),
    assumedWordsPerSecond: house(2.5, 'words/s', 'typical narration rate (about 150 words a minute), used to estimate speech time when the transcript has no timings'),
    lineGapSeconds: house(1.0, 's', 'words closer than this belong to one spoken line'),
  };
}

function chunkSidecarFailures(): GateThresholds {
  return {
    doneStatuses: list(
      ['ok', 'done', 'pass', 'passed', 'success', 'succeeded', 'complete', 'completed', 'finished', 'rendered'],
      'statuses that mean the chunk finished; any other status (running, pending, queued, …) is WATCH; failed statuses are BLOCK',
    ),
    passVerdicts: list(['PASS', 'OK'], 'verdicts that mean the chunk passed its own QC; WATCH or an unknown verdict is WATCH; failed verdicts are BLOCK'),
  };
}

export function transcriptThresholds(delivery: DeliveryProfileId): Record<string, GateThresholds> {
  return {
    spoken_leaks: spokenLeaks(),
    pronunciation_watchlist: pronunciationWatchlist(),
    script_faithfulness: scriptFaithfulness(delivery),
    sentence_boundary: sentenceBoundary(delivery),
    dialogue_in_music_short: dialogueInMusicShort(),
    chunk_sidecar_failures: chunkSidecarFailures(),
  };
}
