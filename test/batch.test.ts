// `preflight check` over a folder, in a real process on real media: verdict per file, an error row for the file that
// is not media, JUnit that a real XML parser reads and the JUnit schema accepts, GitHub annotations, and a second
// run that reuses every unchanged report and checks again only the file that changed.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { XMLParser } from 'fast-xml-parser';
import { validateXML } from 'xmllint-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as media from './helpers/batch-media.js';
import { generate } from './helpers/media.js';

const BIN = resolve(import.meta.dirname, '../bin/preflight.js');
const JUNIT_XSD = readFileSync(resolve(import.meta.dirname, 'junit/junit.xsd'), 'utf8');
const work = mkdtempSync(join(tmpdir(), 'preflight-batch-'));
const renders = join(work, 'renders');
const out = join(work, 'reports');
const env = { PREFLIGHT_HOME: join(work, 'home'), PREFLIGHT_SIGNING_KEY: undefined };

async function cli(args: string[]) {
  const r = await execa('node', [BIN, ...args], { cwd: work, reject: false, timeout: 300_000, env, extendEnv: true, stdin: 'ignore' });
  return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

interface Suite {
  name: string;
  tests: string;
  failures: string;
  errors: string;
  properties: { property: { name: string; value: string }[] };
  testcase: { name: string; failure?: { message: string; type: string; '#text'?: string }; error?: { message: string }; 'system-out'?: string }[] | object;
}

const FILES = ['renders/audio.wav', 'renders/broken.mov', 'renders/clean.mp4', 'renders/quiet.mp4', 'renders/sub/audio.wav', 'renders/sub/black.mp4', 'renders/sub/still.png'];
const BATCH = ['check', 'renders', '--recursive', '--jobs', '2', '--report-dir', 'reports', '--export', 'markers'];

beforeAll(async () => {
  statSync(resolve(import.meta.dirname, '../dist/src/cli.js'));
  mkdirSync(join(renders, 'sub'), { recursive: true });
  copyFileSync(await media.shortClean(), join(renders, 'clean.mp4'));
  copyFileSync(await media.shortAudio(), join(renders, 'audio.wav'));
  // The same base name in another folder: its reports must not overwrite the first one's.
  copyFileSync(await media.shortAudio(), join(renders, 'sub/audio.wav'));
  copyFileSync(await media.shortStill(), join(renders, 'sub/still.png'));
  copyFileSync(await media.shortBlack(), join(renders, 'sub/black.mp4'));
  copyFileSync(await media.shortQuiet(), join(renders, 'quiet.mp4'));
  writeFileSync(join(renders, 'broken.mov'), 'this is a text file with a video name\n');
  writeFileSync(join(renders, 'notes.txt'), 'delivery notes: not media, never an error\n');
});

describe('preflight check on a folder', () => {
  let junit: string;
  let first: Awaited<ReturnType<typeof cli>>;

  beforeAll(async () => {
    first = await cli([...BATCH, '--format', 'junit']);
    junit = first.stdout;
  });

  it('checks every media file once, makes the non-media file an error row and exits 1', () => {
    expect(first.code).toBe(1);
    // Not a terminal: one line per finished file, in the order they finish.
    const lines = first.stderr.trim().split('\n');
    expect(lines).toHaveLength(FILES.length);
    for (const line of lines) expect(line).toMatch(/^\[\d\/7\] (PASS|WATCH|BLOCK|ERROR) +renders\//);
    expect(lines.find((l) => l.includes('broken.mov'))).toMatch(/ERROR renders\/broken\.mov \(.*not a media file/);
    expect(first.stderr).not.toContain('notes.txt');
  });

  it('writes JUnit that a real XML parser reads, with a suite per file and a case per gate', async () => {
    const validation = await validateXML({ xml: [{ fileName: 'junit.xml', contents: junit }], schema: [{ fileName: 'junit.xsd', contents: JUNIT_XSD }] });
    expect(validation.errors).toEqual([]);
    expect(validation.valid).toBe(true);

    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name) }).parse(junit);
    const suites = doc.testsuites.testsuite as Suite[];
    expect(suites.map((s) => s.name)).toEqual(FILES);
    const verdict = (s: Suite) => s.properties.property.find((p) => p.name === 'verdict')?.value;
    const byName = Object.fromEntries(suites.map((s) => [s.name, s]));

    expect(verdict(byName['renders/clean.mp4'])).toBe('PASS');
    expect(verdict(byName['renders/audio.wav'])).toBe('PASS');
    expect(verdict(byName['renders/sub/still.png'])).toBe('PASS');
    expect(verdict(byName['renders/sub/black.mp4'])).toBe('BLOCK');
    expect(verdict(byName['renders/quiet.mp4'])).toBe('BLOCK');
    expect(verdict(byName['renders/broken.mov'])).toBe('ERROR');

    const black = asArray(byName['renders/sub/black.mp4'].testcase) as { name: string; failure?: { message: string; type: string } }[];
    const blackFrames = black.find((c) => c.name === 'black_frames');
    expect(blackFrames?.failure?.type).toBe('BLOCK');
    expect(blackFrames?.failure?.message).toMatch(/^00:00:01:00 BLOCK .*black picture/);
    const quiet = asArray(byName['renders/quiet.mp4'].testcase) as { name: string; failure?: { message: string } }[];
    expect(quiet.find((c) => c.name === 'loudness')?.failure?.message).toMatch(/LUFS/);
    const broken = asArray(byName['renders/broken.mov'].testcase) as { name: string; error?: { message: string } }[];
    expect(broken).toHaveLength(1);
    expect(broken[0].error?.message).toMatch(/not a media file/);

    // Counts agree with the cases, per suite and in total.
    let total = { tests: 0, failures: 0, errors: 0 };
    for (const s of suites) {
      const cases = asArray(s.testcase) as { failure?: unknown; error?: unknown }[];
      expect(Number(s.tests)).toBe(cases.length);
      expect(Number(s.failures)).toBe(cases.filter((c) => c.failure !== undefined).length);
      expect(Number(s.errors)).toBe(cases.filter((c) => c.error !== undefined).length);
      total = { tests: total.tests + cases.length, failures: total.failures + Number(s.failures), errors: total.errors + Number(s.errors) };
    }
    expect(Number(doc.testsuites.tests)).toBe(total.tests);
    expect(Number(doc.testsuites.failures)).toBe(total.failures);
    expect(Number(doc.testsuites.errors)).toBe(1);
    expect(Number(byName['renders/clean.mp4'].failures) + Number(byName['renders/audio.wav'].failures)).toBe(0);
  });

  it('writes per-file reports that never collide, an index.json and an index.html', () => {
    const index = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8'));
    expect(index.schema).toBe('preflight-batch-index/1');
    expect(index.files.map((f: { file: string }) => f.file)).toEqual(FILES);
    const ids = index.files.map((f: { id: string }) => f.id);
    expect(new Set(ids).size).toBe(FILES.length);
    for (const entry of index.files) {
      if (entry.file.endsWith('broken.mov')) {
        expect(entry).toMatchObject({ verdict: 'ERROR', outputs: {} });
        continue;
      }
      for (const kind of ['report', 'html', 'markers', 'receipt']) expect(existsSync(join(out, entry.outputs[kind])), `${entry.file} ${kind}`).toBe(true);
      const report = JSON.parse(readFileSync(join(out, entry.outputs.report), 'utf8'));
      expect(report.verdict).toBe(entry.verdict);
    }
    const audio = index.files.filter((f: { file: string }) => f.file.endsWith('audio.wav'));
    expect(audio[0].outputs.report).not.toBe(audio[1].outputs.report);
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    for (const entry of index.files) expect(html).toContain(entry.file);
    expect(html).toContain(`href="${audio[1].outputs.html}"`);
  });

  it('a second run reuses every unchanged report and checks again only the file that changed', async () => {
    const again = await cli(BATCH);
    expect(again.code).toBe(1);
    const rows = again.stdout.split('\n').filter((l) => l.startsWith('renders/'));
    expect(rows).toHaveLength(FILES.length);
    for (const row of rows) expect(row).toMatch(row.startsWith('renders/broken.mov') ? /^renders\/broken\.mov +ERROR / : /^renders\/\S+ +(PASS|WATCH|BLOCK)\* /);
    expect(again.stdout).toMatch(/6 reused from reports/);
    expect(again.stdout).toMatch(/renders\/sub\/black\.mp4 +BLOCK\* +1 +\d+ +00:00:01:00 black_frames/);

    // A different picture under the same name: only it is decoded again.
    copyFileSync(await generate('batch-still-other.png', ['-f', 'lavfi', '-i', 'testsrc=s=640x360:r=1:d=1', '-frames:v', '1']), join(renders, 'sub/still.png'));
    const touched = await cli([...BATCH, '--format', 'json']);
    expect(touched.code).toBe(1);
    const result = JSON.parse(touched.stdout) as { file: string; reused: boolean; verdict: string; report: { media: { sha256: string } } | null }[];
    expect(result.map((r) => r.file)).toEqual(FILES);
    const rechecked = result.filter((r) => !r.reused).map((r) => r.file);
    expect(rechecked).toEqual(['renders/broken.mov', 'renders/sub/still.png']);
    const index = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8'));
    const still = index.files.find((f: { file: string }) => f.file === 'renders/sub/still.png');
    expect(JSON.parse(readFileSync(join(out, still.outputs.report), 'utf8')).media.sha256).toBe(result.find((r) => r.file === 'renders/sub/still.png')?.report?.media.sha256);

    const forced = await cli(['check', 'renders/audio.wav', '--report-dir', 'reports', '--export', 'markers', '--no-reuse', '--format', 'json']);
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.stdout)).toMatchObject([{ file: 'renders/audio.wav', reused: false, verdict: 'PASS' }]);
  });

  it('--format github writes well-formed workflow annotations naming the file and timecode', async () => {
    const r = await cli([...BATCH, '--format', 'github']);
    expect(r.code).toBe(1);
    const annotations = r.stdout.split('\n').filter((l) => l.startsWith('::'));
    // ::level file=<property>,title=<property>::<message>; properties carry no raw ':' ',' CR or LF, messages no CR or LF.
    for (const a of annotations) expect(a).toMatch(/^::(error|warning) file=[^:,\r\n]+,title=[^:,\r\n]+::[^\r\n]+$/);
    const black = annotations.find((a) => a.includes('file=renders/sub/black.mp4') && a.includes('black_frames'));
    expect(black).toMatch(/^::error file=renders\/sub\/black\.mp4,title=Preflight BLOCK black_frames at 00%3A00%3A01%3A00::renders\/sub\/black\.mp4 at 00:00:01:00 /);
    expect(black).toContain('%0Afix: ');
    expect(annotations.find((a) => a.includes('broken.mov'))).toMatch(/^::error file=renders\/broken\.mov,title=Preflight could not check this file::/);
    expect(annotations.filter((a) => a.startsWith('::error')).length).toBeGreaterThanOrEqual(3);
    // The run over one file above kept the others in the index: nothing had to be decoded again.
    expect(r.stdout).toMatch(/6 reused from reports/);
  });

  it('refuses single-file outputs in a batch and bad --jobs with exit 2', async () => {
    const markers = await cli(['check', 'renders', '--markers', 'm.csv']);
    expect(markers.code).toBe(2);
    expect(markers.stderr).toMatch(/--markers names one output file; for several files give --report-dir/);
    const jobs = await cli(['check', 'renders', '--jobs', '0']);
    expect(jobs.code).toBe(2);
    expect(jobs.stderr).toMatch(/--jobs must be a whole number/);
  });

  it('says what a folder without media held and why each was left out, with exit 2', async () => {
    const folder = join(work, 'no-media');
    mkdirSync(folder);
    writeFileSync(join(folder, 'notes.txt'), 'not media\n');
    symlinkSync(renders, join(folder, 'renders-link'));
    const r = await cli(['check', 'no-media']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'no-media is a directory holding no media files (sub-directories are read with --recursive); skipped no-media/notes.txt: sidecar or document, not media; no-media/renders-link: a link to a directory (links are followed to files only)',
    );
  });
});
