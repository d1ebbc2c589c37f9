// The parts of a batch that need no decode: the reuse rule, per-file sidecar directories, the default job count,
// annotation escaping, JUnit under --fail-on watch, and the live progress on a terminal.
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { Report } from '../engine/report.js';
import { escapeData, escapeProperty, githubAnnotations } from '../src/cli/batch/formats/github.js';
import { batchJunit } from '../src/cli/batch/formats/junit.js';
import { expandInputs } from '../src/cli/batch/inputs.js';
import { defaultJobs, MEMORY_PER_JOB_BYTES } from '../src/cli/batch/jobs.js';
import { batchProgress } from '../src/cli/batch/progress.js';
import { fileId } from '../src/cli/batch/report-dir.js';
import { batchExitCode, type BatchRow } from '../src/cli/batch/row.js';
import { ownSidecarDir, sidecarsFor } from '../src/cli/batch/sidecars.js';
import { reuseKey } from '../src/reuse-key.js';
import * as media from './helpers/batch-media.js';

const work = mkdtempSync(join(tmpdir(), 'preflight-batch-parts-'));
const SHA = 'a'.repeat(64);

describe('reuse key', () => {
  it('is the same for the same inputs and changes with each of them', async () => {
    const dir = join(work, 'sidecars');
    mkdirSync(dir);
    writeFileSync(join(dir, 'transcript.txt'), 'hello world\n');
    const { sidecars } = await sidecarsFor(join(work, 'x.mp4'), { sidecarDir: dir });
    const base = { sha256: SHA, sidecars, profile: 'youtube', checks: null };
    const key = reuseKey(base);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(reuseKey({ ...base })).toBe(key);
    expect(reuseKey({ ...base, profile: undefined })).toBe(reuseKey({ ...base, profile: 'auto' }));
    const changed = [
      reuseKey({ ...base, sha256: 'b'.repeat(64) }),
      reuseKey({ ...base, profile: 'podcast' }),
      reuseKey({ ...base, checks: 'loudness' }),
      reuseKey({ ...base, engineVersion: '9.9.9' }),
      reuseKey({ ...base, extra: { exports: ['markers'] } }),
      reuseKey({ ...base, sidecars: null }),
    ];
    writeFileSync(join(dir, 'transcript.txt'), 'hello there\n');
    changed.push(reuseKey({ ...base, sidecars: (await sidecarsFor(join(work, 'x.mp4'), { sidecarDir: dir })).sidecars }));
    expect(new Set([key, ...changed]).size).toBe(changed.length + 1);
  });
});

