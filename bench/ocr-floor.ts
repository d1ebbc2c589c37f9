// What the OCR models alone cost, against the default profile's targets: the checks' own inference worker (the same
// child process, runtime, threads and session options) reads a picture of a bench file at the OCR size, and its
// process is measured from /proc (CPU, and the kernel's own peak RSS). A whole-picture reading is at least one
// detection, and the sampler reads one a second (ocrSampleInterval): on a file whose picture keeps changing (a test
// pattern, a slideshow), no cheaper way to the same flags exists, so these figures are the floor of such a check.
import { execa } from 'execa';
import { ffmpegPath } from '../engine/ffmpeg/binaries.js';
import { modelFiles, ocrRuntime } from '../engine/ocr/paddle/models.js';
import { InferenceWorker } from '../engine/ocr/paddle/worker.js';
import { OCR_LONG_SIDE, ocrPictureSize, ocrSampleInterval } from '../engine/ocr/sampler.js';
import { children, cpuSeconds, memoryKb, roleOf } from './tree-rss.js';

const READS = 8;
/** A recognition input as the checks make it: one line 48 px high, 320 columns (a short caption). */
const LINE = { height: 48, columns: 320 };
const TARGET_WITH_OCR = 1.3;
const TARGET_RSS_MB = 300;

/** This process's OCR workers (node running the inference worker's code). */
const ocrWorkers = (): number[] => children(process.pid).filter((pid) => roleOf(pid) === 'OCR worker');

async function frameAt(path: string, width: number, height: number): Promise<Uint8Array> {
  const size = ocrPictureSize(width, height, false);
  const { stdout } = await execa(ffmpegPath(), ['-v', 'error', '-ss', '5', '-i', path, '-frames:v', '1', '-vf', `scale=${size.width}:${size.height}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
    encoding: 'buffer',
    stdin: 'ignore',
  });
  if (stdout.length !== size.width * size.height * 3) throw new Error(`${path}: no picture 5 s in (the bench files last a minute or more)`);
  return new Uint8Array(stdout);
}

/**
 * Prints the OCR floor for `media` (a bench file, `width`×`height`, whose bare decode of `minutes` took `decodeSeconds`):
 * seconds per detection and per line, the detections a minute of samples needs, and the worker's peak memory.
 */
export async function ocrFloorBench(media: { path: string; label: string; width: number; height: number; minutes: number; decodeSeconds: number }): Promise<void> {
  const before = new Set(ocrWorkers());
  const worker = new InferenceWorker(modelFiles(), ocrRuntime());
  try {
    await worker.ready;
    const pid = ocrWorkers().find((p) => !before.has(p));
    if (pid === undefined) throw new Error('the OCR worker process was not found');
    const size = ocrPictureSize(media.width, media.height, false);
    const picture = { rgb: await frameAt(media.path, media.width, media.height), ...size };
    const line = { data: new Float32Array(3 * LINE.height * LINE.columns).fill(0.5), dims: [1, 3, LINE.height, LINE.columns] };
    await worker.detect(picture);
    await worker.run('recognition', line);
    const time = async (call: () => Promise<unknown>) => {
      const [cpu, t] = [cpuSeconds(pid), performance.now()];
      for (let i = 0; i < READS; i++) await call();
      return { wall: (performance.now() - t) / 1000 / READS, cpu: (cpuSeconds(pid) - cpu) / READS };
    };
    const detection = await time(() => worker.detect(picture));
    const recognition = await time(() => worker.run('recognition', line));
    const seconds = media.minutes * 60;
    const samples = Math.floor(seconds / ocrSampleInterval(seconds));
    // The OCR calls run one at a time: however well the decode overlaps them, the check lasts at least this long.
    const floor = (samples * detection.wall) / media.decodeSeconds;
    const ms = (s: number) => (s * 1000).toFixed(0);
    console.log(
      `OCR floor, ${media.label}: one detection of the ${size.width}×${size.height} picture (long side ${OCR_LONG_SIDE}) ${ms(detection.wall)} ms (${ms(detection.cpu)} ms CPU), ` +
        `one ${LINE.columns}-column line ${ms(recognition.wall)} ms (${ms(recognition.cpu)} ms CPU), on ${ocrRuntime().package}; ${samples} fixed-rate samples of whole pictures ` +
        `take ${(samples * detection.wall).toFixed(1)} s of detection alone against a ${media.decodeSeconds.toFixed(2)} s decode: ≥ ${floor.toFixed(2)}× of it before any line is read ` +
        `(target ≤ ${TARGET_WITH_OCR}×); the OCR worker alone peaks at ${(memoryKb(pid, 'VmHWM') / 1024).toFixed(0)} MB RSS (the whole tree's target ≤ ${TARGET_RSS_MB} MB)`,
    );
  } finally {
    await worker.terminate();
  }
}
