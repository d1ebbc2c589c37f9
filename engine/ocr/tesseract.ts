// Offline OCR with tesseract.js: the English model is read from the installed @tesseract.js-data/eng package and never
// fetched or cached (a CDN fetch would crash offline; the default cache writes 5 MB into the working directory).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Worker } from 'tesseract.js';

const require = createRequire(import.meta.url);

/** Some backgrounds make Tesseract's layout analysis run for minutes: each call is bounded. */
export const OCR_CALL_TIMEOUT_MS = 20_000;

export interface OcrBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface OcrWord {
  text: string;
  /** Tesseract word confidence, 0..100. */
  confidence: number;
  box: OcrBox;
}

export interface OcrLine {
  words: OcrWord[];
  box: OcrBox;
}

export interface OcrPicture {
  gray: Uint8Array;
  width: number;
  height: number;
}

interface TesseractWord {
  text: string;
  confidence: number;
  bbox: OcrBox;
}
interface TesseractBlock {
  paragraphs: { lines: { bbox: OcrBox; words: TesseractWord[] }[] }[];
}

/**
 * The LSTM-only integer model (4.0.0_best_int, 3 MB) of the data package: the engine runs LSTM only, and this model
 * holds about 75 MB less in the worker than the package's default legacy+LSTM one, reads a little faster, and reads
 * the test captions as well.
 */
function englishModel(): { langPath: string; gzip: boolean } {
  const data = require('@tesseract.js-data/eng') as { langPath: string; gzip: boolean };
  return { langPath: join(dirname(data.langPath), '4.0.0_best_int'), gzip: data.gzip };
}

/** The package version of the OCR engine and model, for reports. */
export function ocrEngineName(): string {
  const core = (require('tesseract.js/package.json') as { version: string }).version;
  const data = (require('@tesseract.js-data/eng/package.json') as { version: string }).version;
  return `tesseract.js ${core}, eng model 4.0.0_best_int from @tesseract.js-data/eng ${data}`;
}

const pgm = (p: OcrPicture): Buffer => Buffer.concat([Buffer.from(`P5\n${p.width} ${p.height}\n255\n`, 'ascii'), p.gray]);

/** A worker and whether it has been retired: a retired worker is never handed a new call. */
interface LiveWorker {
  worker: Worker;
  retired: boolean;
  /** Settles when the worker is retired: calls still in it are then given up (terminate() never settles them). */
  gone: Promise<'gone'>;
  leave: () => void;
}

/**
 * Terminates a retired worker once the calls already handed to it have reached it. tesseract.js posts a call to its
 * worker a few microtasks after `recognize()` is invoked, and a call posted after `terminate()` rejects inside the
 * library where nobody can catch it; a macrotask later, every call invoked before retirement has been posted.
 */
function retire(live: LiveWorker): Promise<void> {
  live.retired = true;
  live.leave();
  return new Promise((resolve) => setImmediate(resolve)).then(async () => void (await live.worker.terminate().catch(() => undefined)));
}

/** One Tesseract worker, created on first use; a call that times out replaces the worker. */
export class OcrEngine {
  private worker: Promise<LiveWorker> | null = null;
  private closed = false;
  timeouts = 0;

  constructor(private readonly callTimeoutMs = OCR_CALL_TIMEOUT_MS) {}

  private start(): Promise<LiveWorker> {
    if (this.closed) throw new Error('OCR engine closed');
    this.worker ??= (async () => {
      const { langPath, gzip } = englishModel();
      // Loaded with the first picture to read, not with the engine: a check without OCR never pays for it.
      const { createWorker } = await import('tesseract.js');
      const worker = await createWorker('eng', 1, { langPath, gzip, cacheMethod: 'none', errorHandler: () => undefined });
      // Sparse text (PSM 11): captions and graphics sit anywhere in the picture, not in a page layout.
      // A fixed DPI keeps Tesseract from estimating one (and logging about it) on every call.
      await worker.setParameters({ tessedit_pageseg_mode: '11' as never, user_defined_dpi: '96', debug_file: '/dev/null' } as never);
      let leave = () => {};
      const gone = new Promise<'gone'>((resolve) => (leave = () => resolve('gone')));
      return { worker, retired: false, gone, leave };
    })();
    return this.worker;
  }

  /**
   * Recognises a picture, or a rectangle of it (boxes still in picture coordinates); null when the call timed out.
   * The rectangle is cropped here: Tesseract's own rectangle option misreads some crops that read well on their own.
   */
  async recognise(picture: OcrPicture, rectangle?: { left: number; top: number; width: number; height: number }): Promise<OcrLine[] | null> {
    if (!rectangle) return this.recogniseWhole(picture);
    const { left, top, width, height } = rectangle;
    const gray = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) gray.set(picture.gray.subarray((top + y) * picture.width + left, (top + y) * picture.width + left + width), y * width);
    const lines = await this.recogniseWhole({ gray, width, height });
    const shift = (b: OcrBox): OcrBox => ({ x0: b.x0 + left, y0: b.y0 + top, x1: b.x1 + left, y1: b.y1 + top });
    return lines && lines.map((l) => ({ box: shift(l.box), words: l.words.map((w) => ({ ...w, box: shift(w.box) })) }));
  }

  private async recogniseWhole(picture: OcrPicture): Promise<OcrLine[] | null> {
    if (this.closed) return null;
    const live = await this.start();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.callTimeoutMs);
    });
    // A call the engine gave up on (timed out, or closed under it) settles later, often as a rejection: it is caught
    // here so that it never surfaces as an unhandled rejection.
    const call = Promise.resolve()
      .then(() => {
        if (live.retired) throw new Error('OCR worker retired');
        return live.worker.recognize(pgm(picture), {}, { blocks: true, text: false });
      })
      .catch((err: unknown) => ({ failed: err }));
    const result = await Promise.race([call, timeout, live.gone]);
    clearTimeout(timer);
    if (result === 'gone') return null;
    if (result !== 'timeout' && 'failed' in result) {
      if (this.closed || live.retired) return null;
      throw result.failed;
    }
    if (result === 'timeout') {
      this.timeouts++;
      if (!live.retired) {
        this.worker = null;
        void retire(live);
      }
      return null;
    }
    const blocks = (result.data.blocks ?? []) as unknown as TesseractBlock[];
    return blocks.flatMap((b) =>
      b.paragraphs.flatMap((p) =>
        p.lines.map((l) => ({ box: l.bbox, words: l.words.map((w) => ({ text: w.text, confidence: w.confidence, box: w.bbox })) })),
      ),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    if (worker) await retire(await worker);
  }
}
