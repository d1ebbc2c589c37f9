// The OCR engine itself: offline model, bounded calls, a timed-out worker replaced rather than reused.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ffmpegPath } from '../engine/ffmpeg/binaries.js';
import { localContrastPicture } from '../engine/ocr/prepare.js';
import { TextSampler } from '../engine/ocr/sampler.js';
import { OcrEngine, ocrEngineName, ocrWorkersIdle, ocrWorkersStarted, type OcrPicture } from '../engine/ocr/engine.js';
import { detectedBoxes, detectionInput } from '../engine/ocr/paddle/detect.js';
import { modelFiles, nativeRuntime, ocrRuntime } from '../engine/ocr/paddle/models.js';
import { recognitionInput } from '../engine/ocr/paddle/recognise.js';
import { InferenceWorker } from '../engine/ocr/paddle/worker.js';
import { textLines } from '../engine/ocr/words.js';
import { textVideo } from './helpers/text-media.js';

/** One frame of `file` at 1 s, scaled, as raw pixels. */
async function rawFrame(file: string, width: number, height: number, pixelFormat: 'gray' | 'rgb24'): Promise<Uint8Array> {
  const { stdout } = await execa(ffmpegPath(), ['-v', 'error', '-ss', '1', '-i', file, '-frames:v', '1', '-vf', `scale=${width}:${height}:flags=area`, '-pix_fmt', pixelFormat, '-f', 'rawvideo', 'pipe:1'], {
    encoding: 'buffer',
  });
  return new Uint8Array(stdout);
}

async function frameOf(file: string, width: number, height: number): Promise<OcrPicture> {
  return localContrastPicture({ gray: await rawFrame(file, width, height, 'gray'), width, height });
}

/** A two-second caption, and its picture as the OCR reads it. */
const captionVideo = () => textVideo('ocr-engine-caption', 'color=c=0x1e2a38:s=1280x720:r=25', 2, [{ text: 'Welcome to the show', size: 44, color: 'white', x: '(w-tw)/2', y: 'h-150' }]);
const captionPicture = async () => frameOf(await captionVideo(), 960, 540);

