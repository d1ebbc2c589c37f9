import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../src/errors.js';
import {
  loadSidecars,
  ManifestSchema,
  SIDECAR_SCHEMA_NAMES,
  sidecarJsonSchema,
  sidecarJsonSchemaText,
  sidecarSchemaDocPath,
  type SidecarInput,
} from '../src/sidecars/index.js';

const REPO = resolve(import.meta.dirname, '..');
const UPDATE_COMMAND = 'UPDATE_DOCS=1 npx vitest run test/sidecars.test.ts';

const temporaryDirs: string[] = [];
afterAll(() => {
  for (const dir of temporaryDirs) rmSync(dir, { recursive: true, force: true });
});

function temporaryDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'preflight-sidecars-'));
  temporaryDirs.push(dir);
  return dir;
}

/** Writes files into a fresh directory and returns it. */
function dirWith(files: Record<string, string>): string {
  const dir = temporaryDir();
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

function fileWith(name: string, content: string | Buffer): string {
  const path = join(temporaryDir(), name);
  writeFileSync(path, content);
  return path;
}

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** The ServiceError loadSidecars throws for `input`; fails the test when it resolves or throws something else. */
async function failure(input: SidecarInput, opts?: { maxBytes?: number }): Promise<ServiceError> {
  try {
    await loadSidecars(input, opts);
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw new Error(`expected a ServiceError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected loadSidecars to throw');
}

const SRT = `1
00:00:00,500 --> 00:00:02,000
Hello <i>there</i>.

2
00:00:02,500 --> 00:00:04,250
Second line
continues here.
`;

const VTT = `WEBVTT - captions
Kind: captions

NOTE written by hand

intro
00:00.500 --> 00:02.000 align:start
<v Narrator>Hello &amp; welcome.

00:00:02.500 --> 00:00:04.250
Second cue.
`;

const MANIFEST = {
  schema: 'preflight-manifest/1',
  title: 'Mustard seeds',
  thumbnailText: 'TINY SEED, BIG TREE',
  segments: [
    {
      start: 0,
      end: 3.5,
      kind: 'talking_head',
      visualFile: 'shots/host-01.mp4',
      sourceFamily: 'studio',
      description: 'Host at desk',
      subjects: ['host'],
      onScreenCharacter: 'Host',
      speaker: 'Host',
      narration: 'A mustard seed is tiny.',
      namedEntities: [],
      onScreenText: [{ text: 'TINY SEED', box: { x: 0.1, y: 0.8, w: 0.5, h: 0.08 }, approved: true }],
      markers: ['hook'],
      mix: { voiceDb: -16, musicDb: -30 },
      contactSheet: 'sheets/seg-000.jpg',
      sourceScrub: { status: 'clean' },
    },
    { start: 3.5, end: 9, kind: 'b_roll', intendedStatic: true, speaker: null, markers: ['rehook', 'cta'], intendedPause: false },
  ],
  assetTriage: { reused: ['shots/host-01.mp4'], rejected: ['shots/blurry.mp4'] },
};

describe('transcript', () => {
  it('reads plain text, JSON, SRT and WebVTT files', async () => {
    const text = await loadSidecars({ transcript_path: fileWith('t.txt', 'Hello world.\r\nSecond line.\n') });
    expect(text.sidecars.transcript).toEqual({ text: 'Hello world.\nSecond line.', words: null, segments: null, format: 'text' });

    const words = [
      { text: 'Hello', start: 0.5, end: 0.9 },
      { word: ' world', start: 1, end: 1.4, probability: 0.9 },
    ];
    const json = await loadSidecars({ transcript_path: fileWith('t.json', JSON.stringify({ words })) });
    expect(json.sidecars.transcript).toEqual({
      text: 'Hello world',
      words: [
        { text: 'Hello', start: 0.5, end: 0.9 },
        { text: 'world', start: 1, end: 1.4 },
      ],
      segments: null,
      format: 'json',
    });

    const srt = await loadSidecars({ transcript_path: fileWith('t.srt', SRT) });
    expect(srt.sidecars.transcript).toEqual({
      text: 'Hello there. Second line continues here.',
      words: null,
      segments: [
        { start: 0.5, end: 2, text: 'Hello there.' },
        { start: 2.5, end: 4.25, text: 'Second line continues here.' },
      ],
      format: 'srt',
    });

    const vtt = await loadSidecars({ transcript_path: fileWith('t.vtt', VTT) });
    expect(vtt.sidecars.transcript).toEqual({
      text: 'Hello & welcome. Second cue.',
      words: null,
      segments: [
        { start: 0.5, end: 2, text: 'Hello & welcome.' },
        { start: 2.5, end: 4.25, text: 'Second cue.' },
      ],
      format: 'vtt',
    });
  });

  it('sniffs the format from the content when the file name does not say', async () => {
    const srt = await loadSidecars({ transcript_path: fileWith('captions', SRT) });
    expect(srt.sidecars.transcript?.format).toBe('srt');
    const vtt = await loadSidecars({ transcript_base64: base64(VTT) });
    expect(vtt.sidecars.transcript?.format).toBe('vtt');
    const json = await loadSidecars({ transcript_base64: base64('[{"text":"hi","start":0,"end":0.4}]') });
    expect(json.sidecars.transcript?.words).toEqual([{ text: 'hi', start: 0, end: 0.4 }]);
    // A bracketed stage direction is text, not a broken JSON array.
    const text = await loadSidecars({ transcript_path: fileWith('notes', '[Music] Hello there') });
    expect(text.sidecars.transcript).toMatchObject({ format: 'text', text: '[Music] Hello there' });
  });

  it('accepts the inline forms: text, JSON object, bare array, JSON string and base64 with a file name', async () => {
    expect((await loadSidecars({ transcript_text: 'Just words.' })).sidecars.transcript?.format).toBe('text');
    // transcript_text is text, SRT or WebVTT: never sniffed as JSON.
    expect((await loadSidecars({ transcript_text: '{laughs} hello' })).sidecars.transcript?.text).toBe('{laughs} hello');
    expect((await loadSidecars({ transcript_text: SRT })).sidecars.transcript?.format).toBe('srt');

    const object = await loadSidecars({ transcript_json: { text: 'Hi there', words: [{ text: 'Hi', start: 0, end: 0.3 }, { text: 'there', start: 0.3, end: 0.7 }] } });
    expect(object.sidecars.transcript).toMatchObject({ text: 'Hi there', format: 'json' });

    const array = await loadSidecars({ transcript_json: [{ word: 'Hi', start: 0, end: 0.3 }] });
    expect(array.sidecars.transcript).toMatchObject({ text: 'Hi', words: [{ text: 'Hi', start: 0, end: 0.3 }] });

    const string = await loadSidecars({ transcript_json: '{"text":"From a string"}' });
    expect(string.sidecars.transcript?.text).toBe('From a string');

    const named = await loadSidecars({ transcript_base64: base64(SRT), transcript_filename: 'captions.srt' });
    expect(named.sidecars.transcript?.segments).toHaveLength(2);
    expect(named.ingress).toEqual({ mode: 'inline_ephemeral', ephemeral: true, supplied: ['transcript'], neverExposes: ['local paths', 'inline sidecar contents'] });
  });

  it('accepts timed segments in JSON (as ASR tools write them)', async () => {
    const { sidecars } = await loadSidecars({
      transcript_json: { segments: [{ id: 0, start: 0, end: 2, text: ' Hello.' }, { id: 1, start: 2, end: 3.5, text: ' Bye.' }] },
    });
    expect(sidecars.transcript).toEqual({
      text: 'Hello. Bye.',
      words: null,
      segments: [
        { start: 0, end: 2, text: 'Hello.' },
        { start: 2, end: 3.5, text: 'Bye.' },
      ],
      format: 'json',
    });
  });

  it('refuses word times that run backwards, naming the first offending index', async () => {
    const words = [
      { text: 'a', start: 0, end: 0.5 },
      { text: 'b', start: 0.6, end: 1 },
      { text: 'c', start: 1.1, end: 1.5 },
      { text: 'd', start: 2.4, end: 2.1 },
    ];
    const path = fileWith('t.json', JSON.stringify({ words }));
    const error = await failure({ transcript_path: path });
    expect(error.code).toBe('invalid_sidecar');
    expect(error.status).toBe(400);
    expect(error.message).toBe(`transcript_path ${path}: words[3].end: must be ≥ start (2.1 < 2.4)`);
    expect(error.details).toMatchObject({ sidecar: 'transcript', file: path, path: 'words[3].end' });

    const outOfOrder = await failure({ transcript_json: { words: [words[0], words[2], words[1]] } });
    expect(outOfOrder.message).toBe("transcript_json: words[2].start: must be ≥ the previous word's start (0.6 < 1.1); words must be in time order");

    const negative = await failure({ transcript_json: [{ text: 'a', start: -1, end: 0 }] });
    expect(negative.message).toBe('transcript_json: [0].start: must be ≥ 0 (word start in seconds)');

    const milliseconds = await failure({ transcript_json: { words: [{ text: 'a', start: 1000, end: 90_000_000 }] } });
    expect(milliseconds.message).toMatch(/^transcript_json: words\[0\]\.end: must be ≤ 86400 \(24 h\); times are seconds, not milliseconds$/);

    const infinite = await failure({ transcript_json: { words: [{ text: 'a', start: 0, end: Infinity }] } });
    expect(infinite.message).toBe('transcript_json: words[0].end: expected number, received Infinity');
  });

  it('names the JSON path of wrong types and missing fields', async () => {
    const wrongType = await failure({ transcript_json: { words: [{ text: 'a', start: '0', end: 1 }] } });
    expect(wrongType.message).toBe('transcript_json: words[0].start: expected number, received string');
    const noText = await failure({ transcript_json: { words: [{ start: 0, end: 1 }] } });
    expect(noText.message).toBe('transcript_json: words[0]: missing (expected a text or word field)');
    const nothing = await failure({ transcript_json: { language: 'en' } });
    expect(nothing.message).toBe('transcript_json: expected a text, words or segments field');
    const scalar = await failure({ transcript_json: 42 });
    expect(scalar.message).toBe('transcript_json: expected an object, an array or a JSON string, received number');
  });

  it('reports SRT timing errors with the cue number and line', async () => {
    const reversed = fileWith('bad.srt', '1\n00:00:01,000 --> 00:00:02,000\nfine\n\n2\n00:00:05,000 --> 00:00:04,000\nbackwards\n');
    const error = await failure({ transcript_path: reversed });
    expect(error.message).toBe(`transcript_path ${reversed}: cue 2 (line 6): end 00:00:04,000 is before start 00:00:05,000`);
    expect(error.details).toMatchObject({ sidecar: 'transcript', cue: 2, line: 6 });

    const malformed = await failure({ transcript_path: fileWith('bad.srt', '1\n00:00:01,000 --> 00:00:02,000\nfine\n\n2\n00:00:3,000 --> 00:00:04,000\nbad\n') });
    expect(malformed.message).toMatch(/cue 2 \(line 6\): invalid start time "00:00:3,000" \(expected 00:01:02,500\)$/);

    const arrow = await failure({ transcript_path: fileWith('bad.srt', '1\n00:00:01,000 -> 00:00:02,000\ntext\n') });
    expect(arrow.message).toMatch(/cue 1 \(line 2\): expected a timing line like "00:00:01,000 --> 00:00:02,500" after the cue number, found "00:00:01,000 -> 00:00:02,000"$/);

    const split = await failure({ transcript_text: '1\n00:00:01,000 --> 00:00:02,000\nfirst half\n\nsecond half\n' });
    expect(split.message).toBe(
      'transcript_text: cue 2 (line 5): expected a timing line like "00:00:01,000 --> 00:00:02,500", found "second half" (a blank line inside a cue\'s text splits the cue)',
    );

    const trailingComma = await failure({ manifest_json: '{"segments": [], }' });
    expect(trailingComma.message).toBe('manifest_json: line 1, column 18: invalid JSON: unexpected "}", trailing commas are not allowed');

    const unordered = await failure({ transcript_text: '1\n00:00:05,000 --> 00:00:06,000\na\n\n2\n00:00:01,000 --> 00:00:02,000\nb\n' });
    expect(unordered.message).toBe('transcript_text: cue 2 (line 6): starts at 00:00:01,000, before cue 1 (cues must be in time order)');
  });

  it('refuses a WebVTT file without its header or with broken timings', async () => {
    const headerless = fileWith('t.vtt', '00:00.000 --> 00:01.000\nhello\n');
    expect((await failure({ transcript_path: headerless })).message).toBe(
      `transcript_path ${headerless}: line 1: expected the "WEBVTT" header on the first line, found "00:00.000 --> 00:01.000"`,
    );
    const comma = await failure({ transcript_path: fileWith('t.vtt', 'WEBVTT\n\n00:00,000 --> 00:01,000\nhello\n') });
    expect(comma.message).toMatch(/cue 1 \(line 3\): invalid start time "00:00,000" \(expected 00:01:02\.500\)$/);
  });

  it('refuses empty transcripts rather than passing them', async () => {
    expect((await failure({ transcript_path: fileWith('t.txt', ' \n\n') })).message).toMatch(/t\.txt: is empty$/);
    expect((await failure({ transcript_json: { text: '   ' } })).message).toBe('transcript_json: transcript is empty (no text, words or segments with text)');
    expect((await failure({ transcript_json: [] })).message).toBe('transcript_json: transcript is empty (no words)');
    expect((await failure({ transcript_text: 'WEBVTT\n\nNOTE nothing else\n' })).message).toBe('transcript_text: contains no cues after the WEBVTT header');
  });
});

describe('expected script', () => {
  it('reads plain text and the JSON forms (text, script, words)', async () => {
    const text = await loadSidecars({ expected_script_path: fileWith('expected_script.txt', 'A mustard seed is tiny.\n') });
    expect(text.sidecars.expectedScript).toEqual({ text: 'A mustard seed is tiny.', format: 'text' });
    const markdown = await loadSidecars({ expected_script_path: fileWith('script.md', '# Intro\nA mustard seed.') });
    expect(markdown.sidecars.expectedScript).toEqual({ text: '# Intro\nA mustard seed.', format: 'text' });
    const byText = await loadSidecars({ expected_script_json: { text: 'From text', script: 'ignored' } });
    expect(byText.sidecars.expectedScript).toEqual({ text: 'From text', format: 'json' });
    const byScript = await loadSidecars({ expected_script_base64: base64('{"script":"From script"}'), expected_script_filename: 'script.json' });
    expect(byScript.sidecars.expectedScript).toEqual({ text: 'From script', format: 'json' });
    const byWords = await loadSidecars({ expected_script_json: '{"words":["From", {"word":"words"}, {"text":"too", "start": 1}]}' });
    expect(byWords.sidecars.expectedScript).toEqual({ text: 'From words too', format: 'json' });
    const inlineText = await loadSidecars({ expected_script_text: 'Inline.' });
    expect(inlineText.sidecars.expectedScript).toEqual({ text: 'Inline.', format: 'text' });
  });

  it('refuses subtitle files and JSON without a script field', async () => {
    const srt = fileWith('script.srt', SRT);
    expect((await failure({ expected_script_path: srt })).message).toBe(`expected_script_path ${srt}: a .srt file is not accepted here (accepted: .txt, .json)`);
    expect((await failure({ expected_script_json: { lines: ['a'] } })).message).toBe('expected_script_json: expected a text, script or words field');
  });
});

describe('watchlist', () => {
  it('reads the object form, the bare array form and base64', async () => {
    const object = { terms: [{ expected: 'Nguyen', banned: ['new yen'], note: 'surname' }], banned: ['um'], owner: 'desk' };
    const file = await loadSidecars({ watchlist_path: fileWith('watchlist.json', JSON.stringify(object)) });
    // Unknown fields are kept (and ignored by the gates).
    expect(file.sidecars.watchlist).toEqual(object);
    const array = await loadSidecars({ watchlist_json: [{ expected: 'Nguyen' }] });
    expect(array.sidecars.watchlist).toEqual({ terms: [{ expected: 'Nguyen', banned: [] }], banned: [] });
    const encoded = await loadSidecars({ watchlist_base64: base64(JSON.stringify(object)) });
    expect(encoded.sidecars.watchlist).toEqual(object);
  });

  it('names the JSON path of a bad term', async () => {
    expect((await failure({ watchlist_json: { terms: [{ expected: 'ok' }, { expected: 'x', banned: 'not-a-list' }] } })).message).toBe(
      'watchlist_json: terms[1].banned: expected array, received string',
    );
    expect((await failure({ watchlist_json: [{ expected: '  ' }] })).message).toBe('watchlist_json: [0].expected: must not be blank');
  });
});

describe('chunk sidecars', () => {
  it('reads a directory of per-chunk reports in name order', async () => {
    const dir = dirWith({
      'chunk-02.json': JSON.stringify({ chunk: 2, status: 'ERROR', message: 'render timed out' }),
      'chunk-01.json': JSON.stringify({ id: 'c1', status: 'ok', verdict: 'PASS' }),
      'chunk-03.json': JSON.stringify({ name: 'c3', verdict: 'block' }),
      'chunk-04.json': JSON.stringify({ status: 'done' }),
    });
    const { sidecars, ingress } = await loadSidecars({ sidecar_dir: dir });
    expect(sidecars.chunkSidecars).toEqual([
      { id: 'c1', status: 'ok', verdict: 'PASS', failed: false, source: 'chunk-01.json', report: { id: 'c1', status: 'ok', verdict: 'PASS' } },
      { id: '2', status: 'ERROR', verdict: null, failed: true, source: 'chunk-02.json', report: { chunk: 2, status: 'ERROR', message: 'render timed out' } },
      { id: 'c3', status: null, verdict: 'block', failed: true, source: 'chunk-03.json', report: { name: 'c3', verdict: 'block' } },
      { id: 'chunk-04', status: 'done', verdict: null, failed: false, source: 'chunk-04.json', report: { status: 'done' } },
    ]);
    expect(ingress).toEqual({ mode: 'local_files', ephemeral: false, supplied: ['chunkSidecars'], neverExposes: ['local paths', 'inline sidecar contents'] });
  });

  it('reads the inline array and object-map forms, also as a JSON string or base64', async () => {
    const array = await loadSidecars({ chunk_sidecars_json: [{ status: 'failed' }, { chunk: 'b', status: 'Blocked' }, { verdict: 'FAIL' }, { verdict: 'WATCH' }] });
    expect(array.sidecars.chunkSidecars?.map(({ id, failed, source }) => ({ id, failed, source }))).toEqual([
      { id: '#0', failed: true, source: 'chunk_sidecars_json[0]' },
      { id: 'b', failed: true, source: 'chunk_sidecars_json[1]' },
      { id: '#2', failed: true, source: 'chunk_sidecars_json[2]' },
      { id: '#3', failed: false, source: 'chunk_sidecars_json[3]' },
    ]);
    const map = await loadSidecars({ chunk_sidecars_json: JSON.stringify({ 'chunk 1': { status: 'ok' }, c2: { status: 'error' } }), chunk_sidecar_dirname: 'renders' });
    expect(map.sidecars.chunkSidecars?.map(({ id, failed, source }) => ({ id, failed, source }))).toEqual([
      { id: 'chunk 1', failed: false, source: 'renders["chunk 1"]' },
      { id: 'c2', failed: true, source: 'renders.c2' },
    ]);
    const encoded = await loadSidecars({ chunk_sidecars_base64: base64('[{"id":"x","status":"failed"}]') });
    expect(encoded.sidecars.chunkSidecars).toEqual([{ id: 'x', status: 'failed', verdict: null, failed: true, source: 'chunk_sidecars_base64[0]', report: { id: 'x', status: 'failed' } }]);
  });

  it('names the chunk of a bad report', async () => {
    expect((await failure({ chunk_sidecars_json: { c1: { status: 'ok' }, generatedAt: '2026-01-01' } })).message).toBe(
      'chunk_sidecars_json: generatedAt: expected a chunk report object, received string',
    );
    expect((await failure({ chunk_sidecars_json: [{ status: 3 }] })).message).toBe('chunk_sidecars_json: [0].status: expected string, received number');
  });

  it('skips non-JSON files, hidden files, sub-directories and symlinks pointing outside, and lists them', async () => {
    const outside = dirWith({ 'secret.json': '{"status":"failed"}' });
    const dir = dirWith({
      'chunk-01.json': '{"status":"ok"}',
      'notes.txt': 'not a sidecar',
      'render.log': 'log',
      '._chunk-01.json': '\u0000\u0005binary',
    });
    mkdirSync(join(dir, 'nested'));
    writeFileSync(join(dir, 'nested', 'chunk-09.json'), '{"status":"failed"}');
    symlinkSync(join(outside, 'secret.json'), join(dir, 'escape.json'));
    symlinkSync(join(dir, 'chunk-01.json'), join(dir, 'chunk-01-copy.json'));
    symlinkSync(join(dir, 'missing.json'), join(dir, 'dangling.json'));

    const { sidecars } = await loadSidecars({ sidecar_dir: dir });
    expect(sidecars.chunkSidecars?.map((chunk) => chunk.source)).toEqual(['chunk-01-copy.json', 'chunk-01.json']);
    expect(sidecars.skippedFiles).toEqual([
      { file: '._chunk-01.json', reason: 'hidden file' },
      { file: 'dangling.json', reason: 'broken symbolic link' },
      { file: 'escape.json', reason: 'symbolic link pointing outside the sidecar directory (not followed)' },
      { file: 'nested', reason: 'directory (sub-directories are not read)' },
      { file: 'notes.txt', reason: 'not a .json file' },
      { file: 'render.log', reason: 'not a .json file' },
    ]);
    expect(JSON.stringify(sidecars)).not.toContain('secret');
  });

  it('never blocks on a FIFO: skipped in a directory, refused as a path', async () => {
    const dir = dirWith({ 'chunk-01.json': '{"status":"ok"}' });
    const fifo = join(dir, 'pipe.json');
    try {
      execFileSync('mkfifo', [fifo]);
    } catch {
      return; // no mkfifo on this platform
    }
    const { sidecars } = await loadSidecars({ sidecar_dir: dir });
    expect(sidecars.skippedFiles).toEqual([{ file: 'pipe.json', reason: 'not a regular file' }]);
    expect((await failure({ transcript_path: fifo })).message).toBe(`transcript_path ${fifo}: is not a regular file`);
  });

  it('names the file of a bad JSON report and says where', async () => {
    const dir = dirWith({ 'chunk-01.json': '{"status":"ok"}', 'chunk-02.json': '{\n  "status": "ok",\n  "verdict": PASS\n}' });
    const error = await failure({ sidecar_dir: dir });
    expect(error.code).toBe('invalid_sidecar');
    expect(error.message).toBe(`sidecar_dir ${join(dir, 'chunk-02.json')}: line 3, column 14: invalid JSON: unexpected "P", expected a value`);
    expect(error.details).toMatchObject({ sidecar: 'chunkSidecars', file: join(dir, 'chunk-02.json'), line: 3, column: 14 });
  });

  it('refuses a directory with no sidecar in it, a missing directory and a file given as a directory', async () => {
    const empty = dirWith({ 'readme.md': '# nothing' });
    expect((await failure({ sidecar_dir: empty })).message).toBe(
      `sidecar_dir ${empty}: holds no sidecar files (no *.json chunk reports, none of manifest.json, transcript.json, transcript.srt, transcript.vtt, ` +
        'transcript.txt, watchlist.json, expected_script.txt, expected_script.json); skipped readme.md: not a .json file',
    );
    const missing = join(temporaryDir(), 'nope');
    const notFound = await failure({ sidecar_dir: missing });
    expect(notFound.code).toBe('sidecar_not_found');
    expect(notFound.message).toBe(`sidecar_dir ${missing}: no such file`);
    const file = fileWith('x.json', '{}');
    expect((await failure({ sidecar_dir: file })).message).toBe(`sidecar_dir ${file}: is not a directory`);
  });
});

describe('sidecar directory: well-known files', () => {
  it('picks up manifest, transcript, watchlist and expected script by name', async () => {
    const dir = dirWith({
      'manifest.json': JSON.stringify(MANIFEST),
      'transcript.srt': SRT,
      'watchlist.json': '{"banned":["um"]}',
      'expected_script.txt': 'Hello there.',
      'chunk-01.json': '{"status":"ok"}',
    });
    const { sidecars, ingress } = await loadSidecars({ sidecar_dir: dir });
    expect(sidecars.manifest?.title).toBe('Mustard seeds');
    expect(sidecars.manifestDir).toBe(dir);
    expect(sidecars.transcript?.format).toBe('srt');
    expect(sidecars.watchlist).toEqual({ terms: [], banned: ['um'] });
    expect(sidecars.expectedScript?.text).toBe('Hello there.');
    expect(sidecars.chunkSidecars).toHaveLength(1);
    expect(sidecars.skippedFiles).toEqual([]);
    expect(ingress?.supplied).toEqual(['manifest', 'transcript', 'watchlist', 'expectedScript', 'chunkSidecars']);
  });

  it('lets explicit fields win and lists the directory file as not used', async () => {
    const dir = dirWith({ 'transcript.txt': 'from the directory', 'chunk-01.json': '{"status":"ok"}' });
    const { sidecars, ingress } = await loadSidecars({ sidecar_dir: dir, transcript_text: 'from the field', chunk_sidecars_json: [{ status: 'failed' }] });
    expect(sidecars.transcript?.text).toBe('from the field');
    expect(sidecars.chunkSidecars?.map((c) => c.failed)).toEqual([true]);
    expect(sidecars.skippedFiles).toEqual([
      { file: 'chunk-01.json', reason: 'not used: chunk sidecars were given by chunk_sidecars_json' },
      { file: 'transcript.txt', reason: 'not used: the transcript was given by transcript_text' },
    ]);
    // Every sidecar in use came inline: the directory was listed, but none of its files was read.
    expect(ingress?.mode).toBe('inline_ephemeral');
  });

  it('refuses two transcripts in one directory', async () => {
    const dir = dirWith({ 'Transcript.SRT': SRT, 'transcript.txt': 'text' });
    expect((await failure({ sidecar_dir: dir })).message).toBe(
      `sidecar_dir ${dir}: holds both Transcript.SRT and transcript.txt; keep one, or name the file with the transcript field`,
    );
  });
});

describe('manifest', () => {
  it('reads a full preflight-manifest/1 from a file, inline object, JSON string and base64', async () => {
    const path = fileWith('manifest.json', JSON.stringify(MANIFEST, null, 2));
    const fromFile = await loadSidecars({ manifest_path: path });
    expect(fromFile.sidecars.manifest).toEqual(MANIFEST);
    expect(fromFile.ingress).toEqual({ mode: 'local_files', ephemeral: false, supplied: ['manifest'], neverExposes: ['local paths', 'inline sidecar contents'] });
    for (const input of [{ manifest_json: MANIFEST }, { manifest_json: JSON.stringify(MANIFEST) }, { manifest_base64: base64(JSON.stringify(MANIFEST)), manifest_filename: 'm.json' }]) {
      const { sidecars, ingress } = await loadSidecars(input);
      expect(sidecars.manifest).toEqual(MANIFEST);
      expect(sidecars.manifestDir).toBeUndefined();
      expect(ingress?.mode).toBe('inline_ephemeral');
    }
  });

  it('allows an empty segment list and fills asset triage defaults', async () => {
    const { sidecars } = await loadSidecars({ manifest_json: { segments: [], assetTriage: {} } });
    expect(sidecars.manifest).toEqual({ segments: [], assetTriage: { reused: [], rejected: [] } });
  });

  it('keeps unknown fields and ignores them', async () => {
    const manifest = { segments: [{ start: 0, end: 1, camera: { lens: '35mm' } }], pipeline: { version: 7 } };
    const { sidecars } = await loadSidecars({ manifest_json: manifest });
    expect(sidecars.manifest).toEqual(manifest);
  });

  it('names the JSON path of wrong types, bad values and broken timelines', async () => {
    const cases: [unknown, string][] = [
      [{ segments: [{ start: '0', end: 1 }] }, 'manifest_json: segments[0].start: expected number, received string'],
      [{ segments: [{ start: 0 }] }, 'manifest_json: segments[0].end: missing (expected number)'],
      [{ schema: 'preflight-manifest/2', segments: [] }, 'manifest_json: schema: expected "preflight-manifest/1"'],
      [{ title: 'x' }, 'manifest_json: segments: missing (expected array)'],
      [{ segments: [{ start: 2, end: 2 }] }, 'manifest_json: segments[0].end: must be greater than start (2 ≤ 2)'],
      [
        { segments: [{ start: 5, end: 6 }, { start: 1, end: 2 }] },
        "manifest_json: segments[1].start: must be ≥ the previous segment's start (1 < 5); segments are listed in timeline order",
      ],
      [{ segments: [{ start: 0, end: 1, markers: ['outro'] }] }, 'manifest_json: segments[0].markers[0]: expected one of "hook"|"rehook"|"cta"'],
      [
        { segments: [{ start: 0, end: 1, onScreenText: [{ text: 'A', box: { x: 10, y: 0, w: 0.5, h: 0.1 } }] }] },
        'manifest_json: segments[0].onScreenText[0].box.x: must be a fraction of the frame, 0 to 1',
      ],
      [{ segments: [{ start: 0, end: 1, sourceScrub: {} }] }, 'manifest_json: segments[0].sourceScrub.status: missing (expected string)'],
      [[], 'manifest_json: expected a manifest object, received array'],
    ];
    for (const [manifest, message] of cases) expect((await failure({ manifest_json: manifest })).message).toBe(message);
    const many = await failure({ manifest_json: { segments: [{ start: 'a', end: 'b' }] } });
    expect(many.message).toBe('manifest_json: segments[0].start: expected number, received string (and 1 more problem)');
    expect(many.details).toMatchObject({ sidecar: 'manifest', path: 'segments[0].start' });
  });

  it('names the file and the line and column of bad JSON', async () => {
    const path = fileWith('manifest.json', '{\n  "segments": [\n    { "start": 0, "end": 1 },\n  ]\n}\n');
    const error = await failure({ manifest_path: path });
    expect(error.message).toBe(`manifest_path ${path}: line 4, column 3: invalid JSON: unexpected "]", trailing commas are not allowed`);
    expect(error.details).toMatchObject({ sidecar: 'manifest', file: path, line: 4, column: 3 });
    const inline = await failure({ manifest_json: '{"segments": [' });
    expect(inline.message).toBe('manifest_json: line 1, column 15: invalid JSON: unexpected end of input, expected a value');
    const unterminated = await failure({ manifest_base64: base64('{"title": "abc'), manifest_filename: 'm.json' });
    expect(unterminated.message).toBe('manifest_base64 (m.json): line 1, column 11: invalid JSON: unterminated string');
  });
});

describe('inputs, limits and ingress', () => {
  it('returns no sidecars and a null ingress when nothing is supplied', async () => {
    expect(await loadSidecars({})).toEqual({ sidecars: { skippedFiles: [] }, ingress: null });
    expect(await loadSidecars({ manifest_json: null } as unknown as SidecarInput)).toEqual({ sidecars: { skippedFiles: [] }, ingress: null });
  });

  it('refuses JSON nested deeper than the sidecar limit, in every form, without overflowing the stack', async () => {
    const deepText = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    const deepArray = `${'['.repeat(100)}1${']'.repeat(100)}`;
    for (const input of [
      { manifest_json: JSON.parse(deepText) },
      { manifest_json: deepText },
      { manifest_base64: base64(deepText) },
      { manifest_path: fileWith('deep.json', deepText) },
      { transcript_path: fileWith('deep-transcript.json', deepArray) },
      { chunk_sidecars_json: deepArray },
    ] as SidecarInput[]) {
      const error = await failure(input);
      expect(error, JSON.stringify(Object.keys(input))).toMatchObject({ code: 'invalid_sidecar', status: 400 });
      expect(error.message).toMatch(/the JSON is nested deeper than 64 levels/);
    }
  });

  it('reports a missing file as sidecar_not_found naming the field and path', async () => {
    const path = join(temporaryDir(), 'transcript.srt');
    const error = await failure({ transcript_path: path });
    expect(error).toMatchObject({ code: 'sidecar_not_found', status: 400, message: `transcript_path ${path}: no such file` });
    expect(error.details).toEqual({ sidecar: 'transcript', file: path });
    const directory = temporaryDir();
    expect((await failure({ manifest_path: directory })).message).toBe(`manifest_path ${directory}: is a directory, not a file`);
  });

  it('refuses a 50 MB transcript from its size, without reading it', async () => {
    const path = join(temporaryDir(), 'huge.txt');
    writeFileSync(path, '');
    truncateSync(path, 50 * 1024 * 1024); // sparse: no 50 MB of writes
    const started = performance.now();
    const error = await failure({ transcript_path: path });
    expect(performance.now() - started).toBeLessThan(500);
    expect(error).toMatchObject({ code: 'sidecar_too_large', status: 413 });
    expect(error.message).toBe(`transcript_path ${path}: 52428800 bytes is over the sidecar size limit of 20 MB (20971520 bytes)`);
    expect(error.details).toEqual({ sidecar: 'transcript', file: path, bytes: 52428800, maxBytes: 20971520 });
  });

  it('applies the cap to inline forms before decoding', async () => {
    const large = 'word '.repeat(300);
    expect((await failure({ transcript_text: large }, { maxBytes: 1000 })).code).toBe('sidecar_too_large');
    expect((await failure({ transcript_base64: base64(large) }, { maxBytes: 1000 })).message).toBe(
      'transcript_base64: 1500 bytes is over the sidecar size limit of 0.00 MB (1000 bytes)',
    );
    expect((await failure({ manifest_json: { segments: [], note: large } }, { maxBytes: 1000 })).code).toBe('sidecar_too_large');
    expect((await failure({ chunk_sidecars_json: [{ status: 'ok', note: large }] }, { maxBytes: 1000 })).code).toBe('sidecar_too_large');
  });

  it('caps the chunk reports of a directory together', async () => {
    const report = JSON.stringify({ status: 'ok', note: 'x'.repeat(400) });
    const dir = dirWith({ 'a.json': report, 'b.json': report, 'c.json': report });
    const error = await failure({ sidecar_dir: dir }, { maxBytes: 1000 });
    expect(error.code).toBe('sidecar_too_large');
    expect(error.message).toMatch(/\(chunk reports together\): \d+ bytes is over/);
  });

  it('refuses invalid base64, non-UTF-8 and binary content', async () => {
    expect((await failure({ manifest_base64: 'not base64!' })).message).toBe(
      'manifest_base64: is not valid base64 (expected the characters A-Z a-z 0-9 + / or - _, with optional = padding)',
    );
    expect((await failure({ manifest_base64: 'abcde' })).code).toBe('invalid_sidecar');
    const latin1 = fileWith('t.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    expect((await failure({ transcript_path: latin1 })).message).toBe(`transcript_path ${latin1}: is not UTF-8 text (is it a binary file?)`);
    const binary = fileWith('t.txt', Buffer.from([0x00, 0x00, 0x00, 0x18, 0x66, 0x74, 0x79, 0x70]));
    expect((await failure({ transcript_path: binary })).message).toMatch(/contains NUL characters: this looks like a binary file, not text$/);
  });

  it('reads UTF-16 text with a byte-order mark, and URL-safe or wrapped base64', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(SRT, 'utf16le')]);
    expect((await loadSidecars({ transcript_path: fileWith('t.srt', utf16) })).sidecars.transcript?.segments).toHaveLength(2);
    const urlSafe = Buffer.from('{"text":"ü?>"}').toString('base64url');
    expect((await loadSidecars({ transcript_base64: urlSafe })).sidecars.transcript?.text).toBe('ü?>');
    const wrapped = base64(JSON.stringify(MANIFEST)).replace(/(.{76})/g, '$1\n');
    expect((await loadSidecars({ manifest_base64: wrapped })).sidecars.manifest).toEqual(MANIFEST);
  });

  it('refuses two sources for one sidecar, a lone file name and empty paths', async () => {
    const conflict = await failure({ transcript_path: '/tmp/t.txt', transcript_text: 'hi' });
    expect(conflict.message).toBe('transcript: give one of transcript_path, transcript_text, transcript_json or transcript_base64, not transcript_path and transcript_text');
    expect((await failure({ manifest_filename: 'm.json' })).message).toBe('manifest_filename: names inline content, but none of manifest_json or manifest_base64 was given');
    expect((await failure({ watchlist_path: '' })).message).toBe('watchlist_path: is empty (expected a file path)');
    expect((await failure({ manifest_path: 42 } as unknown as SidecarInput)).message).toBe('manifest_path: expected a file path, received number');
  });

  it('records ingress in a fixed order; any local file makes the mode local_files', async () => {
    const { ingress } = await loadSidecars({
      chunk_sidecars_json: [{ status: 'ok' }],
      expected_script_text: 'x',
      watchlist_json: [],
      transcript_path: fileWith('t.txt', 'x'),
      manifest_json: { segments: [] },
    });
    expect(ingress).toEqual({
      mode: 'local_files',
      ephemeral: false,
      supplied: ['manifest', 'transcript', 'watchlist', 'expectedScript', 'chunkSidecars'],
      neverExposes: ['local paths', 'inline sidecar contents'],
    });
  });

  it('gives the same output for the same input', async () => {
    const dir = dirWith({ 'b.json': '{"status":"failed"}', 'a.json': '{"verdict":"PASS"}', 'z.txt': '', 'manifest.json': JSON.stringify(MANIFEST), 'transcript.vtt': VTT });
    const first = await loadSidecars({ sidecar_dir: dir, watchlist_json: { terms: [{ expected: 'Nguyen' }] } });
    const second = await loadSidecars({ sidecar_dir: dir, watchlist_json: { terms: [{ expected: 'Nguyen' }] } });
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    expect(first.sidecars.chunkSidecars?.map((c) => c.id)).toEqual(['a', 'b']);
  });

  it('never puts a local path in the ingress record', async () => {
    const dir = dirWith({ 'chunk.json': '{"status":"ok"}' });
    const { ingress } = await loadSidecars({ sidecar_dir: dir, manifest_path: fileWith('m.json', '{"segments":[]}') });
    expect(JSON.stringify(ingress)).not.toContain(tmpdir());
  });
});

describe('published JSON Schemas', () => {
  it.each(SIDECAR_SCHEMA_NAMES)('%s matches the committed docs/schemas copy', (name) => {
    const path = join(REPO, sidecarSchemaDocPath(name));
    if (process.env.UPDATE_DOCS === '1') {
      mkdirSync(join(REPO, 'docs', 'schemas'), { recursive: true });
      writeFileSync(path, sidecarJsonSchemaText(name));
    }
    const committed = existsSync(path) ? readFileSync(path, 'utf8') : '';
    expect(committed, `${sidecarSchemaDocPath(name)} is stale: run ${UPDATE_COMMAND}`).toBe(sidecarJsonSchemaText(name));
  });

  it.each(SIDECAR_SCHEMA_NAMES)('%s is draft 2020-12 with its $id and a title', (name) => {
    const schema = sidecarJsonSchema(name);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe(`https://preflight.dev/schemas/${name}.json`);
    expect(schema.title).toMatch(/^Preflight /);
  });

  it('lets unknown manifest fields through (additionalProperties is open)', () => {
    const schema = sidecarJsonSchema('preflight-manifest-1') as { additionalProperties: unknown };
    expect(schema.additionalProperties).toEqual({});
  });
});

describe('docs/sidecars.md', () => {
  const docs = readFileSync(join(REPO, 'docs', 'sidecars.md'), 'utf8');
  const examples = (tag: string) => [...docs.matchAll(new RegExp('```\\S+ ' + tag + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1]);

  it('shows examples that load', async () => {
    const manifests = examples('manifest');
    expect(manifests.length).toBeGreaterThan(0);
    for (const example of manifests) expect(ManifestSchema.safeParse(JSON.parse(example)).success).toBe(true);
    const kinds: [string, (text: string) => SidecarInput][] = [
      ['manifest', (text) => ({ manifest_json: text })],
      ['transcript', (text) => ({ transcript_base64: base64(text) })],
      ['expected-script', (text) => ({ expected_script_base64: base64(text) })],
      ['watchlist', (text) => ({ watchlist_json: text })],
      ['chunk', (text) => ({ chunk_sidecars_json: `[${text}]` })],
      ['chunks', (text) => ({ chunk_sidecars_json: text })],
    ];
    for (const [tag, toInput] of kinds) {
      const found = examples(tag);
      expect(found.length, `examples tagged ${tag}`).toBeGreaterThan(0);
      for (const example of found) await expect(loadSidecars(toInput(example)), `${tag}: ${example}`).resolves.toBeDefined();
    }
  });

  it('links every published schema and states the size cap and error codes', () => {
    for (const name of SIDECAR_SCHEMA_NAMES) expect(docs).toContain(`schemas/${name}.schema.json`);
    for (const text of ['20 MB', 'invalid_sidecar', 'sidecar_not_found', 'sidecar_too_large', 'skippedFiles']) expect(docs).toContain(text);
  });
});
