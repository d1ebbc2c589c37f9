// Golden reports: a few generated files, each with several defects, must give the same report byte for byte (ids and
// times aside). Any change to a gate's verdicts, wording, evidence or order shows here as a diff.
// After an intended change: UPDATE_GOLDEN=1 npx vitest run test/golden.test.ts, then read the diff of test/golden/.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckOptions } from '../engine/check.js';
import { checked } from './helpers/checked.js';
import type { Report } from '../engine/report.js';
import * as fx from './helpers/fixtures.js';
import * as golden from './helpers/golden-media.js';

const GOLDEN_DIR = resolve(import.meta.dirname, 'golden');

const EVERY_GATE = [
  'black_frames', 'loop_freeze', 'canvas_fill', 'format_spec', 'shorts_format', 'loudness', 'clipping', 'dead_air', 'channel_balance',
  'av_sync', 'spoken_leaks', 'pronunciation_watchlist', 'script_faithfulness', 'sentence_boundary', 'dialogue_in_music_short',
  'chunk_sidecar_failures', 'repeat_fatigue', 'speaker_visual_binding', 'static_head_dominance', 'literal_subject_match',
  'visual_narration_match', 'first_three_seconds', 'end_screen_tease', 'rehook_cadence', 'contact_sheet_evidence',
  'opening_footer_text_presence', 'clean_segment_source_scrub', 'asset_triage_reuse_manifest', 'voiceover_music_balance',
  'text_crop_jitter', 'text_overlap', 'hallucinated_plate_text', 'text_contrast', 'text_safe_area', 'thumbnail_text_readability',
].join(',');
const TECHNICAL = 'black_frames,loop_freeze,canvas_fill,format_spec,loudness,clipping,dead_air,channel_balance,av_sync';

/** The report without what differs from run to run or release to release (timings, creation time, engine versions). */
function deterministicPart(report: Report): Omit<Report, 'timings' | 'createdAt' | 'engine'> {
  const { timings: _timings, createdAt: _createdAt, engine: _engine, ...rest } = report;
  return rest;
}

const root = mkdtempSync(join(tmpdir(), 'preflight-golden-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function expectGolden(name: string, path: string | null, opts: CheckOptions): Promise<void> {
  const { report } = await checked(path, opts);
  const text = `${JSON.stringify(deterministicPart(report), null, 2)}\n`;
  const file = join(GOLDEN_DIR, `${name}.json`);
  if (process.env.UPDATE_GOLDEN === '1') {
    writeFileSync(file, text);
    return;
  }
  const committed = existsSync(file) ? readFileSync(file, 'utf8') : '';
  expect(text, `${name}: the report differs from test/golden/${name}.json`).toBe(committed);
}

describe('golden reports', () => {
  it('video with black, freeze, loop, letterbox, quiet clipped sound, dead air, imbalance and late audio', async () => {
    await expectGolden('video-defects', await golden.videoDefects(), { profile: 'generic_creator_video' });
  });

  it('a still picture with sound: WATCH for video sites, BLOCK for the AI render gate', async () => {
    const file = await golden.stillWithSound();
    await expectGolden('still-with-sound', file, { profile: 'generic_creator_video', checks: 'loop_freeze,format_spec' });
    await expectGolden('still-with-sound-ai-render', file, { profile: 'ai_render_gate', checks: 'loop_freeze,format_spec' });
  });

  it('a web file judged for broadcast: format, legal levels, hot loudness, true peak', async () => {
    await expectGolden('broadcast', await golden.webFileForBroadcast(), { profile: 'broadcast_r128', checks: TECHNICAL });
  });

  it('a landscape file with a late sync pattern, checked as a short', async () => {
    await expectGolden('sync-late-short', await golden.landscapeSyncLate(), { profile: 'shorts', checks: 'av_sync,shorts_format,format_spec' });
  });

  it('an audio file: quiet, clipped, silent stretch, dead right channel', async () => {
    await expectGolden('audio-defects', await fx.audioDefects(), { profile: 'audio' });
  });

  it('a thumbnail with small text, too many words, low contrast and text under the badge', async () => {
    await expectGolden('thumbnail', await golden.thumbnail(), { profile: 'thumbnail' });
  });

  it('a vertical short with drawn text and every sidecar, every gate asked for', async () => {
    await expectGolden('vertical-with-sidecars', await golden.verticalWithText(), { profile: 'shorts', checks: EVERY_GATE, sidecars: golden.goldenSidecars(join(root, 'vertical')) });
  });

  it('the same sidecars without media', async () => {
    await expectGolden('sidecars-only', null, { checks: EVERY_GATE, sidecars: golden.goldenSidecars(join(root, 'sidecars-only')) });
  });
});
