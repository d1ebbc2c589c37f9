import { describe, expect, it } from 'vitest';
import { DELIVERY_PROFILES, needsLegalLevels, type DeliveryProfileId } from '../engine/profiles/index.js';
import { gateById, thresholdsFor } from '../engine/gates/index.js';
import type { GateResult, LegalLevelSignals, MediaInfo, Signals, VideoStreamInfo } from '../engine/types.js';
import { audioStream, mediaInfo, videoSignals, videoStream } from './helpers/media-info.js';

function signalsWith(legalLevels: LegalLevelSignals | null = null): Signals {
  if (!legalLevels) return { video: null, audio: null, analysisMs: 0 };
  return { video: videoSignals({ width: 480, height: 270, legalLevels }), audio: null, analysisMs: 0 };
}

function run(gate: 'format_spec' | 'shorts_format', media: MediaInfo, delivery: DeliveryProfileId, signals: Signals = signalsWith()): GateResult {
  const definition = gateById(gate)!;
  return definition.run({
    media,
    signals,
    sidecars: {},
    thresholds: thresholdsFor(gate, delivery),
    profileId: 'test',
    deliveryProfile: DELIVERY_PROFILES[delivery],
    timecodeFps: media.video?.fps || 25,
  });
}

const checks = (result: GateResult): string[] => result.flags.map((f) => f.evidence.check as string);
const flagFor = (result: GateResult, check: string) => {
  const flag = result.flags.find((f) => f.evidence.check === check);
  if (!flag) throw new Error(`no ${check} flag in ${JSON.stringify(checks(result))}`);
  return flag;
};

const BROADCAST_MASTER = mediaInfo({
  path: '/media/master.mxf',
  container: 'mxf',
  formatLongName: 'MXF (Material eXchange Format)',
  video: videoStream({ codec: 'mpeg2video', profile: '4:2:2', pixelFormat: 'yuv422p', fps: 25, avgFps: 25, fieldOrder: 'tt' }),
  audio: audioStream({ codec: 'pcm_s24le', channels: 1, channelLayout: 'mono', channelNames: ['FC'] }),
  audioStreamCount: 8,
});

describe('format thresholds', () => {
  it('gives every delivery profile format_spec and shorts_format targets with sources', () => {
    for (const delivery of Object.keys(DELIVERY_PROFILES) as DeliveryProfileId[]) {
      const tables = [thresholdsFor('format_spec', delivery), thresholdsFor('shorts_format', delivery)];
      for (const table of tables) {
        expect(Object.keys(table).length).toBeGreaterThan(0);
        for (const [key, entry] of Object.entries(table)) {
          expect(entry.source, `${delivery}.${key}`).not.toBe('');
          expect(['primary', 'secondary', 'unconfirmed', 'house']).toContain(entry.confidence);
        }
      }
    }
  });

  it('measures legal levels only for broadcast_r128', () => {
    expect((Object.keys(DELIVERY_PROFILES) as DeliveryProfileId[]).filter(needsLegalLevels)).toEqual(['broadcast_r128']);
    expect(thresholdsFor('format_spec', 'broadcast_r128').legalLevelsCodeRange8bit.value).toEqual([5, 246]);
    expect(thresholdsFor('format_spec', 'video_site_longform').legalLevelsAreaAllowancePct).toBeUndefined();
  });
});

