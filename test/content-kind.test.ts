import { describe, expect, it } from 'vitest';
import { classifyAudioContent, SPEECH_MIN_PAUSE_SHARE } from '../engine/audio/content-kind.js';
import type { LevelEnvelope } from '../engine/audio/stats.js';

const FLOOR_DBFS = -120;

function envelope(rmsDbfs: Float32Array): LevelEnvelope {
  return { blockSeconds: 0.01, floorDbfs: FLOOR_DBFS, rmsDbfs, peakDbfs: rmsDbfs, highPassDbfs: rmsDbfs };
}

/** The pause share as the classifier defines it, with the loud level taken from a full sort. */
function pauseShareBySort(db: Float32Array): number {
  const sorted = Float32Array.from(db).sort();
  const loud = sorted[Math.floor(0.95 * (sorted.length - 1))];
  return db.filter((level) => level < loud - 20).length / db.length;
}

/** A deterministic generator (mulberry32), so a failure names a reproducible envelope. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('audio content kind', () => {
  it('takes the loud level a sort would, on envelopes whose 95th percentile sits among repeated and floored levels', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const next = random(seed);
      const blocks = 500 + Math.floor(next() * 3000);
      const db = new Float32Array(blocks);
      // Pauses on the floor and spread up to where the loud level less 20 dB falls, phrases at repeated levels and
      // spread, the odd burst: a loud level one place off moves the pause share.
      const levels = [-18, -20.5, -23, -23, -26];
      for (let i = 0; i < blocks; i++) {
        const r = next();
        db[i] = r < 0.2 ? FLOOR_DBFS : r < 0.5 ? -75 + 50 * next() : r < 0.8 ? levels[Math.floor(next() * levels.length)] : -30 + 25 * next();
      }
      expect(classifyAudioContent(envelope(db)).pauseShare, `seed ${seed}`).toBe(pauseShareBySort(db));
    }
  });

  it('calls phrases with pauses speech, a varying bed music and a line-up tone steady', () => {
    const next = random(7);
    const speech = Float32Array.from({ length: 3000 }, (_, i) => (i % 100 < 70 ? -20 - 6 * next() : FLOOR_DBFS));
    const music = Float32Array.from({ length: 3000 }, (_, i) => -18 + 6 * Math.sin(i / 50) + next());
    const tone = new Float32Array(3000).fill(-18);
    const speechKind = classifyAudioContent(envelope(speech));
    expect(speechKind.kind).toBe('speech');
    expect(speechKind.pauseShare).toBeGreaterThanOrEqual(SPEECH_MIN_PAUSE_SHARE);
    expect(classifyAudioContent(envelope(music)).kind).toBe('music');
    expect(classifyAudioContent(envelope(tone)).kind).toBe('steady');
  });
});
