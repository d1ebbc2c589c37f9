// The single decode pass: ONE ffmpeg process decodes the media once and streams every signal the selected gates
// need through extra pipes (downscaled luma frames, float PCM, sparse full-picture samples); all measuring happens here
// in JS as the bytes arrive, so memory stays flat and no gate ever decodes the file again.
import type { StdioOptions } from 'node:child_process';
import { closeSync } from 'node:fs';
import { Socket, type SocketConstructorOpts } from 'node:net';
import type { Readable } from 'node:stream';
import { createAudioAnalysis, meterThreadsFor, wantsPipeReader, type AudioAnalysis } from './audio/audio-analysis.js';
import { openPipePairs } from './ffmpeg/pipe-pair.js';
import { EngineError } from './errors.js';
import { ffmpegPath } from './ffmpeg/binaries.js';
import { spawnTool, type SpawnedTool } from './ffmpeg/run.js';
import type { AudioSignals, MediaInfo, SignalNeed, Signals, VideoSignals } from './types.js';
import { VideoFrameAccumulator } from './video/frame-stats.js';
import { OCR_STREAM_FPS, ocrPictureSize, TextSampler } from './ocr/sampler.js';
import { LegalLevelsAccumulator, legalLevelsMatrix, legalLevelsPixelFormat } from './video/legal-levels.js';

/** Long side of the luma analysis picture, px. */
export const ANALYSIS_LONG_SIDE = 192;
/** Analysis frame rate cap: higher rates are analysed at 60 fps. */
const MAX_ANALYSIS_FPS = 60;
/** One full-picture sample for R103 legal levels every this many seconds (at least), and at most this many samples. */
export const LEGAL_LEVEL_INTERVAL_SECONDS = 2;
const LEGAL_LEVEL_MAX_SAMPLES = 60;
/** Sparse R103 samples are taken at most this wide (the R103 measurement filter is a low-pass anyway). */
const LEGAL_LEVEL_MAX_WIDTH = 1920;
/** OCR calls queued before the pipe feeding them is paused (each holds one RGB frame). */
const MAX_OCR_BACKLOG = 3;
/**
 * Every pipe is written in whole I/O buffers instead of a write per packet: the same bytes in about half the reads
 * (a pipe read costs the reader an allocation and a callback, and an 8 KB audio packet was one read).
 */
const PIPE_OUTPUT = ['-flush_packets', '0'];
/** How often the progress of PCM read by a thread is looked at, ms. */
const AUDIO_PROGRESS_MS = 250;
/** A pass with no output for this long is stuck. */
const STALL_MS = 60_000;

export interface AnalyseOptions {
  needs: ReadonlySet<SignalNeed>;
  signal?: AbortSignal;
  /** Called with 0..1 as media time is consumed. */
  onProgress?: (fraction: number) => void;
}

/** A rational ffmpeg can take exactly for the common NTSC rates, else the rate rounded to 3 decimals. */
export function fpsExpression(fps: number): string {
  for (const base of [24, 30, 48, 60]) {
    if (Math.abs(fps - (base * 1000) / 1001) < 0.005) return `${base * 1000}/1001`;
  }
  return String(Math.round(fps * 1000) / 1000);
}

export function analysisFps(media: MediaInfo): number {
  const v = media.video;
  if (!v) return 0;
  const nominal = v.variableFrameRate || !(v.fps > 0) || v.fps > 240 ? v.avgFps : v.fps;
  const fps = nominal > 0 && Number.isFinite(nominal) ? nominal : 25;
  return Math.min(fps, MAX_ANALYSIS_FPS);
}

export function analysisSize(media: MediaInfo): { width: number; height: number } {
  const v = media.video;
  if (!v) return { width: 0, height: 0 };
  const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);
  const dw = v.displayWidth || v.width;
  const dh = v.displayHeight || v.height;
  return dw >= dh
    ? { width: ANALYSIS_LONG_SIDE, height: even((ANALYSIS_LONG_SIDE * dh) / dw) }
    : { width: even((ANALYSIS_LONG_SIDE * dw) / dh), height: ANALYSIS_LONG_SIDE };
}