describe('format_spec', () => {
  it('passes clean 1080p30 H.264 yuv420p AAC 48 kHz stereo MP4 on a video site, with full measurements', () => {
    const result = run('format_spec', mediaInfo(), 'video_site_longform');
    expect(result.status).toBe('pass');
    expect(result.flags).toEqual([]);
    expect(result.measurements).toMatchObject({
      container: 'mp4',
      videoCodec: 'h264',
      pixelFormat: 'yuv420p',
      displaySize: '1920x1080',
      fps: 30,
      variableFrameRate: false,
      scan: 'progressive',
      audioCodec: 'aac',
      sampleRate: 48000,
      channels: 2,
      legalLevels: 'not measured for this delivery profile',
    });
    expect(result.measurements).not.toHaveProperty('conformCommand');
  });

  it('flags 10-bit HDR HEVC as WATCH for video sites with a tone-map command, once (not also as pixel format)', () => {
    const hdr = mediaInfo({
      path: '/media/hdr.mov',
      video: videoStream({ codec: 'hevc', profile: 'Main 10', pixelFormat: 'yuv420p10le', bitDepth: 10, hdr: true, colorTransfer: 'smpte2084', colorPrimaries: 'bt2020', colorSpace: 'bt2020nc' }),
    });
    for (const delivery of ['video_site_longform', 'video_site_shorts'] as const) {
      const result = run('format_spec', hdr, delivery);
      expect(result.status).toBe('watch');
      expect(checks(result)).toEqual(['hdr']);
      const flag = flagFor(result, 'hdr');
      expect(flag.repair.reachable).toBe(true);
      expect(flag.repair.instruction).toContain('tonemap=hable');
      expect(flag.repair.instruction).toContain('format=yuv420p');
      expect(flag.repair.instruction).toContain('hdr.conformed.mov');
    }
  });

  it('flags variable frame rate phone footage as WATCH on sites and BLOCK on broadcast', () => {
    const phone = mediaInfo({ path: '/media/IMG_0001.MOV', video: videoStream({ fps: 120, avgFps: 29.87, variableFrameRate: true }) });
    const site = run('format_spec', phone, 'video_site_longform');
    expect(checks(site)).toEqual(['variable_frame_rate']);
    expect(site.flags[0].severity).toBe('WATCH');
    expect(site.flags[0].repair.instruction).toContain('fps=30000/1001');
    expect(site.flags[0].evidence).toMatchObject({ measured: { variableFrameRate: true, avgFps: 29.87 }, threshold: { variableFrameRateAllowed: false } });

    const broadcast = run('format_spec', phone, 'broadcast_r128');
    expect(broadcast.status).toBe('block');
    expect(flagFor(broadcast, 'variable_frame_rate').severity).toBe('BLOCK');
    expect(flagFor(broadcast, 'variable_frame_rate').repair.instruction).toContain('fps=25');
  });

  it('flags interlaced video on the web with a yadif command and accepts it for broadcast', () => {
    const interlaced = mediaInfo({ video: videoStream({ fieldOrder: 'tt', fps: 25, avgFps: 25 }) });
    const web = run('format_spec', interlaced, 'video_site_longform');
    expect(checks(web)).toEqual(['interlaced']);
    expect(web.flags[0].repair.instruction).toMatch(/-vf yadif -c:v libx264/);
    expect(checks(run('format_spec', BROADCAST_MASTER, 'broadcast_r128'))).toEqual([]);
  });

  it('asks for a stereo downmix of 8-channel audio on a web delivery', () => {
    const surround = mediaInfo({ audio: audioStream({ channels: 8, channelLayout: '7.1', channelNames: ['FL', 'FR', 'FC', 'LFE', 'BL', 'BR', 'SL', 'SR'] }) });
    const result = run('format_spec', surround, 'video_site_longform');
    expect(result.status).toBe('watch');
    const flag = flagFor(result, 'audio_channels');
    expect(flag.evidence).toMatchObject({ measured: 8, threshold: { audioChannels: [1, 2, 6] } });
    expect(flag.repair.instruction).toContain('Downmix 7.1 to stereo');
    expect(flag.repair.instruction).toContain('-c:v copy -c:a aac -b:a 192k -ac 2');
  });

  it('blocks 44.1 kHz audio on broadcast with a resample to 48 kHz', () => {
    const master = { ...BROADCAST_MASTER, audio: audioStream({ codec: 'pcm_s24le', sampleRate: 44100, channels: 2 }), audioStreamCount: 1 };
    const result = run('format_spec', master, 'broadcast_r128');
    expect(checks(result)).toEqual(['sample_rate']);
    expect(result.flags[0].severity).toBe('BLOCK');
    expect(result.flags[0].repair.instruction).toContain('-c:a pcm_s24le -ar 48000');
    expect(result.flags[0].repair.instruction).toContain('-map 0:a');
  });

  it('blocks a web MP4 under broadcast_r128 on container, pixel format and every other broadcast rule it breaks', () => {
    const result = run('format_spec', mediaInfo(), 'broadcast_r128');
    expect(result.status).toBe('block');
    expect(checks(result)).toEqual(['container', 'pixel_format', 'frame_rate', 'audio_codec']);
    expect(result.measurements.conformCommand).toBe(
      'ffmpeg -i clip.mp4 -map 0:0 -map 0:a -vf fps=25 -c:v prores_ks -profile:v 3 -pix_fmt yuv422p10le -vendor apl0 -c:a pcm_s24le -movflags +faststart clip.conformed.mov',
    );
  });

  it('rewraps an MKV with allowed codecs by stream copy', () => {
    const mkv = mediaInfo({ path: '/media/render.mkv', container: 'matroska,webm' });
    const result = run('format_spec', mkv, 'ai_render_gate');
    expect(checks(result)).toEqual(['container']);
    expect(result.flags[0].repair.action).toBe('remux');
    expect(result.measurements.conformCommand).toBe('ffmpeg -i render.mkv -map 0:0 -map 0:1 -c:v copy -c:a copy -movflags +faststart render.conformed.mp4');
  });

  it('marks a picture below the minimum size as unreachable by re-encoding', () => {
    const small = mediaInfo({ video: videoStream({ width: 640, height: 360, displayWidth: 640, displayHeight: 360 }) });
    const flag = flagFor(run('format_spec', small, 'video_site_longform'), 'resolution');
    expect(flag.repair.reachable).toBe(false);
    expect(flag.repair.action).toBe('re_render_from_source');
  });

  it('judges rotated phone video on its display size', () => {
    const rotated = mediaInfo({ video: videoStream({ width: 1920, height: 1080, displayWidth: 1080, displayHeight: 1920, rotation: 90 }) });
    expect(run('format_spec', rotated, 'social_reels_ad').status).toBe('pass');
    const broadcast = run('format_spec', { ...BROADCAST_MASTER, video: { ...BROADCAST_MASTER.video!, width: 1920, height: 1080, displayWidth: 1080, displayHeight: 1920, rotation: 90 } }, 'broadcast_r128');
    expect(checks(broadcast)).toEqual(['frame_size', 'rotation_metadata']);
    expect(flagFor(broadcast, 'frame_size').repair.reachable).toBe(false);
  });

  it('checks only what applies to an image', () => {
    const image = mediaInfo({
      path: '/media/thumb.png',
      kind: 'image',
      container: 'png_pipe',
      durationSeconds: 0,
      sizeBytes: 3_500_000,
      audio: null,
      audioStreamCount: 0,
      video: videoStream({ codec: 'png', pixelFormat: 'rgba', width: 1280, height: 720, displayWidth: 1280, displayHeight: 720, fps: 0, avgFps: 0 }),
    });
    const result = run('format_spec', image, 'video_site_longform');
    expect(checks(result)).toEqual(['image_file_size']);
    expect(result.flags[0]).toMatchObject({ severity: 'BLOCK', start: 0, end: 0 });
    expect(result.flags[0].repair.instruction).toContain('-q:v 3 thumb.conformed.jpg');
    expect(result.measurements).toMatchObject({ kind: 'image', fps: null, scan: null, audioCodec: null });

    const tiny = { ...image, sizeBytes: 100_000, video: { ...image.video!, width: 320, height: 180, displayWidth: 320, displayHeight: 180 } };
    expect(flagFor(run('format_spec', tiny, 'video_site_longform'), 'image_width').repair.reachable).toBe(false);
  });

  it('passes a mono 44.1 kHz MP3 podcast', () => {
    const podcast = mediaInfo({
      path: '/media/episode.mp3',
      kind: 'audio',
      container: 'mp3',
      video: null,
      videoStreamCount: 0,
      audio: audioStream({ index: 0, codec: 'mp3', sampleRate: 44100, channels: 1, channelLayout: 'mono', channelNames: ['FC'] }),
      durationSeconds: 1800,
    });
    const result = run('format_spec', podcast, 'podcast_delivery');
    expect(result.status).toBe('pass');
    expect(result.measurements).toMatchObject({ container: 'mp3', audioCodec: 'mp3', sampleRate: 44100, channels: 1, videoCodec: null });
  });

  it('converts an audio-only podcast in an unlisted codec to MP3', () => {
    const ogg = mediaInfo({ path: '/media/ep.ogg', kind: 'audio', container: 'ogg', video: null, audio: audioStream({ index: 0, codec: 'vorbis' }) });
    const result = run('format_spec', ogg, 'podcast_delivery');
    expect(checks(result)).toEqual(['container', 'audio_codec']);
    expect(result.measurements.conformCommand).toBe('ffmpeg -i ep.ogg -map 0:0 -c:a libmp3lame -b:a 128k ep.conformed.mp3');
  });

  it('counts eight mono streams as eight discrete broadcast tracks', () => {
    const result = run('format_spec', BROADCAST_MASTER, 'broadcast_r128');
    expect(result.status).toBe('pass');
    expect(result.measurements.legalLevels).toBe('not measured (no legal-level samples in this analysis)');
  });

  it('blocks broadcast video without audio', () => {
    const silent = { ...BROADCAST_MASTER, audio: null, audioStreamCount: 0 };
    const flag = flagFor(run('format_spec', silent, 'broadcast_r128'), 'audio_missing');
    expect(flag.repair.reachable).toBe(false);
  });

  it('flags R 103 legal levels over the allowance under broadcast_r128 with the sample timestamps', () => {
    const levels: LegalLevelSignals = {
      samples: 40,
      worstOutOfRangePct: 7.5,
      worstAtSeconds: 64,
      samplesOverAllowance: [
        { atSeconds: 60, outOfRangePct: 3.2 },
        { atSeconds: 64, outOfRangePct: 7.5 },
        { atSeconds: 300, outOfRangePct: 1.4 },
      ],
    };
    const result = run('format_spec', { ...BROADCAST_MASTER, durationSeconds: 600 }, 'broadcast_r128', signalsWith(levels));
    expect(result.status).toBe('block');
    const flags = result.flags.filter((f) => f.evidence.check === 'legal_levels');
    expect(flags.map((f) => [f.start, f.end])).toEqual([
      [60, 64.04],
      [300, 300.04],
    ]);
    expect(flags[0]).toMatchObject({
      severity: 'BLOCK',
      evidence: {
        measured: 7.5,
        threshold: { legalLevelsAreaAllowancePct: 1 },
        samples: [
          { atSeconds: 60, outOfRangePct: 3.2 },
          { atSeconds: 64, outOfRangePct: 7.5 },
        ],
        window: [5, 246],
        confidence: 'primary',
      },
    });
    expect(flags[0].repair.instruction).toContain('-vf format=gbrp -c:v prores_ks');
    expect(flags[0].repair.instruction).toContain('-flags +ildct+ilme -top 1');
    expect(flags[0].evidence.matrix).toBe('bt709');
    expect(flags[0].repair.instruction).not.toContain('no colour-matrix tag');
    expect(result.measurements.legalLevels).toEqual({ samples: 40, worstOutOfRangePct: 7.5, worstAtSeconds: 64, samplesOverAllowance: 3 });
  });

  it('says when an untagged picture was measured with an assumed matrix', () => {
    const levels: LegalLevelSignals = { samples: 1, worstOutOfRangePct: 60, worstAtSeconds: 0, samplesOverAllowance: [{ atSeconds: 0, outOfRangePct: 60 }] };
    const untagged = { ...BROADCAST_MASTER, video: { ...BROADCAST_MASTER.video!, colorSpace: null } };
    const flag = flagFor(run('format_spec', untagged, 'broadcast_r128', signalsWith(levels)), 'legal_levels');
    expect(flag.evidence.matrix).toBe('untagged (measured as bt709)');
    expect(flag.repair.instruction).toContain('no colour-matrix tag');
  });

  it('ignores legal-level samples under a delivery profile that does not measure them', () => {
    const levels: LegalLevelSignals = { samples: 1, worstOutOfRangePct: 9, worstAtSeconds: 1, samplesOverAllowance: [{ atSeconds: 1, outOfRangePct: 9 }] };
    const result = run('format_spec', mediaInfo(), 'video_site_longform', signalsWith(levels));
    expect(result.status).toBe('pass');
    expect(result.measurements.legalLevels).toBe('not measured for this delivery profile');
  });

  it('is deterministic', () => {
    const phone = mediaInfo({ video: videoStream({ variableFrameRate: true, avgFps: 29.5, fieldOrder: 'bb', pixelFormat: 'yuv422p' }) });
    expect(JSON.stringify(run('format_spec', phone, 'social_reels_ad'))).toBe(JSON.stringify(run('format_spec', phone, 'social_reels_ad')));
  });
});

