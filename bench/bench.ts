// npm run bench: the speed of a check against a bare decode (bench/speed.ts), a 60-minute podcast (bench/audio.ts) and the
// CLI's start-up (bench/startup.ts), all issue 16's targets; script_faithfulness on a long transcript; the accuracy corpus
// of issue 14 (bench/accuracy/); the batch; and, when asked, the store.
import { gateById, thresholdsFor } from '../engine/gates/index.js';
import { DELIVERY_PROFILES } from '../engine/profiles/index.js';
import type { GateContext, MediaInfo } from '../engine/types.js';
import { accuracyBench } from './accuracy/run.js';
import { audioBench } from './audio.js';
import { batchBench } from './batch.js';
import { speedBench } from './speed.js';
import { startupBench } from './startup.js';
import { storeBench } from './store.js';

// script_faithfulness on a 2-hour transcript (about 20 000 words) against its script with a few edits. Target < 2 s.
function scriptFaithfulnessBench(): number {
  const vocabulary = ['the', 'river', 'carried', 'stones', 'past', 'quiet', 'villages', 'while', 'engineers', 'measured', 'every', 'bend', 'and', 'wrote', 'numbers', 'down'];
  const count = 20_000;
  const scriptWords = Array.from({ length: count }, (_, i) => vocabulary[(i * 7 + (i >> 3)) % vocabulary.length]);
  const spoken = [...scriptWords];
  for (const at of [1000, 5000, 12000, 18000]) spoken.splice(at, 3, 'something', 'else', 'entirely', 'here');
  const words = spoken.map((text, i) => ({ text, start: i * 0.36, end: i * 0.36 + 0.3 }));
  const media: MediaInfo = {
    path: '', kind: 'audio', container: 'wav', formatLongName: null, sizeBytes: 0, durationSeconds: count * 0.36, bitRate: null, startSeconds: 0,
    video: null, audio: null, videoStreamCount: 0, audioStreamCount: 1, subtitleStreamCount: 0, otherStreams: [],
  };
  const ctx: GateContext = {
    media,
    signals: { video: null, audio: null, analysisMs: 0 },
    sidecars: { transcript: { text: spoken.join(' '), words, segments: null, format: 'json' }, expectedScript: { text: scriptWords.join(' '), format: 'text' } },
    thresholds: thresholdsFor('script_faithfulness', 'podcast_delivery'),
    profileId: 'npo_podcast_or_audio',
    deliveryProfile: DELIVERY_PROFILES.podcast_delivery,
    timecodeFps: 25,
  };
  const gate = gateById('script_faithfulness')!;
  const t = performance.now();
  const result = gate.run(ctx);
  const ms = performance.now() - t;
  console.log(`script_faithfulness, 2 h transcript (${count} words): ${ms.toFixed(0)} ms (target < 2000 ms), ${result.flags.length} drift spans, status ${result.status}`);
  return ms;
}

// `npm run bench` runs everything but the store; `npm run bench -- video`, `-- audio`, `-- script`, `-- batch`, `-- startup`,
// `-- accuracy [entry ...]` or `-- store [jobs ...]` runs one part (the store's seeds 100k jobs per engine: only when asked).
const MODES = ['video', 'audio', 'script', 'accuracy', 'batch', 'startup', 'store'];
const only = process.argv[2];
if (only && !MODES.includes(only)) throw new Error(`unknown bench mode "${only}": one of ${MODES.join(', ')}`);
if (!only || only === 'video') await speedBench();
if (!only || only === 'audio') await audioBench();
if (!only || only === 'script') scriptFaithfulnessBench();
if (!only || only === 'accuracy') await accuracyBench({ only: process.argv.slice(3) });
if (!only || only === 'batch') await batchBench();
if (!only || only === 'startup') await startupBench();
if (only === 'store') await storeBench(process.argv.slice(3));
