// What a delivery profile requires before a receipt may speak for it: the table, the gate selection that meets it,
// the coverage of a check (pure, and on real media through runCheck), the coverage of a receipt, and the docs table.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeNeeds, runCheck, selectGates } from '../engine/check.js';
import {
  checkCoverage,
  MEDIA_SHAPES,
  mediaShapeOf,
  profileRequirement,
  receiptCoverage,
  requiredGates,
  sidecarsNeeded,
  type MediaShape,
  type SidecarName,
} from '../engine/delivery-requirements.js';
import { RECEIPTS_DOC_PATH, renderReceiptRequirements, withRequirements } from '../engine/docs/receipt-requirements-doc.js';
import { GATES } from '../engine/gates/index.js';
import { ACCEPTED_PROFILE_NAMES, DELIVERY_PROFILE_IDS, PIPELINE_PROFILES, resolveProfile } from '../engine/profiles/index.js';
import { receiptInputFromReport } from '../engine/receipt.js';
import { uploadReadiness } from '../engine/report.js';
import type { GateStatus, MediaInfo } from '../engine/types.js';
import * as fx from './helpers/fixtures.js';
import { audioStream, mediaInfo, videoStream } from './helpers/media-info.js';

const MEDIA: Record<string, MediaInfo> = {
  landscape: mediaInfo({ video: videoStream(), audio: audioStream() }),
  vertical: mediaInfo({ durationSeconds: 30, video: videoStream({ width: 1080, height: 1920, displayWidth: 1080, displayHeight: 1920 }), audio: audioStream() }),
  silent: mediaInfo({ video: videoStream(), audio: null, audioStreamCount: 0 }),
  audio: mediaInfo({ kind: 'audio', video: null, videoStreamCount: 0, audio: audioStream() }),
  image: mediaInfo({ kind: 'image', durationSeconds: 0, video: videoStream({ fps: 0, avgFps: 0 }), audio: null, audioStreamCount: 0 }),
};
const SIDECAR_SETS: SidecarName[][] = [[], ['transcript'], ['manifest'], ['transcript', 'watchlist', 'expectedScript', 'manifest', 'chunkSidecars']];

describe('what each delivery profile requires', () => {
  it('knows the input of every gate in the catalogue', () => {
    for (const gate of GATES) expect(() => sidecarsNeeded(gate), gate.id).not.toThrow();
    expect(sidecarsNeeded(GATES.find((g) => g.id === 'pronunciation_watchlist')!)).toEqual(['transcript', 'watchlist']);
    expect(sidecarsNeeded(GATES.find((g) => g.id === 'text_overlap')!)).toEqual([]);
  });

  it('requires the technical gates the media allows, the 9:16 profiles shorts_format, and no sound gate of a silent video', () => {
    const longform = profileRequirement('video_site_longform', 'video');
    expect(longform.mediaGates).toEqual(['black_frames', 'loop_freeze', 'canvas_fill', 'format_spec', 'loudness', 'clipping', 'dead_air', 'channel_balance', 'av_sync', 'text_contrast', 'text_safe_area', 'text_overlap']);
    expect(profileRequirement('video_site_shorts', 'video').mediaGates).toContain('shorts_format');
    expect(profileRequirement('broadcast_r128', 'video').mediaGates).not.toContain('shorts_format');
    const silent = profileRequirement('video_site_longform', 'silent_video').mediaGates;
    for (const gate of ['loudness', 'clipping', 'dead_air', 'channel_balance', 'av_sync']) expect(silent).not.toContain(gate);
    expect(profileRequirement('podcast_delivery', 'audio').mediaGates).toEqual(['format_spec', 'loudness', 'clipping', 'dead_air', 'channel_balance']);
    expect(profileRequirement('video_site_shorts', 'image').mediaGates).toEqual(['canvas_fill', 'format_spec', 'thumbnail_text_readability', 'text_contrast', 'text_safe_area']);
  });

  it('requires sidecar gates only when every sidecar they read was given', () => {
    expect(requiredGates('video_site_longform', 'video', [])).not.toContain('spoken_leaks');
    expect(requiredGates('video_site_longform', 'video', ['transcript'])).toEqual(expect.arrayContaining(['spoken_leaks', 'sentence_boundary']));
    expect(requiredGates('video_site_longform', 'video', ['transcript'])).not.toContain('first_three_seconds');
    expect(requiredGates('video_site_longform', 'video', ['manifest'])).toEqual(expect.arrayContaining(['repeat_fatigue', 'first_three_seconds', 'end_screen_tease', 'rehook_cadence']));
  });

  it('lets a full check of every profile name, media and sidecar set run everything its delivery profile requires', () => {
    for (const name of ACCEPTED_PROFILE_NAMES) {
      for (const media of Object.values(MEDIA)) {
        const resolved = resolveProfile(name, media);
        const shape = mediaShapeOf(media);
        for (const sidecars of SIDECAR_SETS) {
          const selected = selectGates(resolved, null, shape, sidecars).map((g) => g.id);
          const delivery = resolved.deliveryProfile.id as (typeof DELIVERY_PROFILE_IDS)[number];
          for (const gate of requiredGates(delivery, shape, sidecars)) expect(selected, `${name} ${shape} ${sidecars.join('+')}`).toContain(gate);
        }
      }
    }
  });

  it('changes nothing for auto checks without sidecars, and adds what an explicit delivery profile needs', () => {
    for (const media of Object.values(MEDIA)) {
      const resolved = resolveProfile('auto', media);
      expect(selectGates(resolved, null, mediaShapeOf(media), []).map((g) => g.id)).toEqual(resolved.profile.gates);
    }
    const landscapeForShorts = selectGates(resolveProfile('video_site_shorts', MEDIA.landscape), null, 'video', []).map((g) => g.id);
    expect(PIPELINE_PROFILES.generic_creator_video.gates).not.toContain('shorts_format');
    expect(landscapeForShorts).toContain('shorts_format');
    // Explicit checks replace everything: a repair step.
    expect(selectGates(resolveProfile('auto', MEDIA.landscape), ['loudness'], 'video', ['transcript']).map((g) => g.id)).toEqual(['loudness']);
  });

  it('asks the decode pass for what the selected gates read, and no more', () => {
    const sorted = (needs: Set<string>) => [...needs].sort();
    expect(sorted(decodeNeeds(MEDIA.landscape, { checks: 'loudness,clipping' }))).toEqual(['audio']);
    expect(sorted(decodeNeeds(MEDIA.landscape, { checks: 'black_frames,av_sync' }))).toEqual(['audio', 'video']);
    expect(sorted(decodeNeeds(MEDIA.landscape))).toContain('text');
    // Legal levels only for broadcast delivery.
    expect(decodeNeeds(MEDIA.landscape, { checks: 'format_spec' }).has('legal_levels')).toBe(false);
    expect(decodeNeeds(MEDIA.landscape, { profile: 'broadcast_r128', checks: 'format_spec' }).has('legal_levels')).toBe(true);
    expect(sorted(decodeNeeds(MEDIA.audio))).toEqual(['audio']);
  });
});