describe('shorts_format', () => {
  const vertical = (over: Partial<VideoStreamInfo> = {}, media: Partial<MediaInfo> = {}) =>
    mediaInfo({ durationSeconds: 45, video: videoStream({ width: 1080, height: 1920, displayWidth: 1080, displayHeight: 1920, ...over }), ...media });

  it('passes 1080×1920 within 180 s', () => {
    const result = run('shorts_format', vertical(), 'video_site_shorts');
    expect(result.status).toBe('pass');
    expect(result.measurements).toMatchObject({ displaySize: '1080x1920', orientation: 'vertical', durationSeconds: 45, deliveryIsVertical: true });
  });

  it('blocks landscape, unreachable by re-encoding, with the padding command only as a last resort', () => {
    const result = run('shorts_format', mediaInfo({ durationSeconds: 45 }), 'video_site_shorts');
    expect(result.status).toBe('block');
    expect(result.flags).toHaveLength(1);
    expect(result.flags[0].repair.reachable).toBe(false);
    expect(result.flags[0].repair.instruction).toContain('force_original_aspect_ratio=decrease,pad=1080:1920');
    expect(result.flags[0].repair.instruction).toContain('adds bars');
  });

  it('blocks a 200 s vertical video and flags the span past 180 s', () => {
    const result = run('shorts_format', vertical({}, { durationSeconds: 200 }), 'video_site_shorts');
    expect(result.status).toBe('block');
    expect(result.flags).toHaveLength(1);
    expect(result.flags[0]).toMatchObject({ start: 180, end: 200, evidence: { measured: 200, threshold: { maxDurationSeconds: 180 }, overBySeconds: 20 } });
    expect(result.flags[0].repair.instruction).toContain('-t 180');
  });

  it('watches 720×1280 (below the recommended 1080 wide) and blocks below 720', () => {
    const hd = run('shorts_format', vertical({ width: 720, height: 1280, displayWidth: 720, displayHeight: 1280 }), 'video_site_shorts');
    expect(hd.status).toBe('watch');
    expect(hd.flags[0]).toMatchObject({ severity: 'WATCH', evidence: { measured: 720, threshold: { recommendedWidthPx: 1080 } } });
    expect(hd.flags[0].repair.reachable).toBe(false);
    const sd = run('shorts_format', vertical({ width: 480, height: 854, displayWidth: 480, displayHeight: 854 }), 'video_site_shorts');
    expect(sd.flags[0]).toMatchObject({ severity: 'BLOCK', evidence: { threshold: { minWidthPx: 720 } } });
  });

  it('passes rotated 1920×1080 phone video whose display is 1080×1920', () => {
    const rotated = mediaInfo({ durationSeconds: 30, video: videoStream({ width: 1920, height: 1080, displayWidth: 1080, displayHeight: 1920, rotation: 90 }) });
    const result = run('shorts_format', rotated, 'video_site_shorts');
    expect(result.status).toBe('pass');
    expect(result.measurements).toMatchObject({ codedSize: '1920x1080', displaySize: '1080x1920', rotation: 90 });
  });

  it('accepts square as a Short but watches that it is not 9:16', () => {
    const result = run('shorts_format', vertical({ width: 1080, height: 1080, displayWidth: 1080, displayHeight: 1080 }), 'video_site_shorts');
    expect(result.status).toBe('watch');
    expect(result.flags.map((f) => f.summary)).toEqual([expect.stringContaining('qualifies (square or taller)')]);
  });

  it('applies the same rules when asked for under a non-vertical delivery profile', () => {
    const result = run('shorts_format', mediaInfo({ durationSeconds: 45 }), 'video_site_longform');
    expect(result.status).toBe('block');
    expect(result.measurements.deliveryIsVertical).toBe(false);
  });
});