describe('per-file sidecars and inputs', () => {
  it("finds a file's own sidecar directory by its name, then by its stem", async () => {
    const dir = join(work, 'own');
    mkdirSync(join(dir, 'ep1.sidecars'), { recursive: true });
    mkdirSync(join(dir, 'ep2.mov.sidecars'), { recursive: true });
    mkdirSync(join(dir, 'ep2.sidecars'), { recursive: true });
    expect(await ownSidecarDir(join(dir, 'ep1.mp4'))).toBe(join(dir, 'ep1.sidecars'));
    expect(await ownSidecarDir(join(dir, 'ep2.mov'))).toBe(join(dir, 'ep2.mov.sidecars'));
    expect(await ownSidecarDir(join(dir, 'ep3.mp4'))).toBeNull();
    writeFileSync(join(dir, 'ep1.sidecars', 'transcript.txt'), 'the words\n');
    const loaded = await sidecarsFor(join(dir, 'ep1.mp4'), {});
    expect(loaded.sidecarDir).toBe(join(dir, 'ep1.sidecars'));
    expect(loaded.sidecars.transcript?.text).toBe('the words');
  });

  it('recognises media in a directory by probing, skips sidecar folders and documents, and keeps named files', async () => {
    const dir = join(work, 'inputs');
    mkdirSync(join(dir, 'deep'), { recursive: true });
    mkdirSync(join(dir, 'take.sidecars'), { recursive: true });
    // A WAV without an extension is still media: the probe says so.
    copyFileSync(await media.shortAudio(), join(dir, 'master'));
    copyFileSync(await media.shortAudio(), join(dir, 'deep', 'take.wav'));
    copyFileSync(await media.shortAudio(), join(dir, 'take.sidecars', 'looks-like.wav'));
    writeFileSync(join(dir, 'readme'), 'plain text\n');
    writeFileSync(join(dir, 'notes.json'), '{}');
    const flat = await expandInputs([dir], { recursive: false });
    expect(flat.files.map((f) => f.path)).toEqual([join(dir, 'master')]);
    expect(flat.skipped.map((s) => s.path).sort()).toEqual([join(dir, 'notes.json'), join(dir, 'readme')]);
    const deep = await expandInputs([dir, join(dir, 'missing.mp4'), join(dir, 'master')], { recursive: true });
    expect(deep.files.map((f) => f.path)).toEqual([join(dir, 'deep', 'take.wav'), join(dir, 'master'), join(dir, 'missing.mp4')]);
    const excluded = await expandInputs([dir], { recursive: true, exclude: [join(dir, 'deep')] });
    expect(excluded.files.map((f) => f.path)).toEqual([join(dir, 'master')]);
    const globbed = await expandInputs(['**/*.wav'], { recursive: false, cwd: dir });
    expect(globbed.files.map((f) => f.shown)).toEqual(['deep/take.wav', 'take.sidecars/looks-like.wav']);
  });

  it('follows a link in a directory to its file, and says why it leaves a link to a directory or to nothing', async () => {
    const dir = join(work, 'links');
    const elsewhere = join(work, 'links-target');
    mkdirSync(dir, { recursive: true });
    mkdirSync(join(elsewhere, 'more'), { recursive: true });
    copyFileSync(await media.shortAudio(), join(elsewhere, 'render.wav'));
    copyFileSync(await media.shortAudio(), join(elsewhere, 'more', 'other.wav'));
    symlinkSync(join(elsewhere, 'render.wav'), join(dir, 'final.wav'));
    // No extension: the link's target is probed, as a file there would be.
    symlinkSync(join(elsewhere, 'render.wav'), join(dir, 'latest'));
    symlinkSync(join(elsewhere, 'more'), join(dir, 'more'));
    symlinkSync(join(elsewhere, 'gone.wav'), join(dir, 'broken.wav'));
    const found = await expandInputs([dir], { recursive: true });
    expect(found.files.map((f) => f.path)).toEqual([join(dir, 'final.wav'), join(dir, 'latest')]);
    expect(found.skipped.map(({ path, reason }) => ({ path, reason }))).toEqual([
      { path: join(dir, 'broken.wav'), reason: 'a link to nothing readable' },
      { path: join(dir, 'more'), reason: 'a link to a directory (links are followed to files only)' },
    ]);
    const fromWork = await expandInputs(['links'], { recursive: false, cwd: work });
    expect(fromWork.skipped.map((s) => s.shown)).toEqual(['links/broken.wav', 'links/more']);
  });

  it('names report files so the same base name in two folders never collides', () => {
    expect(fileId('a/take 1.mp4')).toMatch(/^take_1\.mp4-[0-9a-f]{8}$/);
    expect(fileId('a/take.mp4')).not.toBe(fileId('b/take.mp4'));
    expect(fileId('a/take.mp4')).toBe(fileId('a/take.mp4'));
  });
});

describe('default jobs', () => {
  it('takes the free cores and the free memory, whichever allows fewer, and at least one', () => {
    expect(defaultJobs({ cores: 8, load1: 0.5, freeBytes: 64 * MEMORY_PER_JOB_BYTES })).toBe(7);
    expect(defaultJobs({ cores: 8, load1: 0, freeBytes: 3 * MEMORY_PER_JOB_BYTES })).toBe(3);
    expect(defaultJobs({ cores: 2, load1: 5, freeBytes: 64 * MEMORY_PER_JOB_BYTES })).toBe(1);
    expect(defaultJobs({ cores: 4, load1: 0, freeBytes: 0 })).toBe(1);
  });
});

function rowOf(file: string, report: Report | null, error: string | null = null): BatchRow {
  return { file, path: `/x/${file}`, outcome: report ? 'checked' : 'error', verdict: report ? report.verdict : 'ERROR', report, error, outputs: {}, receiptWithheld: null, seconds: 1.5 };
}

function reportWith(flags: { gate: string; severity: 'BLOCK' | 'WATCH'; summary: string; timecode: string }[]): Report {
  const gates = ['black_frames', 'loudness', 'clipping'].map((gate) => ({ gate, status: 'pass', measurements: {}, flagCount: flags.filter((f) => f.gate === gate).length }));
  const full = flags.map((f, i) => ({ ...f, id: `f${i}`, timestamp: '00:00:01.000', start: 1, end: 2, frame: 25, repair: { action: 'a', instruction: 'do it, then: again', verify: 're-run' } }));
  const verdict = flags.some((f) => f.severity === 'BLOCK') ? 'BLOCK' : flags.length ? 'WATCH' : 'PASS';
  return {
    verdict,
    profile: 'youtube',
    media: { sha256: SHA },
    engine: { version: '0.1.0' },
    gates,
    flags: full,
    summary: { block: flags.filter((f) => f.severity === 'BLOCK').length, watch: flags.filter((f) => f.severity === 'WATCH').length },
    timings: { totalMs: 1234 },
  } as unknown as Report;
}