describe('coverage of a check', () => {
  const ran = (gates: readonly string[], status: GateStatus = 'pass') => gates.map((gate) => ({ gate, status }));
  const full = profileRequirement('video_site_longform', 'video').mediaGates;

  it('is complete when every required gate ran (pass, watch or block) and none errored', () => {
    const results = [...ran(full.slice(1)), { gate: full[0], status: 'block' as GateStatus }];
    expect(checkCoverage({ deliveryProfile: 'video_site_longform', media: 'video', sidecars: [], narrowed: false, results })).toMatchObject({ complete: true, missing: [], errored: [] });
  });

  it('is incomplete when narrowed, when a required media gate skipped, or when any gate errored', () => {
    const narrowed = checkCoverage({ deliveryProfile: 'video_site_longform', media: 'video', sidecars: [], narrowed: true, results: ran(['loudness']) });
    expect(narrowed).toMatchObject({ complete: false, narrowed: true });
    expect(narrowed.missing).toHaveLength(full.length - 1);
    const skipped = checkCoverage({ deliveryProfile: 'video_site_longform', media: 'video', sidecars: [], narrowed: false, results: [...ran(full.slice(1)), { gate: full[0], status: 'skipped' }] });
    expect(skipped).toMatchObject({ complete: false, missing: [full[0]] });
    const errored = checkCoverage({ deliveryProfile: 'video_site_longform', media: 'video', sidecars: [], narrowed: false, results: [...ran(full), { gate: 'spoken_leaks', status: 'error' }] });
    expect(errored).toMatchObject({ complete: false, missing: [], errored: ['spoken_leaks'] });
    const sidecarOnly = checkCoverage({ deliveryProfile: 'video_site_longform', media: null, sidecars: ['transcript'], narrowed: false, results: ran(['spoken_leaks']) });
    expect(sidecarOnly.complete).toBe(false);
  });

  it('counts a selected sidecar gate that skipped on what its sidecar says, but not one that was left out', () => {
    const withManifest = requiredGates('video_site_longform', 'video', ['manifest']);
    const manifestGates = withManifest.filter((g) => !full.includes(g));
    const results = [...ran(full), ...manifestGates.map((gate) => ({ gate, status: 'skipped' as GateStatus }))];
    expect(checkCoverage({ deliveryProfile: 'video_site_longform', media: 'video', sidecars: ['manifest'], narrowed: false, results }).complete).toBe(true);
    const leftOut = checkCoverage({ deliveryProfile: 'video_site_longform', media: 'video', sidecars: ['manifest'], narrowed: false, results: ran(full) });
    expect(leftOut).toMatchObject({ complete: false, missing: manifestGates });
  });

  it('refuses podcast_delivery for media without sound', () => {
    const coverage = checkCoverage({ deliveryProfile: 'podcast_delivery', media: 'silent_video', sidecars: [], narrowed: false, results: ran(['format_spec']) });
    expect(coverage.complete).toBe(false);
  });
});

