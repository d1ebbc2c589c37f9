import { describe, expect, it } from 'vitest';
import { GATES, thresholdsFor } from '../engine/gates/index.js';
import { type DeliveryProfileId, DELIVERY_PROFILES } from '../engine/profiles/index.js';
import type { EngineSidecars } from '../engine/sidecars/index.js';
import {
  chunksFromJson,
  expectedScriptFromText,
  transcriptFromJson,
  transcriptFromSrt,
  transcriptFromText,
  watchlistFromJson,
  type Transcript,
} from '../engine/sidecars/formats/index.js';
import { alignWords, wordErrorRate } from '../engine/text/align.js';
import type { FlagDraft, GateContext, GateResult, MediaInfo } from '../engine/types.js';

// ---------------------------------------------------------------- fixtures

function mediaInfo(durationSeconds = 60, over: Partial<MediaInfo> = {}): MediaInfo {
  return {
    path: '/media/clip.mp4',
    kind: 'video',
    container: 'mov,mp4,m4a,3gp,3g2,mj2',
    formatLongName: 'QuickTime / MOV',
    sizeBytes: 10_000_000,
    durationSeconds,
    bitRate: 4_000_000,
    startSeconds: 0,
    video: null,
    audio: null,
    videoStreamCount: 1,
    audioStreamCount: 1,
    subtitleStreamCount: 0,
    otherStreams: [],
    ...over,
  };
}

interface RunOptions {
  duration?: number;
  delivery?: DeliveryProfileId;
  media?: MediaInfo;
}

function context(gate: string, sidecars: EngineSidecars, opts: RunOptions = {}): GateContext {
  const delivery = opts.delivery ?? 'video_site_longform';
  return {
    media: opts.media ?? mediaInfo(opts.duration ?? 60),
    signals: { video: null, audio: null, analysisMs: 0 },
    sidecars,
    thresholds: thresholdsFor(gate, delivery),
    profileId: 'nto_long_form',
    deliveryProfile: DELIVERY_PROFILES[delivery],
    timecodeFps: 25,
  };
}

const transcriptGates = GATES.filter((g) =>
  ['spoken_leaks', 'pronunciation_watchlist', 'script_faithfulness', 'sentence_boundary', 'dialogue_in_music_short', 'chunk_sidecar_failures'].includes(g.id),
);

function run(gate: string, sidecars: EngineSidecars, opts: RunOptions = {}): GateResult {
  const definition = transcriptGates.find((g) => g.id === gate);
  if (!definition) throw new Error(`no gate ${gate}`);
  return definition.run(context(gate, sidecars, opts));
}