describe('OcrEngine', () => {
  it('names the offline model it reads', () => {
    expect(ocrEngineName()).toMatch(/^PaddleOCR PP-OCRv4 \(ch det \+ rec\) from @gutenye\/ocr-models 1\.\d+\.\d+ on onnxruntime-(node|web) 1\.\d+\.\d+$/);
  });

  it('answers a picture it has read before from its memo: the same lines, no second inference', async () => {
    const picture = await captionPicture();
    const engine = new OcrEngine();
    try {
      const first = await engine.recognise(picture);
      expect(engine.memoHits).toEqual({ pictures: 0, lines: 0 });
      const again = await engine.recognise({ ...picture, gray: picture.gray.slice() });
      // The detection (its line boxes) and the one line found.
      expect(engine.memoHits).toEqual({ pictures: 1, lines: 1 });
      expect(again).toEqual(first);
      // Another picture is detected afresh.
      const touched = picture.gray.slice();
      touched.fill(0, 0, picture.width * 40);
      await engine.recognise({ ...picture, gray: touched });
      expect(engine.memoHits.pictures).toBe(1);
    } finally {
      await engine.close();
    }
  });

  it('recognises only the boxes it is asked for and every box on their rows (a line split at a wide gap stays whole)', async () => {
    const lines = [
      { text: 'Opening night', size: 40, color: 'white', x: '120', y: '120' },
      { text: 'Second act', size: 40, color: 'white', x: '800', y: '120' },
      { text: 'Curtain call', size: 40, color: 'white', x: '120', y: '480' },
    ];
    const file = await textVideo('ocr-engine-wanted', 'color=c=0x2b2b2b:s=1280x720:r=25', 2, lines);
    const picture = { rgb: await rawFrame(file, 960, 540, 'rgb24'), width: 960, height: 540 };
    const engine = new OcrEngine();
    const texts = (read: Awaited<ReturnType<OcrEngine['recognise']>>) => (read ?? []).map((l) => l.words.map((w) => w.text.trim()).join(' ')).sort();
    try {
      expect(texts(await engine.recognise(picture))).toEqual(['Curtain call', 'Opening night', 'Second act']);
      // The left box of the top row only: its row neighbour is read with it, the bottom line is not read.
      const wanted = (b: { x1: number; y0: number }) => b.x1 < 480 && b.y0 < 270;
      expect(texts(await engine.recognise(picture, undefined, wanted))).toEqual(['Opening night', 'Second act']);
      // In a rectangle the boxes it is asked about are in picture coordinates too.
      const band = { left: 0, top: 40, width: 960, height: 400 };
      expect(texts(await engine.recognise(picture, band, (b) => b.y0 > 300))).toEqual(['Curtain call']);
    } finally {
      await engine.close();
    }
  });

  it('reads short lines as one batch exactly as it reads each alone (the engine batches lines of one width)', async () => {
    const lines = ['Opening night', 'Act two', 'Curtain call', 'Encore'].map((text, i) => ({ text, size: 40, color: 'white', x: '120', y: String(80 + i * 140) }));
    const file = await textVideo('ocr-engine-batch', 'color=c=0x2b2b2b:s=1280x720:r=25', 2, lines);
    const picture = { rgb: await rawFrame(file, 960, 540, 'rgb24'), width: 960, height: 540 };
    const worker = new InferenceWorker(modelFiles(), ocrRuntime());
    try {
      const map = await worker.run('detection', detectionInput(picture));
      const [mapHeight, mapWidth] = map.dims.slice(-2);
      const inputs = detectedBoxes(map.data, mapWidth, mapHeight, 960, 540).map((box) => recognitionInput(picture, box).tensor);
      expect(inputs.length).toBe(4);
      // All four pad to the recogniser's narrowest input: one width, one batch.
      expect(new Set(inputs.map((t) => t.dims[3])).size).toBe(1);
      const alone = [];
      for (const input of inputs) alone.push(await worker.run('recognition', input));
      const one = inputs[0].data.length;
      const data = new Float32Array(one * inputs.length);
      inputs.forEach((t, k) => data.set(t.data, k * one));
      const batch = await worker.run('recognition', { data, dims: [inputs.length, ...inputs[0].dims.slice(1)] });
      const per = alone[0].data.length;
      expect(batch.dims).toEqual([inputs.length, ...alone[0].dims.slice(1)]);
      alone.forEach((out, k) => expect(Buffer.from(batch.data.subarray(k * per, (k + 1) * per).slice().buffer).equals(Buffer.from(out.data.slice().buffer))).toBe(true));
    } finally {
      await worker.terminate();
    }
  });

  it('hands the worker of an ended check, models loaded, to the next check, and never a worker closed mid-call', async () => {
    const picture = await captionPicture();
    const first = new OcrEngine();
    const read = await first.recognise(picture);
    await first.close();
    const started = ocrWorkersStarted();
    const second = new OcrEngine();
    expect(await second.recognise(picture)).toEqual(read);
    expect(ocrWorkersStarted()).toBe(started);
    // Closed with a call still in its worker: that worker is ended, the next check starts its own.
    const pending = second.recognise({ ...picture, gray: picture.gray.map((v) => 255 - v) });
    await second.close();
    expect(await pending).toBeNull();
    // Another test file's worker may be waiting too (files share the process): the third check takes it, or starts one.
    const spare = ocrWorkersIdle();
    const third = new OcrEngine();
    try {
      expect(await third.recognise(picture)).toEqual(read);
      expect(ocrWorkersStarted()).toBe(spare > 0 ? started : started + 1);
    } finally {
      await third.close();
    }
  });

  it('has the models loading as soon as a sampler is made, before its first frame, and reads with that worker', async () => {
    const idle = ocrWorkersIdle();
    const started = ocrWorkersStarted();
    const sampler = new TextSampler({ width: 960, height: 540, fps: 2, durationSeconds: 1, startSeconds: 0 });
    try {
      // The worker of an ended check was taken, or a new one is loading.
      expect(ocrWorkersIdle() < idle || ocrWorkersStarted() === started + 1).toBe(true);
      const loading = ocrWorkersStarted();
      const picture = await captionPicture();
      const rgb = new Uint8Array(picture.width * picture.height * 3);
      picture.gray.forEach((v, i) => rgb.fill(v, i * 3, i * 3 + 3));
      sampler.push(rgb);
      sampler.push(rgb);
      const text = await sampler.finish();
      expect(text.tracks.map((t) => t.text)).toEqual(['Welcome to the show']);
      expect(ocrWorkersStarted()).toBe(loading);
    } finally {
      await sampler.abort();
    }
  });

  it('counts a call that outlives its timeout, drops its worker and reads with a fresh one', async () => {
    const picture = await captionPicture();
    const hurried = new OcrEngine(1);
    try {
      expect(await hurried.recognise(picture)).toBeNull();
      expect(hurried.timeouts).toBe(1);
    } finally {
      await hurried.close();
    }
    const patient = new OcrEngine();
    try {
      const lines = await patient.recognise(picture);
      expect(textLines(lines!, 540).map((l) => l.text)).toEqual(['Welcome to the show']);
      // A crop reads the same words, with boxes in the whole picture's coordinates.
      const [whole] = textLines(lines!, 540);
      const cropped = textLines((await patient.recognise(picture, { left: 200, top: 380, width: 560, height: 120 }))!, 540);
      expect(cropped.map((l) => l.text)).toEqual(['Welcome to the show']);
      expect(Math.abs(cropped[0].box.x0 - whole.box.x0)).toBeLessThanOrEqual(2);
      expect(Math.abs(cropped[0].box.y0 - whole.box.y0)).toBeLessThanOrEqual(2);
      expect(patient.timeouts).toBe(0);
    } finally {
      await patient.close();
    }
    expect(await patient.recognise(picture)).toBeNull();
  });

  it('closes under calls that are about to reach its worker without an unhandled rejection', async () => {
    const picture = await captionPicture();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const engine = new OcrEngine();
      expect(await engine.recognise(picture)).not.toBeNull();
      // The next calls wait on the started worker, then post to it a few microtasks later: the engine closes between.
      const calls = [engine.recognise(picture), engine.recognise(picture)];
      await Promise.resolve();
      await engine.close();
      const settled = await Promise.all(calls.map((c) => c.then((lines) => lines === null || Array.isArray(lines))));
      expect(settled).toEqual([true, true]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('ends a worker whose call timed out in the middle of inference, and the process goes on', async () => {
    const picture = await captionPicture();
    // A worker with its models loaded, so that the short timeout lands inside a model call, not in loading.
    const warm = new OcrEngine();
    await warm.recognise(picture);
    await warm.close();
    for (let round = 0; round < 3; round++) {
      const hurried = new OcrEngine(5);
      try {
        expect(await hurried.recognise({ ...picture, gray: picture.gray.map((v) => v ^ (round + 1)) })).toBeNull();
        expect(hurried.timeouts).toBe(1);
      } finally {
        await hurried.close();
      }
    }
    const patient = new OcrEngine();
    try {
      expect(textLines((await patient.recognise(picture))!, 540).map((l) => l.text)).toEqual(['Welcome to the show']);
    } finally {
      await patient.close();
    }
  });

  it('leaves no OCR process behind when the process that started it is killed', async () => {
    const script = `
      const { OcrEngine } = await import(${JSON.stringify(pathToFileURL(resolve(import.meta.dirname, '../dist/engine/ocr/engine.js')).href)});
      const engine = new OcrEngine();
      await engine.recognise({ gray: new Uint8Array(320 * 96).fill(200), width: 320, height: 96 });
      console.log('read');
      setInterval(() => {}, 1000);`;
    const parent = execa(process.execPath, ['--input-type=module', '-e', script], { reject: false });
    await new Promise<void>((done) => parent.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('read') && done()));
    const children = (await execa('pgrep', ['-P', String(parent.pid)], { reject: false })).stdout.split('\n').filter(Boolean).map(Number);
    expect(children.length).toBe(1);
    parent.kill('SIGKILL');
    await parent;
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let waited = 0; waited < 5000 && alive(children[0]); waited += 50) await new Promise((r) => setTimeout(r, 50));
    expect(alive(children[0])).toBe(false);
  });
});

const NATIVE = nativeRuntime() !== null;

describe.skipIf(!NATIVE)(`the two OCR runtimes${NATIVE ? '' : ' (skipped: onnxruntime-node did not install; ONNXRUNTIME_NODE_INSTALL=skip npm install)'}`, () => {
  const BIN = resolve(import.meta.dirname, '../bin/preflight.js');
  const check = (file: string, runtime: string) =>
    execa(process.execPath, [BIN, 'check', file, '--json', '--checks', 'text_safe_area,text_contrast'], { env: { PREFLIGHT_OCR_RUNTIME: runtime }, reject: false });

  it('read the same words, at the same places, natively and in WebAssembly', async () => {
    const file = await textVideo('ocr-runtimes', 'color=c=0x1e2a38:s=1280x720:r=25', 4, [
      { text: 'Welcome to the show', size: 44, color: 'white', x: '(w-tw)/2', y: 'h-150' },
      { text: 'Chapter two of the long way home', size: 30, color: 'yellow', x: '40', y: '24', enable: 'gte(t,1.5)' },
    ]);
    const [native, wasm] = await Promise.all([check(file, 'native'), check(file, 'wasm')]);
    const gates = (stdout: string) => {
      const report = JSON.parse(stdout) as { gates: { measurements?: { ocrEngine?: string } }[] };
      const engines = report.gates.map((g) => g.measurements?.ocrEngine).filter(Boolean);
      for (const g of report.gates) if (g.measurements) delete g.measurements.ocrEngine;
      return { engines: [...new Set(engines)], gates: JSON.stringify(report.gates) };
    };
    const n = gates(native.stdout);
    const w = gates(wasm.stdout);
    expect(n.engines[0]).toMatch(/on onnxruntime-node /);
    expect(w.engines[0]).toMatch(/on onnxruntime-web /);
    expect(n.gates).toContain('Chapter two');
    expect(n.gates).toBe(w.gates);
  });

  it('refuses an unknown PREFLIGHT_OCR_RUNTIME with a message that names it', async () => {
    const file = await captionVideo();
    const r = await check(file, 'gpu');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/PREFLIGHT_OCR_RUNTIME must be auto, native or wasm, not "gpu"/);
  });
});