describe('coverage of a receipt', () => {
  const longform = profileRequirement('video_site_longform', 'video').mediaGates;

  it('holds the receipt to the media of the file when the verifier read it', () => {
    const silentGates = profileRequirement('video_site_longform', 'silent_video').mediaGates;
    expect(receiptCoverage({ profile: 'video_site_longform', gates: silentGates }, 'silent_video')).toMatchObject({ complete: true, judgedFrom: 'file' });
    const asVideo = receiptCoverage({ profile: 'video_site_longform', gates: silentGates }, 'video');
    expect(asVideo).toMatchObject({ complete: false, judgedFrom: 'file', media: 'video' });
    expect(asVideo.missing).toEqual(['loudness', 'clipping', 'dead_air', 'channel_balance', 'av_sync']);
  });

  it('without the file, only considers media every listed gate runs on', () => {
    expect(receiptCoverage({ profile: 'video_site_longform', gates: longform })).toMatchObject({ complete: true, media: 'video', judgedFrom: 'gates' });
    // A narrowed re-check of the sound of a video: clipping needs sound, so neither a silent video nor an image fits.
    const sound = receiptCoverage({ profile: 'video_site_longform', gates: ['format_spec', 'clipping', 'dead_air', 'channel_balance'] });
    expect(sound).toMatchObject({ complete: false });
    expect(sound.missing).toContain('loudness');
    expect(receiptCoverage({ profile: 'video_site_longform', gates: [] })).toMatchObject({ complete: false });
    expect(receiptCoverage({ profile: 'video_site_longform', gates: ['thumbnail_text_readability', 'loudness'] }).reason).toMatch(/fit no one kind of media/);
    expect(receiptCoverage({ profile: 'nto_shorts', gates: longform }).reason).toMatch(/not a delivery profile this verifier knows/);
  });

  it('judges every profile and media requirement as complete from its own gates', () => {
    for (const profile of DELIVERY_PROFILE_IDS) {
      for (const media of MEDIA_SHAPES as readonly MediaShape[]) {
        const gates = profileRequirement(profile, media).mediaGates;
        if (profile === 'podcast_delivery' && (media === 'silent_video' || media === 'image')) continue;
        expect(receiptCoverage({ profile, gates }).complete, `${profile} ${media}`).toBe(true);
        expect(receiptCoverage({ profile, gates }, media).complete, `${profile} ${media} (file)`).toBe(true);
      }
    }
  });
});

describe('coverage through real checks', () => {
  it('a narrowed check and a check whose only gate skipped get no receipt, and are not upload-ready; the full check is', async () => {
    const file = await fx.cleanPodcast();
    const narrowed = await runCheck(file, { checks: 'loudness' });
    expect(narrowed.report.verdict).toBe('PASS');
    expect(narrowed.report.coverage).toMatchObject({ deliveryProfile: 'podcast_delivery', media: 'audio', narrowed: true, complete: false });
    expect(uploadReadiness(narrowed.report)).toMatchObject({ ready: false, sentence: expect.stringMatching(/^Not upload-ready yet: PASS on the gates that ran.*run the full profile to get a receipt\.$/) });
    expect(() => receiptInputFromReport(narrowed.report, 'job_x')).toThrow(/run the full profile to get a receipt/);

    const watchlistOnly = await runCheck(file, { checks: 'pronunciation_watchlist' });
    expect(watchlistOnly.report.gates).toMatchObject([{ gate: 'pronunciation_watchlist', status: 'skipped' }]);
    expect(watchlistOnly.report.verdict).toBe('PASS');
    expect(() => receiptInputFromReport(watchlistOnly.report, 'job_y')).toThrow(/ran 0 of the 5 gates podcast_delivery requires of audio/);

    const complete = await runCheck(file);
    expect(complete.report.coverage).toMatchObject({ complete: true, narrowed: false, missing: [], errored: [] });
    expect(uploadReadiness(complete.report)).toEqual({ ready: true, sentence: 'Upload-ready. No gate raised a flag.' });
    expect(receiptInputFromReport(complete.report, 'job_z')).toMatchObject({ verdict: 'PASS', media: 'audio', profile: 'podcast_delivery' });
  });
});

describe(RECEIPTS_DOC_PATH, () => {
  const path = resolve(import.meta.dirname, '..', RECEIPTS_DOC_PATH);

  it('carries the requirements table generated from the code', () => {
    const committed = existsSync(path) ? readFileSync(path, 'utf8') : '';
    if (process.env.UPDATE_DOCS === '1') writeFileSync(path, withRequirements(committed));
    const current = readFileSync(path, 'utf8');
    expect(current, `${RECEIPTS_DOC_PATH} is out of date with engine/delivery-requirements.ts: run UPDATE_DOCS=1 npx vitest run test/delivery-requirements.test.ts`).toBe(withRequirements(current));
    expect(current).toContain(renderReceiptRequirements());
  });
});