describe('outputs', () => {
  const watch = rowOf('a,b:c.mp4', reportWith([{ gate: 'loudness', severity: 'WATCH', summary: 'quiet\r\nby 2 LU, 50%', timecode: '00:00:01:00' }]));
  const block = rowOf('b.mp4', reportWith([{ gate: 'black_frames', severity: 'BLOCK', summary: 'black <2 s> & "more"', timecode: '00:00:04:00' }]));
  const broken = rowOf('c.mov', null, 'not a media file');

  it('escapes annotations by the workflow-command rules', () => {
    expect(escapeData('50% done\r\nnext')).toBe('50%25 done%0D%0Anext');
    expect(escapeProperty('a:b,c%\n')).toBe('a%3Ab%2Cc%25%0A');
    const lines = githubAnnotations([watch, block, broken], 'block');
    expect(lines[0]).toBe('::warning file=a%2Cb%3Ac.mp4,title=Preflight WATCH loudness at 00%3A00%3A01%3A00::a,b:c.mp4 at 00:00:01:00 (00:00:01.000): quiet%0D%0Aby 2 LU, 50%25%0Afix: do it, then: again%0Averify: re-run');
    expect(lines[1]).toMatch(/^::error file=b\.mp4,title=Preflight BLOCK black_frames at 00%3A00%3A04%3A00::/);
    expect(lines[2]).toBe('::error file=c.mov,title=Preflight could not check this file::c.mov: not a media file');
    expect(githubAnnotations([watch], 'watch')[0]).toMatch(/^::error /);
  });

  it('JUnit: WATCH passes with its flags in system-out, or fails under --fail-on watch; text is escaped', () => {
    const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (n) => ['testsuite', 'testcase'].includes(n) });
    const lenient = parser.parse(batchJunit([watch, block, broken], 'block', 2));
    expect(lenient.testsuites).toMatchObject({ tests: '7', failures: '1', errors: '1' });
    const loudness = lenient.testsuites.testsuite[0].testcase.find((c: { name: string }) => c.name === 'loudness');
    expect(loudness.failure).toBeUndefined();
    expect(loudness['system-out']).toContain('quiet');
    const black = lenient.testsuites.testsuite[1].testcase.find((c: { name: string }) => c.name === 'black_frames');
    expect(black.failure.message).toBe('00:00:04:00 BLOCK black <2 s> & "more"');
    const strict = parser.parse(batchJunit([watch, block], 'watch', 2));
    expect(strict.testsuites).toMatchObject({ tests: '6', failures: '2', errors: '0' });
    expect(strict.testsuites.testsuite[0].testcase.find((c: { name: string }) => c.name === 'loudness').failure.type).toBe('WATCH');
  });

  it('exit code: 1 on BLOCK or an error row, and on WATCH only under --fail-on watch', () => {
    expect(batchExitCode([watch], 'block')).toBe(0);
    expect(batchExitCode([watch], 'watch')).toBe(1);
    expect(batchExitCode([watch, block], 'block')).toBe(1);
    expect(batchExitCode([watch, broken], 'block')).toBe(1);
  });

  it('progress: a line per running file and a live count on a terminal; a line per finished file elsewhere', () => {
    const writes: string[] = [];
    const tty = { isTTY: true, columns: 120, write: (s: string) => writes.push(s) } as unknown as NodeJS.WriteStream;
    const live = batchProgress(3, tty);
    live.started('a.mp4');
    live.started('b.mp4');
    live.update('a.mp4', 50, 'analyse');
    const frame = writes.at(-1) ?? '';
    expect(frame).toMatch(/a\.mp4/);
    expect(frame).toMatch(/b\.mp4/);
    expect(frame).toMatch(/0\/3 done · 0 BLOCK · 0 WATCH/);
    live.finished(block);
    expect(writes.join('')).toMatch(/\[1\/3\] BLOCK b\.mp4 \(1 BLOCK, 0 WATCH; 1\.5 s\)\n/);
    expect(writes.at(-1)).toMatch(/1\/3 done · 1 BLOCK · 0 WATCH/);
    live.done();
    expect(writes.at(-1)).toContain('\x1b[J');

    const piped: string[] = [];
    const pipe = batchProgress(2, { isTTY: false, write: (s: string) => piped.push(s) } as unknown as NodeJS.WriteStream);
    pipe.started('b.mp4');
    pipe.update('b.mp4', 40, 'analyse');
    pipe.finished(block);
    pipe.finished(broken);
    pipe.done();
    expect(piped).toEqual(['[1/2] BLOCK b.mp4 (1 BLOCK, 0 WATCH; 1.5 s)\n', '[2/2] ERROR c.mov (not a media file; 1.5 s)\n']);
  });
});