interface Plan {
  args: string[];
  video: { fd: number; width: number; height: number; fps: number } | null;
  legal: { fd: number; width: number; height: number; interval: number } | null;
  audio: { fd: number; channels: number; sampleRate: number } | null;
  text: { fd: number; width: number; height: number; fps: number } | null;
}

function legalSampleSize(media: MediaInfo): { width: number; height: number } {
  const v = media.video!;
  const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);
  const dw = v.displayWidth || v.width;
  const dh = v.displayHeight || v.height;
  const scale = Math.min(1, LEGAL_LEVEL_MAX_WIDTH / dw);
  return { width: even(dw * scale), height: even(dh * scale) };
}

function plan(media: MediaInfo, needs: ReadonlySet<SignalNeed>): Plan {
  const graphs: string[] = [];
  const maps: string[] = [];
  let fd = 3;
  let video: Plan['video'] = null;
  let legal: Plan['legal'] = null;
  let audio: Plan['audio'] = null;
  let text: Plan['text'] = null;
  const v = media.video;
  const wantLuma = needs.has('video') || needs.has('legal_levels');
  const wantText = needs.has('text') && (media.kind === 'video' || media.kind === 'image');
  if (v && (wantLuma || wantText)) {
    const wantLegal = needs.has('legal_levels') && media.kind === 'video';
    const src = `[0:${v.index}]`;
    const outputs = [wantLuma && 'vq0', wantLegal && 'vl0', wantText && 'vo0'].filter((o): o is string => Boolean(o));
    if (outputs.length > 1) graphs.push(`${src}split=${outputs.length}${outputs.map((o) => `[${o}]`).join('')}`);
    const input = (name: string) => (outputs.length > 1 ? `[${name}]` : src);
    if (wantLuma) {
      const { width, height } = analysisSize(media);
      const fps = media.kind === 'video' ? analysisFps(media) : 0;
      const rate = media.kind === 'video' ? `fps=${fpsExpression(fps)},` : '';
      graphs.push(`${input('vq0')}${rate}scale=${width}:${height}:flags=area,format=gray[vq]`);
      maps.push('-map', '[vq]', ...PIPE_OUTPUT, '-f', 'rawvideo', `pipe:${fd}`);
      video = { fd: fd++, width, height, fps };
    }
    if (wantLegal) {
      const size = legalSampleSize(media);
      const interval = Math.max(LEGAL_LEVEL_INTERVAL_SECONDS, Math.ceil(media.durationSeconds / LEGAL_LEVEL_MAX_SAMPLES));
      const pick = `select='isnan(prev_selected_t)+gte(t-prev_selected_t\\,${interval})'`;
      // Y'CbCr code values are kept (no RGB conversion, which would clip the excursions R103 looks for).
      graphs.push(`[vl0]${pick},scale=${size.width}:${size.height}:flags=area,format=${legalLevelsPixelFormat(v.colorRange)}[vl]`);
      maps.push('-map', '[vl]', '-vsync', 'passthrough', ...PIPE_OUTPUT, '-f', 'rawvideo', `pipe:${fd}`);
      legal = { fd: fd++, ...size, interval };
    }
    if (wantText) {
      const still = media.kind === 'image';
      const size = ocrPictureSize(v.displayWidth || v.width, v.displayHeight || v.height, still);
      // round=up: stream frame i is the source frame showing at i / fps (the default takes the last one within a
      // quarter second after it, which dated every reading late).
      const rate = still ? '' : `fps=${OCR_STREAM_FPS}:round=up,`;
      graphs.push(`${input('vo0')}${rate}scale=${size.width}:${size.height}:flags=area,format=rgb24[vo]`);
      maps.push('-map', '[vo]', ...PIPE_OUTPUT, '-f', 'rawvideo', `pipe:${fd}`);
      text = { fd: fd++, ...size, fps: still ? 0 : OCR_STREAM_FPS };
    }
  }
  const a = media.audio;
  if (a && needs.has('audio')) {
    maps.push('-map', `0:${a.index}`, '-vn', '-sn', '-dn', '-c:a', 'pcm_f32le', ...PIPE_OUTPUT, '-f', 'f32le', `pipe:${fd}`);
    audio = { fd, channels: a.channels, sampleRate: a.sampleRate };
  }
  const args = ['-hide_banner', '-nostdin', '-v', 'error', '-i', media.path];
  if (graphs.length) args.push('-filter_complex', graphs.join(';'));
  args.push(...maps);
  return { args, video, legal, audio, text };
}