/** A JSON transcript whose words start at `start` and follow each other every `step` seconds (each lasting 80 % of it). */
function timedWords(text: string, start = 1, step = 0.4): Transcript {
  const words = text
    .split(/\s+/)
    .filter(Boolean)
    .map((word, i) => ({ text: word, start: round3(start + i * step), end: round3(start + i * step + step * 0.8) }));
  return transcriptFromJson({ words });
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

function only(result: GateResult): FlagDraft {
  expect(result.flags, JSON.stringify(result.flags.map((f) => f.summary))).toHaveLength(1);
  return result.flags[0];
}

// ---------------------------------------------------------------- registration

describe('transcript gates in the catalogue', () => {
  it('registers the six sidecar gates, needing no decoded signals', () => {
    const ids = ['spoken_leaks', 'pronunciation_watchlist', 'script_faithfulness', 'sentence_boundary', 'dialogue_in_music_short', 'chunk_sidecar_failures'];
    for (const id of ids) {
      const gate = GATES.find((g) => g.id === id)!;
      expect(gate.requires.signals).toEqual([]);
      expect(gate.requires.kinds).toEqual(['video', 'audio']);
      expect(gate.area).toBe(id === 'chunk_sidecar_failures' ? 'structure' : 'transcript');
      expect(Object.keys(thresholdsFor(id, 'video_site_shorts')).length, id).toBeGreaterThan(0);
    }
  });

  it('skips each gate with the missing sidecar named', () => {
    const transcript = transcriptFromText('Hello there.');
    expect(run('spoken_leaks', {})).toMatchObject({ status: 'skipped', reason: 'needs transcript' });
    expect(run('sentence_boundary', {})).toMatchObject({ status: 'skipped', reason: 'needs transcript' });
    expect(run('dialogue_in_music_short', {})).toMatchObject({ status: 'skipped', reason: 'needs transcript' });
    expect(run('pronunciation_watchlist', {})).toMatchObject({ status: 'skipped', reason: 'needs transcript and watchlist' });
    expect(run('pronunciation_watchlist', { transcript })).toMatchObject({ status: 'skipped', reason: 'needs watchlist' });
    expect(run('script_faithfulness', { transcript })).toMatchObject({ status: 'skipped', reason: 'needs expected script' });
    expect(run('script_faithfulness', { expectedScript: expectedScriptFromText('Hello.') })).toMatchObject({ status: 'skipped', reason: 'needs transcript' });
    expect(run('chunk_sidecar_failures', { transcript })).toMatchObject({ status: 'skipped', reason: 'needs chunk sidecars' });
  });
});

// ---------------------------------------------------------------- spoken_leaks

describe('spoken_leaks', () => {
  it('flags a spoken domain as WATCH at the time of its words, quoting them', () => {
    const flag = only(run('spoken_leaks', { transcript: timedWords('For the full list visit example dot com today.', 2, 0.5) }));
    expect(flag.severity).toBe('WATCH');
    expect(flag.start).toBe(4.5); // "example" is the 6th word: 2 + 5 × 0.5
    expect(flag.end).toBe(5.9); // "com" ends 0.4 s after its start at 5.5
    expect(flag.evidence).toMatchObject({ quote: 'example dot com', context: 'For the full list visit example dot com today.', category: 'spoken_url', at: '00:00:04.500', timing: 'words' });
    expect(flag.summary).toContain('"example dot com"');
    expect(flag.repair.instruction).toContain('00:00:04.500-00:00:05.900');
  });

  it('flags a URL with protocol or path as BLOCK', () => {
    const spoken = run('spoken_leaks', { transcript: timedWords('Source: https colon slash slash example dot com slash wiki slash seeds. Next.') });
    const flag = only(spoken);
    expect(flag.severity).toBe('BLOCK');
    expect(flag.evidence.quote).toBe('https colon slash slash example dot com slash wiki slash seeds');
    const written = only(run('spoken_leaks', { transcript: timedWords('See https://example.com/seeds for more.') }));
    expect(written).toMatchObject({ severity: 'BLOCK', evidence: { quote: 'https://example.com/seeds' } });
  });

  it('flags markdown read aloud or left in the text', () => {
    const read = only(run('spoken_leaks', { transcript: timedWords('This is asterisk asterisk important asterisk asterisk to know.') }));
    expect(read.severity).toBe('BLOCK');
    const written = only(run('spoken_leaks', { transcript: transcriptFromText('The **key** point is growth.') }));
    expect(written).toMatchObject({ severity: 'BLOCK', evidence: { quote: '**key**', category: 'markup' } });
    const bullet = only(run('spoken_leaks', { transcript: timedWords('Bullet point the roots grow first.') }));
    expect(bullet.severity).toBe('WATCH');
  });

  it('flags bracketed stage directions left in the transcript, with cue timings', () => {
    const srt = transcriptFromSrt('1\n00:00:01,000 --> 00:00:03,000\n[Music]\n\n2\n00:00:04,000 --> 00:00:06,500\nAnd then (laughs) it grew.\n');
    const result = run('spoken_leaks', { transcript: srt });
    expect(result.status).toBe('watch');
    expect(result.flags.map((f) => [f.evidence.quote, f.start, f.end, f.evidence.timing])).toEqual([
      ['[Music]', 1, 3, 'segments'],
      ['(laughs)', 4, 6.5, 'segments'],
    ]);
    expect(result.flags[0].evidence.note).toContain('segment timings');
  });

  it('flags prompt text and generation parameters', () => {
    const result = run('spoken_leaks', {
      transcript: timedWords('As an AI language model I love trees. Rendered with seed 1234 and cfg scale seven, negative prompt blurry. Aspect ratio 16 by 9.'),
    });
    expect(result.flags.map((f) => [f.severity, f.evidence.quote])).toEqual([
      ['BLOCK', 'As an AI language model'],
      ['BLOCK', 'seed 1234'],
      ['BLOCK', 'cfg scale'],
      ['BLOCK', 'negative prompt'],
      ['WATCH', 'Aspect ratio 16 by 9'],
    ]);
    expect(result.status).toBe('block');
  });

  it('flags generator names as WATCH and placeholders as BLOCK', () => {
    const result = run('spoken_leaks', {
      transcript: timedWords('Made in Midjourney. Hello [NAME], welcome to {{channel}}. Lorem ipsum dolor. TODO fix this line.'),
    });
    expect(result.flags.map((f) => [f.severity, f.evidence.category, f.evidence.quote])).toEqual([
      ['WATCH', 'generator_name', 'Midjourney'],
      ['BLOCK', 'placeholder', '[NAME]'],
      ['BLOCK', 'placeholder', '{{channel}}'],
      ['BLOCK', 'placeholder', 'Lorem ipsum'],
      ['BLOCK', 'placeholder', 'TODO'],
    ]);
  });

  it('spans the whole programme and says so when the transcript has no timings', () => {
    const flag = only(run('spoken_leaks', { transcript: transcriptFromText('Insert name here and smile.') }));
    expect(flag).toMatchObject({ severity: 'BLOCK', start: 0, end: 60 });
    expect(flag.evidence).toMatchObject({ timing: 'none', quote: 'Insert name here' });
    expect(String(flag.evidence.note)).toContain('no word timings');
    expect(flag.repair.instruction).toContain('no word timings');
  });

  it('does not flag near misses: whole words only, URL-like words that are not URLs', () => {
    const text =
      'A mustard seed is tiny. Our company makes an interface for farmers. The dot com bubble burst, e.g. in 2000. ' +
      'Version 2.0 is out. The process (known as osmosis) is slow. Take steps 1 to 3. The aspect ratio of the frame matters. ' +
      'Todo lists help. Plant one seed, 3 centimetres deep. The https protocol encrypts traffic. Seeds grow.';
    const result = run('spoken_leaks', { transcript: timedWords(text) });
    expect(result.flags.map((f) => f.evidence.quote)).toEqual([]);
    expect(result.status).toBe('pass');
    expect(result.measurements).toMatchObject({ leaks: 0, timing: 'words' });
  });
});

// ---------------------------------------------------------------- pronunciation_watchlist

describe('pronunciation_watchlist', () => {
  const watchlist = watchlistFromJson({ terms: [{ expected: 'Nguyen', banned: ['new yen', 'nuh guy en'] }], banned: ['um'] });

  it('flags a banned variant and a banned word at their times', () => {
    const transcript = timedWords('Today Doctor new yen explains, um, the plan.', 10, 0.5);
    const result = run('pronunciation_watchlist', { transcript, watchlist });
    expect(result.status).toBe('block');
    expect(result.flags.map((f) => [f.severity, f.start, f.evidence.quote, f.evidence.expected])).toEqual([
      ['BLOCK', 11, 'new yen', 'Nguyen'],
      ['BLOCK', 12.5, 'um', undefined],
    ]);
    expect(result.flags[0].summary).toBe('"new yen" said at 00:00:11.000 instead of "Nguyen"');
    expect(result.flags[0].repair.instruction).toContain('00:00:11.000-00:00:11.900');
    expect(result.flags[0].repair.instruction).toContain('"Nguyen"');
  });

  it('uses the severity the profile sets', () => {
    const ctx = context('pronunciation_watchlist', { transcript: timedWords('Doctor new yen.'), watchlist });
    ctx.thresholds = { ...ctx.thresholds, bannedVariantSeverity: { ...ctx.thresholds.bannedVariantSeverity, value: 'WATCH' } };
    const result = transcriptGates.find((g) => g.id === 'pronunciation_watchlist')!.run(ctx);
    expect(only(result).severity).toBe('WATCH');
  });

  it('does not flag the expected form, parts of words, or a variant inside the expected form', () => {
    const list = watchlistFromJson({ terms: [{ expected: 'New York Times', banned: ['New York'] }], banned: ['pan', 'face'] });
    const transcript = timedWords('Doctor Nguyen told the New York Times our company interface pans out.');
    const result = run('pronunciation_watchlist', { transcript, watchlist: list });
    expect(result.flags).toEqual([]);
    expect(result.status).toBe('pass');
    expect(result.measurements.terms).toEqual([{ expected: 'New York Times', saidCorrectly: 1, banned: { 'New York': 0 } }]);
    const correct = run('pronunciation_watchlist', { transcript, watchlist });
    expect(correct.status).toBe('pass');
    expect(correct.measurements.terms).toEqual([{ expected: 'Nguyen', saidCorrectly: 1, banned: { 'new yen': 0, 'nuh guy en': 0 } }]);
  });
});

// ---------------------------------------------------------------- script_faithfulness

const SCRIPT =
  'This seed is smaller than a grain of sand. And yet it grows into a tree that shelters birds. ' +
  'Farmers have planted it for thousands of years, because it asks for little water and gives back a great deal. ' +
  'In spring the first leaves appear, and by summer the field turns bright yellow.';

describe('script_faithfulness', () => {
  it('reports WER 0 when only punctuation and case differ', () => {
    const spoken = `[Music] ${SCRIPT.toLowerCase().replace(/[.,]/g, '')}`;
    const result = run('script_faithfulness', { transcript: timedWords(spoken), expectedScript: expectedScriptFromText(SCRIPT) });
    expect(result.status).toBe('pass');
    expect(result.flags).toEqual([]);
    expect(result.measurements).toMatchObject({ werPct: 0, substitutions: 0, deletions: 0, insertions: 0, driftingSpans: 0 });
  });

  it('flags a drifting span quoting the script against what was said, at the time of the spoken words', () => {
    const spoken = SCRIPT.replace('because it asks for little water', 'since it barely needs any water');
    const transcript = timedWords(spoken, 1, 0.4);
    const result = run('script_faithfulness', { transcript, expectedScript: expectedScriptFromText(SCRIPT) });
    const drift = only(result);
    expect(drift.severity).toBe('WATCH');
    expect(drift.evidence).toMatchObject({ expected: 'because it asks for little', spoken: 'since it barely needs any', timing: 'words' });
    const firstWord = spoken.split(/\s+/).indexOf('since');
    expect(drift.start).toBeCloseTo(1 + firstWord * 0.4, 6);
    expect(drift.summary).toContain('said "since it barely needs any", script has "because it asks for little"');
    expect(drift.repair.instruction).toContain(`${drift.evidence.at}-`);
    expect(result.measurements.werPct).toBeGreaterThan(0);
    expect(result.measurements.werPct).toBeLessThan(10);
  });

  it('locates script words left out in the pause where they should be', () => {
    const spoken = SCRIPT.replace('And yet it grows into a tree that shelters birds. ', '');
    const words = spoken.split(/\s+/);
    const result = run('script_faithfulness', { transcript: timedWords(spoken, 1, 0.4), expectedScript: expectedScriptFromText(SCRIPT) });
    const drift = result.flags.find((f) => f.evidence.spoken === '')!;
    expect(drift.evidence.expected).toBe('And yet it grows into a tree that shelters birds.');
    const sand = words.indexOf('sand.');
    expect(drift.start).toBeCloseTo(1 + sand * 0.4 + 0.32, 6);
    expect(drift.end).toBeCloseTo(1 + (sand + 1) * 0.4, 6);
  });

  it('gives WATCH and BLOCK on the word error rate', () => {
    const half = SCRIPT.split(' ').slice(0, 30).join(' ');
    const block = run('script_faithfulness', { transcript: timedWords(half), expectedScript: expectedScriptFromText(SCRIPT) });
    expect(block.status).toBe('block');
    const werFlag = block.flags.find((f) => 'werPct' in f.evidence)!;
    expect(werFlag.severity).toBe('BLOCK');
    expect(werFlag.summary).toMatch(/word error rate \d+(\.\d)? %/);
    const watchSpoken = SCRIPT.replace('grain of sand', 'speck of dust').replace('shelters birds', 'houses owls').replace('bright yellow', 'vivid gold');
    const watch = run('script_faithfulness', { transcript: timedWords(watchSpoken), expectedScript: expectedScriptFromText(SCRIPT) });
    expect(watch.measurements.werPct).toBeGreaterThanOrEqual(10);
    expect(watch.flags.find((f) => 'werPct' in f.evidence)?.severity).toBe('WATCH');
  });

  it('aligns a 2-hour transcript against its script and finds the edits', () => {
    const vocabulary = 'the a seed tree grows water farmers field leaves summer spring roots birds light soil rain sun green small large old new river stone wind hill'.split(' ');
    let state = 12345;
    const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31);
    const script = Array.from({ length: 20_000 }, () => vocabulary[next() % vocabulary.length]);
    const spoken = [...script];
    spoken.splice(18_000, 0, 'and', 'now', 'a', 'word', 'from', 'our', 'sponsor');
    spoken.splice(12_000, 10);
    spoken.splice(5_000, 5, 'completely', 'different', 'words', 'said', 'here');
    const step = 0.36; // 20 000 words in 2 hours
    const transcript = transcriptFromJson({ words: spoken.map((w, i) => ({ text: w, start: round3(i * step), end: round3(i * step + 0.3) })) });
    const expectedScript = expectedScriptFromText(script.join(' '));
    const started = performance.now();
    const result = run('script_faithfulness', { transcript, expectedScript }, { duration: 7200 });
    const ms = performance.now() - started;
    process.stdout.write(`script_faithfulness on a 2-hour transcript (${spoken.length} words against ${script.length}): ${ms.toFixed(0)} ms\n`);
    // The 2 s target is measured by `npm run bench -- script`, not asserted: timings flake on a loaded machine.
    const drifts = result.flags.filter((f) => 'expected' in f.evidence);
    expect(drifts.map((f) => [Math.round(f.start), f.evidence.spoken])).toEqual([
      [Math.round(5000 * step), 'completely different words said here'],
      [Math.round(11_999 * step + 0.3), ''],
      [Math.round(17_990 * step), 'and now a word from our sponsor'],
    ]);
    expect(result.measurements).toMatchObject({ scriptWords: 20_000, spokenWords: 19_997, deletions: 10, insertions: 7, substitutions: 5, bandedGaps: 0 });
  });

  it('runs every transcript gate on a 2-hour transcript quickly', () => {
    const vocabulary = 'the a seed tree grows water farmers field leaves summer spring roots birds light soil rain sun green'.split(' ');
    const words = Array.from({ length: 20_000 }, (_, i) => ({ text: vocabulary[(i * 7 + (i >> 3)) % vocabulary.length], start: i * 0.36, end: i * 0.36 + 0.3 }));
    const sidecars: EngineSidecars = {
      transcript: transcriptFromJson({ words }),
      watchlist: watchlistFromJson({ terms: [{ expected: 'seed', banned: ['seeds', 'see d'] }], banned: ['rain sun'] }),
      expectedScript: expectedScriptFromText(words.map((w) => w.text).join(' ')),
    };
    for (const gate of transcriptGates.filter((g) => g.id !== 'chunk_sidecar_failures')) {
      const started = performance.now();
      gate.run(context(gate.id, sidecars, { duration: 7200 }));
      const ms = performance.now() - started;
      process.stdout.write(`${gate.id} on a 2-hour transcript: ${ms.toFixed(0)} ms\n`);
      expect(ms, gate.id).toBeLessThan(2000);
    }
  });
});

