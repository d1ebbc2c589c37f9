import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GATES_DOC_PATH, renderGatesDoc } from '../engine/docs/gates-doc.js';
import { GATES, thresholdsFor } from '../engine/gates/index.js';
import { DELIVERY_PROFILE_IDS, inferPipelineProfile } from '../engine/profiles/index.js';
import type { MediaInfo, VideoStreamInfo } from '../engine/types.js';

const DOC = resolve(import.meta.dirname, '..', GATES_DOC_PATH);
const UPDATE_COMMAND = 'UPDATE_DOCS=1 npx vitest run test/gates-doc.test.ts';

describe('docs/gates.md', () => {
  const rendered = renderGatesDoc();

  it('is the committed output of renderGatesDoc()', () => {
    if (process.env.UPDATE_DOCS === '1') {
      writeFileSync(DOC, rendered);
      return;
    }
    const committed = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '';
    expect(committed, `${GATES_DOC_PATH} is out of date with the engine's gates, profiles or thresholds: run ${UPDATE_COMMAND}`).toBe(rendered);
  });

  it('renders deterministically', () => {
    expect(renderGatesDoc()).toBe(rendered);
  });

  it('states that thresholds are public and how verdicts work', () => {
    expect(rendered).toContain('Our thresholds are public.');
    expect(rendered).toContain('BLOCK if any flag is BLOCK, else WATCH if any flag is WATCH, else PASS');
    expect(rendered).toContain('Receipts carry PASS or BLOCK only');
  });

  it('lists every gate with its input and media, as its requirements say', () => {
    for (const gate of GATES) {
      expect(rendered).toContain(`#### \`${gate.id}\`: ${gate.title}`);
      expect(rendered).toContain(gate.algorithm);
      expect(rendered).toContain(`input: ${gate.input}; media: ${gate.requires.kinds.join(', ')};`);
    }
  });

  it('publishes every threshold with its source under every delivery profile', () => {
    for (const gate of GATES) {
      for (const delivery of DELIVERY_PROFILE_IDS) {
        for (const [key, t] of Object.entries(thresholdsFor(gate.id, delivery))) {
          expect(rendered, `${gate.id}.${key}`).toContain(`| \`${key}\` |`);
          expect(rendered, `${gate.id}.${key} source`).toContain(t.source.replace(/\|/g, '\\|'));
        }
      }
    }
  });

  it('describes the auto rule the code applies', () => {
    const video = (displayWidth: number, displayHeight: number) => ({ displayWidth, displayHeight }) as VideoStreamInfo;
    const media = (kind: MediaInfo['kind'], durationSeconds: number, v: VideoStreamInfo | null) => ({ kind, durationSeconds, video: v }) as MediaInfo;
    expect(inferPipelineProfile(media('image', 0, video(1280, 720)))).toBe('creator_thumbnail');
    expect(inferPipelineProfile(media('audio', 600, null))).toBe('npo_podcast_or_audio');
    expect(inferPipelineProfile(media('video', 180, video(1080, 1080)))).toBe('nto_shorts');
    expect(inferPipelineProfile(media('video', 181, video(1080, 1920)))).toBe('generic_creator_video');
    expect(inferPipelineProfile(media('video', 30, video(1920, 1080)))).toBe('generic_creator_video');
    expect(rendered).toContain('square or taller and at most 180 s long → `nto_shorts`');
  });
});