/** The decode pass's ffmpeg arguments for `needs`: its outputs are pipes 3, 4, ... in the order the pass reads them. */
export function decodePassArgs(media: MediaInfo, needs: ReadonlySet<SignalNeed>): string[] {
  return plan(media, needs).args;
}

/**
 * Cuts a byte stream into fixed-size records that consumers may keep: each record is filled in place as its chunks
 * arrive (every byte copied once; joining the chunks instead copied a 1.5 MB OCR frame a dozen times over).
 */
function keptRecords(size: number, onRecord: (record: Uint8Array) => void): (chunk: Uint8Array) => void {
  let record = new Uint8Array(size);
  let filled = 0;
  return (chunk) => {
    let offset = 0;
    while (offset < chunk.length) {
      const take = Math.min(size - filled, chunk.length - offset);
      record.set(chunk.subarray(offset, offset + take), filled);
      filled += take;
      offset += take;
      if (filled === size) {
        onRecord(record);
        record = new Uint8Array(size);
        filled = 0;
      }
    }
  };
}

/**
 * Cuts a byte stream into fixed-size records handed over as views that are only valid during the call (a view of the
 * chunk, or of one reused buffer where a record straddles two chunks): nothing is allocated per record.
 */
function transientRecords(size: number, onRecord: (record: Uint8Array) => void): (chunk: Uint8Array) => void {
  const straddling = new Uint8Array(size);
  let filled = 0;
  return (chunk) => {
    let offset = 0;
    if (filled > 0) {
      const take = Math.min(size - filled, chunk.length);
      straddling.set(chunk.subarray(0, take), filled);
      filled += take;
      offset = take;
      if (filled < size) return;
      filled = 0;
      onRecord(straddling);
    }
    while (chunk.length - offset >= size) {
      onRecord(chunk.subarray(offset, offset + size));
      offset += size;
    }
    if (offset < chunk.length) {
      straddling.set(chunk.subarray(offset), 0);
      filled = chunk.length - offset;
    }
  };
}

/** Bytes read from a pipe at once: a Linux pipe holds 64 KiB. */
const PIPE_READ_BYTES = 64 * 1024;

/** A pipe of our own being read: its socket, and `ended`, which settles when the pipe has ended (or failed: the decoder's exit tells what went wrong). */
interface OwnPipeReading {
  stream: Socket;
  ended: Promise<void>;
}

/** Reads a pipe's read end to its end, each read into the buffer `next` gives, then handed to `onRead` (bytes read). */
function readOwnPipe(fd: number, next: () => Uint8Array, onRead: (bytes: number, buffer: Uint8Array) => void): OwnPipeReading {
  // Node's socket takes `onread` as connect() does, though its constructor's types leave it out; a function for the
  // buffer is asked for the next buffer after every read.
  const options: SocketConstructorOpts & { onread: { buffer: () => Uint8Array; callback: (bytes: number, buffer: Uint8Array) => boolean } } = {
    fd,
    readable: true,
    writable: false,
    onread: {
      buffer: next,
      callback: (bytes, buffer) => {
        onRead(bytes, buffer);
        return true;
      },
    },
  };
  const socket = new Socket(options);
  // A failed read ends the socket like its end does; what went wrong is the decoder's exit to tell.
  socket.on('error', () => {});
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { stream: socket, ended };
}