describe('word alignment', () => {
  it('never counts fewer errors than the true edit distance, and matches it for separated edits', () => {
    const levenshtein = (a: string[], b: string[]) => {
      let row = Array.from({ length: b.length + 1 }, (_, j) => j);
      for (let i = 1; i <= a.length; i++) {
        const next = [i];
        for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        row = next;
      }
      return row[b.length];
    };
    let state = 7;
    const rand = (n: number) => (state = (state * 1103515245 + 12345) % 2 ** 31) % n;
    for (let trial = 0; trial < 200; trial++) {
      const a = Array.from({ length: 5 + rand(40) }, () => 'abcdefgh'[rand(8)]);
      const b = a.flatMap((w) => (rand(10) === 0 ? [] : rand(10) === 0 ? [w, 'x'] : rand(10) === 0 ? ['y'] : [w]));
      const alignment = alignWords(a, b);
      const errors = alignment.substitutions + alignment.deletions + alignment.insertions;
      expect(errors).toBeGreaterThanOrEqual(levenshtein(a, b));
      expect(alignment.matches + alignment.deletions + alignment.substitutions).toBe(a.length);
      expect(alignment.matches + alignment.insertions + alignment.substitutions).toBe(b.length);
    }
    expect(wordErrorRate(alignWords(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd']))).toBe(0.25);
  });

  it('keeps an accurate WER on long, noisy text over a small vocabulary (banded fallback)', () => {
    let state = 3;
    const rand = (n: number) => (state = (state * 1103515245 + 12345) % 2 ** 31) % n;
    const vocabulary = 'the a seed tree grows water farmers field leaves summer'.split(' ');
    const ref = Array.from({ length: 20_000 }, () => vocabulary[rand(vocabulary.length)]);
    const hyp = ref.map((w, i) => (i % 20 === 0 ? `other${i}` : w)); // 5 % substitutions, spread out
    const started = performance.now();
    const alignment = alignWords(ref, hyp);
    process.stdout.write(`banded-prone alignment, 20 000 words, 5 % substitutions: ${(performance.now() - started).toFixed(0)} ms\n`);
    expect(alignment).toMatchObject({ substitutions: 1000, deletions: 0, insertions: 0 });
    expect(wordErrorRate(alignment)).toBe(0.05);
  });
});

// ---------------------------------------------------------------- sentence_boundary

describe('sentence_boundary', () => {
  it('BLOCKs a sentence cut by the end of the file and WATCHes one that is just unfinished', () => {
    // 10 words from 55.5 s every 0.45 s: the last ends at 59.91 s of a 60 s file.
    const cut = run('sentence_boundary', { transcript: timedWords('The tree grows. And in the end the roots will', 55.5, 0.45) });
    const flag = only(cut);
    expect(flag.severity).toBe('BLOCK');
    expect(flag.evidence.quote).toBe('And in the end the roots will');
    expect(flag.start).toBeCloseTo(55.5 + 3 * 0.45, 6);
    expect(flag.summary).toContain('cut by the end of the file at 00:01:00.000');
    const unfinished = run('sentence_boundary', { transcript: timedWords('The tree grows. And in the end the roots will', 40, 0.45) });
    expect(only(unfinished)).toMatchObject({ severity: 'WATCH', evidence: { quote: 'And in the end the roots will' } });
  });

  it('WATCHes speech with no pre-roll', () => {
    const flag = only(run('sentence_boundary', { transcript: timedWords('Seeds matter. They grow into trees.', 0.05, 0.5) }, { duration: 5 }));
    expect(flag).toMatchObject({ severity: 'WATCH', start: 0.05, evidence: { firstWordStart: 0.05, quote: 'Seeds matter. They grow into trees.' } });
  });

  it('flags a long tail gap per delivery profile', () => {
    const transcript = timedWords('Seeds matter. They grow into trees.', 1, 0.5); // last word ends at 3.9 s
    const longform = only(run('sentence_boundary', { transcript }, { duration: 40 }));
    expect(longform).toMatchObject({ severity: 'WATCH', start: 3.9, end: 40, evidence: { tailGapSeconds: 36.1 } });
    expect(longform.repair.instruction).toContain('ffmpeg -i <input> -t 4.9 <output>');
    const short = only(run('sentence_boundary', { transcript }, { duration: 40, delivery: 'video_site_shorts' }));
    expect(short.severity).toBe('BLOCK');
  });

  it('passes a transcript that ends with a full stop, with pre-roll and a short tail (an annotation after it is ignored)', () => {
    const words = timedWords('Seeds matter. They grow into trees. [Music]', 0.5, 0.5);
    const result = run('sentence_boundary', { transcript: words }, { duration: 10 });
    expect(result.flags).toEqual([]);
    expect(result.measurements).toMatchObject({ endsOnSentence: true, firstWordStart: 0.5, punctuated: true });
  });

  it('does not judge the ending of an unpunctuated transcript', () => {
    const result = run('sentence_boundary', { transcript: transcriptFromText('seeds matter they grow into trees') });
    expect(result.status).toBe('pass');
    expect(result.measurements).toMatchObject({ punctuated: false, endsOnSentence: null, firstWordStart: null });
  });
  it('judges only the ending in a sidecar-only check (no media timeline)', () => {
    const noMedia = mediaInfo(3.9, { container: 'sidecars-only', videoStreamCount: 0, audioStreamCount: 0 });
    const result = run('sentence_boundary', { transcript: timedWords('Seeds matter. They grow into', 1, 0.5) }, { media: noMedia });
    expect(only(result)).toMatchObject({ severity: 'WATCH', evidence: { quote: 'They grow into' } });
    expect(result.measurements).toMatchObject({ mediaEnd: null, tailGapSeconds: null });
    expect(run('dialogue_in_music_short', { transcript: timedWords('Hello.') }, { media: noMedia })).toMatchObject({
      status: 'skipped',
      reason: 'needs the media duration: a sidecar-only check has none',
    });
  });
});

// ---------------------------------------------------------------- dialogue_in_music_short

describe('dialogue_in_music_short', () => {
  it('WATCHes sparse dialogue in a short, quoting each line with its time', () => {
    const transcript = transcriptFromJson({
      words: [
        { text: 'Feel', start: 4, end: 4.4 },
        { text: 'the', start: 4.4, end: 4.6 },
        { text: 'beat.', start: 4.6, end: 5.2 },
        { text: 'Now', start: 20, end: 20.5 },
        { text: 'jump!', start: 20.5, end: 21.2 },
      ],
    });
    const result = run('dialogue_in_music_short', { transcript }, { duration: 30 });
    const flag = only(result);
    expect(flag.severity).toBe('WATCH');
    expect(flag.start).toBe(4);
    expect(flag.end).toBe(21.2);
    expect(flag.evidence.spokenLines).toEqual([
      { at: '00:00:04.000', start: 4, end: 5.2, quote: 'Feel the beat.' },
      { at: '00:00:20.000', start: 20, end: 21.2, quote: 'Now jump!' },
    ]);
    expect(result.measurements).toMatchObject({ speechSeconds: 2.4, speechCoveragePct: 8, lines: 2 });
    expect(flag.repair.instruction).toContain('00:00:04.000 "Feel the beat."');
  });

  it('passes a dialogue-led short, a music-only short, and skips long media', () => {
    const talky = timedWords(Array.from({ length: 60 }, () => 'word').join(' '), 0.5, 0.4);
    expect(run('dialogue_in_music_short', { transcript: talky }, { duration: 30 }).status).toBe('pass');
    const music = run('dialogue_in_music_short', { transcript: transcriptFromText('[Music]') }, { duration: 30 });
    expect(music).toMatchObject({ status: 'pass', measurements: { spokenWords: 0 } });
    expect(run('dialogue_in_music_short', { transcript: talky }, { duration: 600 })).toMatchObject({
      status: 'skipped',
      reason: 'applies to shorts of at most 180 s; this media is 600 s',
    });
  });

  it('estimates speech time without timings and says so', () => {
    const flag = only(run('dialogue_in_music_short', { transcript: transcriptFromText('Feel the beat. Now jump!') }, { duration: 30 }));
    expect(flag.evidence).toMatchObject({ speechEstimated: true, speechSeconds: 2, timing: 'none' });
    expect(String(flag.evidence.note)).toContain('no word timings');
  });
});

// ---------------------------------------------------------------- chunk_sidecar_failures

describe('chunk_sidecar_failures', () => {
  it('BLOCKs failed chunks and WATCHes unfinished or unknown ones', () => {
    const chunkSidecars = chunksFromJson(
      {
        'chunk-001': { status: 'ok', verdict: 'PASS' },
        'chunk-002': { status: 'error', message: 'voice clip missing', start: 12, end: 18 },
        'chunk-003': { status: 'running' },
        'chunk-004': {},
        'chunk-005': { status: 'done', verdict: 'WATCH' },
      },
      'chunk_sidecars_json',
    );
    const result = run('chunk_sidecar_failures', { chunkSidecars });
    expect(result.status).toBe('block');
    const failed = result.flags.find((f) => f.severity === 'BLOCK')!;
    expect(failed).toMatchObject({ start: 12, end: 18, evidence: { chunk: 'chunk-002', status: 'error', message: 'voice clip missing', at: '00:00:12.000' } });
    expect(failed.summary).toBe('Chunk chunk-002 failed (status "error"): "voice clip missing"');
    expect(failed.repair.instruction).toContain('Re-render chunk chunk-002');
    expect(
      result.flags
        .filter((f) => f.severity === 'WATCH')
        .map((f) => [f.evidence.chunk, f.evidence.state, f.start, f.end])
        .sort(),
    ).toEqual([
      ['chunk-003', 'unfinished', 0, 60],
      ['chunk-004', 'no_status', 0, 60],
      ['chunk-005', 'verdict_watch', 0, 60],
    ]);
    expect(result.measurements).toMatchObject({ chunks: 5, passed: 1, failed: 1, unfinished: 1, noStatus: 1, verdictNotPass: 1, failedChunks: ['chunk-002'] });
  });

  it('passes with counts when every chunk passed', () => {
    const chunkSidecars = chunksFromJson([{ chunk: 'a', status: 'done', verdict: 'PASS' }, { chunk: 'b', status: 'completed' }], 'chunk_sidecars_json');
    const result = run('chunk_sidecar_failures', { chunkSidecars });
    expect(result).toMatchObject({ status: 'pass', flags: [], measurements: { chunks: 2, passed: 2, failed: 0 } });
  });
});

// ---------------------------------------------------------------- determinism

describe('determinism', () => {
  it('gives identical results for identical inputs', () => {
    const sidecars: EngineSidecars = {
      transcript: timedWords('Visit example dot com. Doctor new yen said um the seed 42 grows and then we', 0.05, 0.5),
      watchlist: watchlistFromJson({ terms: [{ expected: 'Nguyen', banned: ['new yen'] }], banned: ['um'] }),
      expectedScript: expectedScriptFromText('Doctor Nguyen said the seed grows and then we rest.'),
      chunkSidecars: chunksFromJson([{ chunk: 'x', status: 'failed' }], 'inline'),
    };
    for (const gate of transcriptGates) {
      const first = JSON.stringify(gate.run(context(gate.id, sidecars, { duration: 30 })));
      const second = JSON.stringify(gate.run(context(gate.id, sidecars, { duration: 30 })));
      expect(second, gate.id).toBe(first);
    }
  });
});
