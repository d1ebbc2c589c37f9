// The accuracy corpus builder (bench/accuracy/): entries are built from Debian's material, the same recipe gives the
// same bytes, programmes are mastered to their loudness target, and an entry whose apt package is missing is reported
// unavailable with the install hint while the others still build.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCorpus } from '../bench/accuracy/build.js';
import { CORPUS } from '../bench/accuracy/corpus.js';
import { findMaterials, missingHint } from '../bench/accuracy/materials.js';
import { ffmpegEbur128 } from '../bench/accuracy/meters.js';
import { probe } from '../engine/probe.js';

const materials = findMaterials();
const SAMPLE = ['thumb-title-meadow', 'podcast-dialogue'];
const entries = CORPUS.filter((e) => SAMPLE.includes(e.name));
const hint = missingHint(materials, entries.flatMap((e) => e.needs));
const dirs: string[] = [];
const freshDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'preflight-corpus-'));
  dirs.push(d);
  return d;
};
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('accuracy corpus', () => {
  it('names every entry once and gives every defect an expected flag', () => {
    const names = CORPUS.map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
    for (const e of CORPUS.filter((x) => x.kind === 'defect')) expect(e.expect.flags.some((f) => f.required), e.name).toBe(true);
    for (const e of CORPUS.filter((x) => x.kind === 'clean')) expect(e.expect.flags.filter((f) => f.severity === 'BLOCK'), e.name).toEqual([]);
  });

  it('has CI install every apt package the corpus and its reference meter need', () => {
    const ci = readFileSync(join(import.meta.dirname, '../.ci/run'), 'utf8');
    for (const pkg of [...Object.values(materials).map((m) => m.apt), 'loudgain']) expect(ci, pkg).toMatch(new RegExp(`\\b${pkg}\\b`));
  });

  it.skipIf(hint)(`builds entries deterministically from real material${hint ? ` (skipped: ${hint})` : ''}`, async () => {
    const first = await buildCorpus({ dir: freshDir(), entries, materials });
    const second = await buildCorpus({ dir: freshDir(), entries, materials });
    for (const [i, b] of first.built.entries()) {
      expect(b.error, b.entry.name).toBeUndefined();
      expect(sha(b.path!), b.entry.name).toBe(sha(second.built[i].path!));
    }
    const podcast = first.built.find((b) => b.entry.name === 'podcast-dialogue')!.path!;
    const info = await probe(podcast);
    expect(info).toMatchObject({ kind: 'audio', audio: { codec: 'mp3', sampleRate: 48000, channels: 2 } });
    expect(info.durationSeconds).toBeCloseTo(14, 0);
    // Mastered to −16 LUFS before the MP3 encode, which costs a few tenths of a LU at 160 kbit/s.
    const loudness = await ffmpegEbur128(podcast);
    expect(Math.abs(loudness.integratedLufs! + 16)).toBeLessThan(0.5);
    expect(loudness.truePeakDbtp!).toBeLessThan(-1);
    const thumb = await probe(first.built.find((b) => b.entry.name === 'thumb-title-meadow')!.path!);
    expect(thumb).toMatchObject({ kind: 'image', video: { width: 1280, height: 720 } });
  });

  it.skipIf(!materials.photos.path || !materials.fonts.path)('reports an entry unavailable with the apt-get hint and builds the rest', async () => {
    const withoutSpeech = { ...materials, speech: { ...materials.speech, path: null } };
    const { built } = await buildCorpus({ dir: freshDir(), entries, materials: withoutSpeech });
    const podcast = built.find((b) => b.entry.name === 'podcast-dialogue')!;
    expect(podcast).toMatchObject({ path: null, unavailable: 'needs espeak-ng speech synthesiser: apt-get install espeak-ng' });
    expect(built.find((b) => b.entry.name === 'thumb-title-meadow')!.path).toMatch(/thumb-title-meadow-[0-9a-f]{12}\.jpg$/);
  });
});