/** Every read into the same buffer, which `onChunk` must be done with when it returns. */
function readIntoOneBuffer(fd: number, onChunk: (chunk: Uint8Array) => void): OwnPipeReading {
  const buffer = Buffer.allocUnsafe(PIPE_READ_BYTES);
  return readOwnPipe(fd, () => buffer, (bytes) => onChunk(buffer.subarray(0, bytes)));
}

/** Fixed-size records that consumers may keep, each read straight into its place (no copy from a read buffer). */
function readKeptRecords(fd: number, size: number, onRecord: (record: Uint8Array) => void): OwnPipeReading {
  let record = new Uint8Array(size);
  let filled = 0;
  return readOwnPipe(
    fd,
    () => record.subarray(filled),
    (bytes) => {
      filled += bytes;
      if (filled < size) return;
      onRecord(record);
      record = new Uint8Array(size);
      filled = 0;
    },
  );
}

/** Cuts float PCM into whole interleaved frames as it arrives (a view when aligned, so nothing is copied). */
function pcmReader(stream: Readable, channels: number, onFrames: (interleaved: Float32Array) => void): void {
  const frameBytes = channels * 4;
  let pending: Buffer | null = null;
  stream.on('data', (chunk: Buffer) => {
    const buf = pending ? Buffer.concat([pending, chunk]) : chunk;
    const frames = Math.floor(buf.length / frameBytes);
    const usable = frames * frameBytes;
    pending = usable < buf.length ? Buffer.from(buf.subarray(usable)) : null;
    if (frames === 0) return;
    const aligned = buf.byteOffset % 4 === 0 ? buf : Buffer.from(buf.subarray(0, usable));
    onFrames(new Float32Array(aligned.buffer, aligned.byteOffset, frames * channels));
  });
}

const lastLine = (text: string): string => text.trim().split('\n').slice(-1)[0] ?? '';

function timeoutFor(media: MediaInfo): number {
  return 120_000 + Math.ceil(media.durationSeconds) * 2_000;
}

