// MediaInfo builders for gate tests: a clean 60 s 1080p30 H.264/AAC file, changed field by field.
import type { AudioStreamInfo, CanvasSignals, MediaInfo, VideoSignals, VideoStreamInfo } from '../../engine/types.js';
import { frameSeriesOf } from '../../engine/video/frame-series.js';

export function videoStream(over: Partial<VideoStreamInfo> = {}): VideoStreamInfo {
  return {
    index: 0,
    codec: 'h264',
    profile: 'High',
    width: 1920,
    height: 1080,
    displayWidth: 1920,
    displayHeight: 1080,
    sampleAspectRatio: '1:1',
    displayAspectRatio: '16:9',
    rotation: 0,
    pixelFormat: 'yuv420p',
    bitDepth: 8,
    colorRange: 'tv',
    colorSpace: 'bt709',
    colorTransfer: 'bt709',
    colorPrimaries: 'bt709',
    hdr: false,
    fieldOrder: 'progressive',
    fps: 30,
    avgFps: 30,
    variableFrameRate: false,
    startSeconds: 0,
    durationSeconds: 60,
    frameCount: 1800,
    attachedPicture: false,
    ...over,
  };
}

export function audioStream(over: Partial<AudioStreamInfo> = {}): AudioStreamInfo {
  return {
    index: 1,
    codec: 'aac',
    sampleRate: 48000,
    channels: 2,
    channelLayout: 'stereo',
    channelNames: ['FL', 'FR'],
    sampleFormat: 'fltp',
    bitRate: 192000,
    startSeconds: 0,
    durationSeconds: 60,
    ...over,
  };
}

export function mediaInfo(over: Partial<MediaInfo> = {}): MediaInfo {
  return {
    path: '/media/clip.mp4',
    kind: 'video',
    container: 'mov,mp4,m4a,3gp,3g2,mj2',
    formatLongName: 'QuickTime / MOV',
    sizeBytes: 50_000_000,
    durationSeconds: 60,
    bitRate: 6_000_000,
    startSeconds: 0,
    video: videoStream(),
    audio: audioStream(),
    videoStreamCount: 1,
    audioStreamCount: 1,
    subtitleStreamCount: 0,
    otherStreams: [],
    ...over,
  };
}

/** A video-only file of the given display size and duration. */
export function videoOnly(width: number, height: number, durationSeconds: number, fps = 30): MediaInfo {
  return mediaInfo({
    durationSeconds,
    video: videoStream({
      width,
      height,
      displayWidth: width,
      displayHeight: height,
      displayAspectRatio: width > height ? '16:9' : '9:16',
      fps,
      avgFps: fps,
      durationSeconds,
      frameCount: durationSeconds * fps,
    }),
    audio: null,
    audioStreamCount: 0,
  });
}

/** Canvas signals of a picture with no padding at all. */
export function emptyCanvas(): CanvasSignals {
  return {
    framesConsidered: 0,
    barTopFraction: 0,
    barBottomFraction: 0,
    barLeftFraction: 0,
    barRightFraction: 0,
    blurLeftFraction: 0,
    blurRightFraction: 0,
    blurTopFraction: 0,
    blurBottomFraction: 0,
    barFramesShare: 0,
    blurFramesShare: 0,
  };
}

/** 25 fps video signals with an empty canvas, changed field by field. */
export function videoSignals(over: Partial<VideoSignals> = {}): VideoSignals {
  return { fps: 25, startSeconds: 0, frameCount: 0, width: 192, height: 108, frames: frameSeriesOf([]), repeats: [], stills: [], canvas: emptyCanvas(), legalLevels: null, ...over };
}