/** Runs the decode pass and returns the signals the needs ask for (video and/or audio). */
export async function analyse(media: MediaInfo, opts: AnalyseOptions): Promise<Signals> {
  const started = performance.now();
  const p = plan(media, opts.needs);
  if (!p.video && !p.audio && !p.text) return { video: null, audio: null, analysisMs: 0 };

  const maxFd = Math.max(p.video?.fd ?? 0, p.legal?.fd ?? 0, p.audio?.fd ?? 0, p.text?.fd ?? 0);
  const extraPipes: ('pipe' | number)[] = Array.from({ length: maxFd - 2 }, () => 'pipe' as const);
  // Long audio goes to the meter threads through a pipe a thread of theirs reads (the PCM is most of the bytes). The
  // picture outputs come through pipes of our own too, read into one buffer: a child's stdio pipe hands over a fresh
  // chunk per read, 2.5 times the CPU on the thread that measures the frames.
  const audioThreadReads = p.audio !== null && wantsPipeReader(media.durationSeconds);
  const pictureFds = [p.video?.fd, p.legal?.fd, p.text?.fd].filter((fd): fd is number => fd !== undefined);
  const ownFds = audioThreadReads ? [...pictureFds, p.audio!.fd] : pictureFds;
  const pairs = ownFds.length ? await openPipePairs(ownFds.length) : null;
  const own = new Map(pairs ? ownFds.map((fd, i) => [fd, pairs[i]]) : []);
  for (const [fd, pair] of own) extraPipes[fd - 3] = pair.writeFd;
  const audioPipe = p.audio ? (own.get(p.audio.fd) ?? null) : null;
  const stdio: StdioOptions = ['ignore', 'ignore', 'pipe', ...extraPipes];

  let decoder: SpawnedTool;
  try {
    // Streams are consumed as they arrive; buffering them would hold the whole decoded media in memory.
    decoder = spawnTool(ffmpegPath(), p.args, { stdio, timeoutMs: timeoutFor(media), signal: opts.signal });
  } catch (err) {
    for (const pair of own.values()) closeSync(pair.readFd);
    throw err;
  } finally {
    // The decoder holds the write ends now; a reader sees its pipe end when the decoder exits.
    for (const pair of own.values()) closeSync(pair.writeFd);
  }
  const subprocess = decoder.child;
  const pipes = subprocess.stdio as Readable[];
  let stderr = '';
  pipes[2].on('data', (chunk: Buffer) => {
    if (stderr.length < 64 * 1024) stderr += chunk.toString('utf8');
  });

  let textSampler: TextSampler | null = null;
  let lastData = Date.now();
  let stalled = false;
  const watchdog = setInterval(() => {
    // A pipe paused while OCR or the audio meters catch up is not a stuck decode (every OCR call has its own timeout).
    if ((textSampler?.backlog ?? 0) > 0 || audioAnalysis?.behind) lastData = Date.now();
    if (Date.now() - lastData > STALL_MS) {
      stalled = true;
      subprocess.kill('SIGKILL');
    }
  }, 5_000);
  const expectedSeconds = Math.max(media.durationSeconds, 0.001);
  let progressAt = 0;
  const progress = (seconds: number) => {
    lastData = Date.now();
    const fraction = Math.min(1, seconds / expectedSeconds);
    if (opts.onProgress && fraction - progressAt >= 0.01) {
      progressAt = fraction;
      opts.onProgress(fraction);
    }
  };

  // A picture output comes through a pipe of our own where there is one, read into one buffer (or, for records that are
  // kept, into each record's place); else the child's.
  const outputsRead: Promise<void>[] = [];
  const ownPipe = (reading: OwnPipeReading): Readable => {
    outputsRead.push(reading.ended);
    return reading.stream;
  };
  const readOutput = (fd: number, onChunk: (chunk: Uint8Array) => void): Readable => {
    const pair = own.get(fd);
    return pair ? ownPipe(readIntoOneBuffer(pair.readFd, onChunk)) : pipes[fd].on('data', onChunk);
  };
  const readKept = (fd: number, size: number, onRecord: (record: Uint8Array) => void): Readable => {
    const pair = own.get(fd);
    return pair ? ownPipe(readKeptRecords(pair.readFd, size, onRecord)) : pipes[fd].on('data', keptRecords(size, onRecord));
  };
  let videoAcc: VideoFrameAccumulator | null = null;
  if (p.video) {
    const { fd, width, height, fps } = p.video;
    const acc = new VideoFrameAccumulator(width, height, fps, media.durationSeconds, media.video?.startSeconds ?? 0);
    videoAcc = acc;
    readOutput(
      fd,
      transientRecords(width * height, (frame) => {
        acc.push(frame);
        if (fps > 0) progress(acc.frameCount / fps);
      }),
    );
  }
  let legalAcc: LegalLevelsAccumulator | null = null;
  if (p.legal) {
    const { fd, width, height, interval } = p.legal;
    const v = media.video!;
    const acc = new LegalLevelsAccumulator({
      allowancePct: 1,
      matrix: legalLevelsMatrix(v.colorSpace, v.height),
      fullRange: v.colorRange === 'pc',
      interlaced: Boolean(v.fieldOrder && v.fieldOrder !== 'progressive' && v.fieldOrder !== 'unknown'),
    });
    legalAcc = acc;
    let n = 0;
    readKept(fd, width * height * 3, (frame) => {
      acc.push(frame, width, height, v.startSeconds + n++ * interval);
    });
  }
  let audioAnalysis: AudioAnalysis | null = null;
  let audioProgress: NodeJS.Timeout | null = null;
  if (p.audio && media.audio) {
    const { fd, channels, sampleRate } = p.audio;
    const meterThreads = meterThreadsFor(p.video !== null || p.text !== null);
    const analysis = createAudioAnalysis({ sampleRate, channels, channelNames: media.audio.channelNames }, media.durationSeconds, audioPipe?.readFd ?? null, meterThreads);
    audioAnalysis = analysis;
    const audioRead = () => {
      if (p.video) lastData = Date.now();
      else progress(analysis.frames / sampleRate);
    };
    if (audioPipe) {
      let seen = 0;
      audioProgress = setInterval(() => {
        if (analysis.frames === seen) return;
        seen = analysis.frames;
        audioRead();
      }, AUDIO_PROGRESS_MS);
    } else {
      const stream = pipes[fd];
      pcmReader(stream, channels, (interleaved) => {
        analysis.push(interleaved);
        audioRead();
        if (analysis.behind && !stream.isPaused()) {
          stream.pause();
          void analysis.whenCaughtUp().then(() => stream.resume());
        }
      });
    }
  }

  if (p.text) {
    const { fd, width, height, fps } = p.text;
    const sampler = new TextSampler({ width, height, fps, durationSeconds: media.durationSeconds, startSeconds: media.video?.startSeconds ?? 0 });
    textSampler = sampler;
    let frames = 0;
    const stream: Readable = readKept(fd, width * height * 3, (frame) => {
      sampler.push(frame);
      frames++;
      if (!p.video && fps > 0) progress(frames / fps);
      if (sampler.backlog >= MAX_OCR_BACKLOG && !stream.isPaused()) {
        stream.pause();
        void sampler.whenBacklogAtMost(1).then(() => stream.resume());
      }
    });
  }

  const result = await decoder.exit;
  // The decoder's exit does not wait for a pipe of our own: what it wrote last may still be there to read.
  await Promise.all(outputsRead);
  clearInterval(watchdog);
  if (audioProgress) clearInterval(audioProgress);
  try {
    if (textSampler && (stalled || result.timedOut || result.isCanceled)) await textSampler.abort();
    if (stalled) throw new EngineError('timeout', `ffmpeg produced no output for ${STALL_MS / 1000} s while decoding ${media.path}; the file may be damaged.`);
    if (result.timedOut) throw new EngineError('timeout', `Decoding ${media.path} took longer than ${Math.round(timeoutFor(media) / 1000)} s and was stopped.`);
    if (result.isCanceled) throw new EngineError('cancelled', 'The check was cancelled.');
    const frames = videoAcc?.frameCount ?? 0;
    const text = textSampler ? await textSampler.finish() : null;
    const measured = audioAnalysis ? await audioAnalysis.finish() : null;
    const samples = measured?.stats.frames ?? 0;
    if (result.exitCode !== 0 && frames === 0 && samples === 0 && !text?.samples) {
      const why = lastLine(stderr) || result.spawnError?.message;
      throw new EngineError('unsupported_media', `ffmpeg could not decode ${media.path}${why ? `: ${why}` : ''}.`);
    }

    let video: VideoSignals | null = null;
    if (p.video && videoAcc) {
      const done = videoAcc.finish();
      video = {
        fps: p.video.fps,
        startSeconds: media.video?.startSeconds ?? 0,
        frameCount: done.frames.length,
        width: p.video.width,
        height: p.video.height,
        frames: done.frames,
        repeats: done.repeats,
        stills: done.stills,
        canvas: done.canvas,
        legalLevels: legalAcc && p.legal ? { ...legalAcc.finish(), intervalSeconds: p.legal.interval } : null,
      };
    }
    let audio: AudioSignals | null = null;
    if (p.audio && media.audio && measured) {
      audio = {
        sampleRate: p.audio.sampleRate,
        channels: p.audio.channels,
        channelNames: media.audio.channelNames,
        startSeconds: media.audio.startSeconds,
        durationSeconds: samples / p.audio.sampleRate,
        loudness: measured.loudness,
        stats: measured.stats,
      };
    }
    const decodeWarning = result.exitCode !== 0 ? lastLine(stderr) || `ffmpeg exit ${result.exitCode}` : null;
    return { video, audio, ...(text ? { text } : {}), analysisMs: Math.round(performance.now() - started), ...(decodeWarning ? { decodeWarning } : {}) };
  } catch (err) {
    // The meter threads would otherwise keep the process alive.
    await audioAnalysis?.abort();
    throw err;
  }
}
