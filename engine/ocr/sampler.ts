// Reads text in the picture while the single decode pass runs. The pass hands over every frame of a 2 fps RGB stream;
// the sampler OCRs some of them: a fixed rate (its interval widening with duration, so long programmes are sampled
// to the end rather than up to a cap) plus frames where the picture changed since the last sample. Every candidate
// line must be read again on the next stream frame (half a second later) before it counts: text persists, noise
// does not. A line that was confirmed so before and is still there needs no second reading where its pixels, or its
// glyphs (engine/ocr/glyphs.ts), are the same on the next frame; and a box detected again around glyphs that two
// readings read alike takes their words instead of a recognition (engine/ocr/known-lines.ts). OCR runs in a child
// process, one call at a time in stream order, so results never depend on timing; `backlog` lets the pass pause the
// pipe when OCR falls behind.
import { CellGrid, lumaOf, ReadReference, rectangleBox, type BandRead, type ReadPlan } from './changes.js';
import { type ContrastMeasure, type RgbPicture } from './contrast.js';
import { inkMissesWord, lineContrast, tightBox } from './ink.js';
import { inkPicture, type InkPicture } from './prepare.js';
import { ocrEngineName, OcrEngine, type OcrBox, type OcrLine, type OcrRectangle } from './engine.js';
import { boxesOverlap, boxHeight, rowsOverlap, STILL_LINE_MIN_CONFIDENCE, textLines, textSimilarity, unionBox, type TextLine } from './words.js';
import { sameGlyphs, type GlyphFrame } from './glyphs.js';
import { KnownLines } from './known-lines.js';
import { buildTracks } from './tracks.js';
import { unreadLines, type UnreadLine } from './unread.js';
import type { FrameBox } from '../gates/kit/geometry.js';
import type { TextObservation, TextSignals } from '../types.js';

/** Frames per second of the OCR stream: a line must stay this long (two frames) to be confirmed. */
export const OCR_STREAM_FPS = 2;
/** The OCR picture's long side, px (about 960 px keeps captions legible and detection fast). */
export const OCR_LONG_SIDE = 960;
/** Still pictures (thumbnails) are read larger: small text is what their gate is about. */
export const OCR_STILL_LONG_SIDE = 1280;
/** Fixed-rate samples: one a second, widening so that a programme gets at most 60 + duration/4 of them. */
const BASE_INTERVAL_SECONDS = 1;
const SAMPLES_PER_SECOND_OF_MEDIA = 0.25;
const BASE_SAMPLES = 60;
/** A change sample needs at least this gap to the previous sample, and at most one per fixed interval. */
const MIN_CHANGE_GAP_SECONDS = 1;
/** Picture change: a share of 32×18 blocks whose mean luma moved by more than CHANGE_BLOCK_LEVELS since the last sample. */
const CHANGE_BLOCK_SHARE = 0.03;
const CHANGE_BLOCK_LEVELS = 24;
const THUMB_W = 32;
const THUMB_H = 18;
/** A confirming reading matches a candidate when the words are this similar and the boxes this close. */
const CONFIRM_SIMILARITY = 0.8;
const CONFIRM_MAX_SHIFT_HEIGHTS = 3;

export function ocrSampleInterval(durationSeconds: number): number {
  const budget = BASE_SAMPLES + durationSeconds * SAMPLES_PER_SECOND_OF_MEDIA;
  return Math.max(BASE_INTERVAL_SECONDS, durationSeconds / budget);
}

export function ocrPictureSize(width: number, height: number, still: boolean): { width: number; height: number } {
  const long = still ? OCR_STILL_LONG_SIDE : OCR_LONG_SIDE;
  const scale = Math.min(1, long / Math.max(width, height));
  const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);
  return { width: even(width * scale), height: even(height * scale) };
}

interface Frame extends RgbPicture {
  index: number;
  atSeconds: number;
  /** Its 8-bit luma, once computed. */
  luma?: Uint8Array;
  /** Its ink picture, once computed (a frame read for a sample and again for a confirmation or a start search). */
  ink?: InkPicture;
}

const lumaFor = (f: Frame): Uint8Array => (f.luma ??= lumaOf(f));
const glyphFrame = (f: Frame): GlyphFrame => ({ luma: lumaFor(f), ink: ocrPictureOf(f, false) });

/** The ink of the picture OCR read: distance from the local background (engine/ocr/prepare.ts), for word boxes and contrast. */
function ocrPictureOf(f: Frame, still: boolean): InkPicture {
  return (f.ink ??= inkPicture({ gray: lumaFor(f), width: f.width, height: f.height }, !still));
}

/** Mean luma of 32×18 blocks of a frame, for the change test; the columns and the block row of each row are worked out once. */
class Thumbnailer {
  /** Block column c spans picture columns [columnStart[c], columnStart[c + 1]). */
  private readonly columnStart: Int32Array;
  private readonly row: Uint16Array;
  private readonly counts = new Uint32Array(THUMB_W * THUMB_H);
  private readonly sums = new Uint32Array(THUMB_W * THUMB_H);

  constructor(width: number, height: number) {
    const column = (x: number) => Math.min(THUMB_W - 1, Math.floor((x * THUMB_W) / width));
    this.columnStart = Int32Array.from({ length: THUMB_W + 1 }, (_, c) => {
      let x = 0;
      while (x < width && column(x) < c) x++;
      return x;
    });
    this.row = Uint16Array.from({ length: height }, (_, y) => Math.min(THUMB_H - 1, Math.floor((y * THUMB_H) / height)) * THUMB_W);
    for (let y = 0; y < height; y++) for (let c = 0; c < THUMB_W; c++) this.counts[this.row[y] + c] += this.columnStart[c + 1] - this.columnStart[c];
  }

  of(f: Frame): Float64Array {
    const { columnStart, row, sums, counts } = this;
    const luma = lumaFor(f);
    sums.fill(0);
    for (let y = 0; y < f.height; y++) {
      const r = row[y];
      const base = y * f.width;
      // Each run of a block's columns is summed, then added once.
      for (let c = 0; c < THUMB_W; c++) {
        let run = 0;
        for (let i = base + columnStart[c], end = base + columnStart[c + 1]; i < end; i++) run += luma[i];
        sums[r + c] += run;
      }
    }
    const out = new Float64Array(THUMB_W * THUMB_H);
    for (let i = 0; i < out.length; i++) out[i] = sums[i] / Math.max(1, counts[i]);
    return out;
  }
}

function changedShare(a: Float64Array, b: Float64Array): number {
  let changed = 0;
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i] - b[i]) > CHANGE_BLOCK_LEVELS) changed++;
  return changed / a.length;
}

/** A read line with word boxes shrunk to their ink and the contrast of that ink (first readings only). */
interface ReadLine extends TextLine {
  contrast: ContrastMeasure | null;
}

/** The detector's map fades at the picture's edges: the ink of a line's end words is looked for this share of the
 * line's height beyond their boxes, so that a line cut by the frame edge reaches it. */
const END_REACH = 0.5;

function tightened(lines: TextLine[], prepared: InkPicture, frame: RgbPicture | null): ReadLine[] {
  return lines.map((line) => {
    const reach = Math.round(boxHeight(line.box) * END_REACH);
    const last = line.words.length - 1;
    let faint = false;
    const words = line.words.map((w, i) => {
      const around = { ...w.box, x0: i === 0 ? w.box.x0 - reach : w.box.x0, x1: i === last ? w.box.x1 + reach : w.box.x1 };
      const tight = tightBox(prepared, around);
      if (!inkMissesWord(w, tight)) return { ...w, box: tight };
      faint = true;
      return w;
    });
    const box = unionBox(words.map((w) => w.box));
    const contrast = frame ? lineContrast(frame, prepared, faint ? null : box, line.words.map((w) => w.box)) : null;
    return { ...line, words, box, contrast };
  });
}

const center = (b: OcrBox) => [(b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2];

/** The reading of `line` in a neighbouring sample: the most similar text close enough to it. */
function matchLine(line: TextLine, others: TextLine[]): TextLine | null {
  let best: TextLine | null = null;
  let bestScore = 0;
  const [cx, cy] = center(line.box);
  const reach = CONFIRM_MAX_SHIFT_HEIGHTS * boxHeight(line.box);
  for (const o of others) {
    const [ox, oy] = center(o.box);
    if (Math.abs(ox - cx) > reach * 4 || Math.abs(oy - cy) > reach) continue;
    const score = textSimilarity(line.text, o.text);
    if (score >= CONFIRM_SIMILARITY && score > bestScore) [best, bestScore] = [o, score];
  }
  return best;
}

/** The crop read around `lines`: they may have moved by a few line heights. */
function aroundRectangle(frame: RgbPicture, lines: TextLine[]): OcrRectangle {
  const area = unionBox(lines.map((c) => c.box));
  const pad = Math.max(...lines.map((c) => boxHeight(c.box))) * CONFIRM_MAX_SHIFT_HEIGHTS;
  const left = Math.max(0, Math.floor(area.x0 - pad * 2));
  const top = Math.max(0, Math.floor(area.y0 - pad));
  return { left, top, width: Math.min(frame.width, Math.ceil(area.x1 + pad * 2)) - left, height: Math.min(frame.height, Math.ceil(area.y1 + pad)) - top };
}

const contains = (outer: OcrBox, inner: OcrBox) => outer.x0 <= inner.x0 && outer.y0 <= inner.y0 && outer.x1 >= inner.x1 && outer.y1 >= inner.y1;

export interface TextSamplerOptions {
  width: number;
  height: number;
  /** Stream frame rate; 0 for a still picture (one frame). */
  fps: number;
  durationSeconds: number;
  startSeconds: number;
}

/** A sampled frame whose lines await confirmation on the next stream frame. */
interface Sampled {
  frame: Frame;
  lines: Promise<ReadLine[]>;
  /**
   * Its lines that persisted from the previous sample, which confirmed them, with the reading that stands for them on
   * the next frame where their pixels (or their glyphs) are still the same there: for a line kept from the previous
   * sample (its pixels did not change), the reading that confirmed it; for a line read again (a whole reading), itself.
   */
  trusted: Map<ReadLine, TextLine>;
  /** The stream frame before it, when that frame was not read: new lines are looked for there too. */
  before: Frame | null;
  /** The previous sample. */
  prior: Sampled | null;
  /** Its lines the next frame read again, with that reading, once its confirmation has run. */
  confirmed: Map<ReadLine, TextLine>;
  /** The reading of the next frame its confirmation made, and where. */
  confirmReading: { frameIndex: number; area: OcrBox; lines: TextLine[] } | null;
}

export class TextSampler {
  private readonly engine = new OcrEngine();
  /** What the last frames read, for boxes detected again around the same glyphs. */
  private readonly known = new KnownLines<Frame>(glyphFrame);
  private readonly intervalFrames: number;
  private readonly minChangeGap: number;
  private index = 0;
  private lastSampled = -Infinity;
  private lastFixed = -Infinity;
  private changeInWindow = false;
  private sampledThumb: Float64Array | null = null;
  private readonly grid: CellGrid;
  private readonly reference: ReadReference;
  private readonly thumbnailer: Thumbnailer;
  /** Lines read on the previous stream frame when it was sampled, awaiting confirmation on this one. */
  private pending: Sampled | null = null;
  /** The last stream frame, and whether it was sampled: the frame before a sample, where new lines may already show. */
  private previous: { frame: Frame; sampled: boolean } | null = null;
  /** The last sample, which tells new lines from lines already on screen. */
  private lastSample: Sampled | null = null;
  private chain: Promise<void> = Promise.resolve();
  private queued = 0;
  private idle: (() => void)[] = [];
  private failure: unknown = null;
  private readonly observations: TextObservation[] = [];
  private readonly unread: UnreadLine[] = [];
  private stats = { samples: 0, wholeReads: 0, changeSamples: 0, regionReads: 0, unchangedSamples: 0, keptLines: 0, confirmations: 0, startSearches: 0, unconfirmedLines: 0, ocrMs: 0 };

  constructor(private readonly opts: TextSamplerOptions) {
    const still = opts.fps <= 0;
    this.intervalFrames = still ? 1 : Math.max(1, Math.round(ocrSampleInterval(opts.durationSeconds) * opts.fps));
    this.minChangeGap = still ? 1 : Math.max(1, Math.round(MIN_CHANGE_GAP_SECONDS * opts.fps));
    this.grid = new CellGrid(opts.width, opts.height);
    this.thumbnailer = new Thumbnailer(opts.width, opts.height);
    this.reference = new ReadReference(this.grid);
    // The first frame is always read: the models load while the decoder starts and reaches it.
    this.engine.warm();
  }

  /** OCR calls queued or running; the decode pass pauses its pipe while this is high. */
  get backlog(): number {
    return this.queued;
  }

  /** Resolves when the backlog is at most `level`. */
  async whenBacklogAtMost(level: number): Promise<void> {
    while (this.queued > level) await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  push(rgb: Uint8Array): void {
    const { width, height, fps, startSeconds } = this.opts;
    const i = this.index++;
    const frame: Frame = { rgb, width, height, index: i, atSeconds: startSeconds + (fps > 0 ? i / fps : 0) };
    const still = fps <= 0;
    const pending = this.pending;
    this.pending = null;
    const sample = this.shouldSample(frame);
    let lines: Promise<ReadLine[]> | null = null;
    if (sample === 'fixed' && still) {
      this.enqueue(async () => (await this.readWhole(frame, true)).forEach((line) => this.observe(frame, line, null, null)));
    } else if (sample) {
      // Which cells changed since they were read is decided here, in stream order, so readings never depend on timing.
      const luma = lumaFor(frame);
      const plan = this.grid.plan(this.reference.changedSinceRead(luma));
      this.reference.markRead(luma, plan);
      const prior = this.lastSample;
      const trusted = new Map<ReadLine, TextLine>();
      lines = this.enqueue(() => this.readChanged(frame, plan, prior, trusted));
      // A change sample is the first frame that changed: the frame before it cannot show its new lines.
      const before = sample === 'fixed' && this.previous && !this.previous.sampled ? this.previous.frame : null;
      this.pending = { frame, lines, trusted, before, prior, confirmed: new Map(), confirmReading: null };
      this.lastSample = this.pending;
    }
    this.previous = { frame, sampled: sample !== false };
    if (pending) this.enqueue(() => this.confirm(pending, frame, lines));
  }

  private shouldSample(frame: Frame): 'fixed' | 'change' | false {
    if (this.opts.fps <= 0) {
      if (frame.index > 0) return false;
      this.stats.samples++;
      return 'fixed';
    }
    const i = frame.index;
    const thumb = this.thumbnailer.of(frame);
    let kind: 'fixed' | 'change' = 'fixed';
    if (i - this.lastFixed >= this.intervalFrames) {
      this.lastFixed = i;
      this.changeInWindow = false;
    } else {
      const changed = this.sampledThumb !== null && changedShare(thumb, this.sampledThumb) >= CHANGE_BLOCK_SHARE;
      if (!changed || this.changeInWindow || i - this.lastSampled < this.minChangeGap) return false;
      this.changeInWindow = true;
      this.stats.changeSamples++;
      kind = 'change';
    }
    this.lastSampled = i;
    this.sampledThumb = thumb;
    this.stats.samples++;
    return kind;
  }

  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    this.queued++;
    const run = this.chain.then(job);
    this.chain = run.then(
      () => this.settle(),
      (err: unknown) => {
        this.failure ??= err;
        this.settle();
      },
    );
    return run;
  }

  private settle(): void {
    this.queued--;
    const waiting = this.idle;
    this.idle = [];
    for (const wake of waiting) wake();
  }

  /**
   * Reads what changed since it was read: the whole frame, or only `plan`'s regions, as crops where no line was and as
   * full-width bands where one was (withLines), keeping the previous sample's lines elsewhere (those it did not confirm
   * are confirmed again like new ones). The previous sample's confirmation has run by now: samples are at least two
   * stream frames apart.
   */
  private async readChanged(frame: Frame, cells: ReadPlan, prior: Sampled | null, trusted: Map<ReadLine, TextLine>): Promise<ReadLine[]> {
    const known = prior ? await prior.lines : [];
    const plan = this.grid.withLines(cells, known.map((l) => l.box));
    if (plan.whole) {
      const lines = await this.readWhole(frame, false);
      // A line the previous sample read and confirmed was confirmed by a reading once: on the next frame its glyphs suffice.
      const confirmedBefore = [...(prior?.confirmed.keys() ?? [])];
      for (const line of lines) if (matchLine(line, confirmedBefore)) trusted.set(line, line);
      return lines;
    }
    // A band's reading stands for the lines on its changed cells; every other known line is kept.
    const onChanges = (band: BandRead, b: OcrBox) => band.changes.some((c) => boxesOverlap(c, b));
    let kept = known.filter((line) => !plan.bands.some((band) => onChanges(band, line.box)));
    let fresh: ReadLine[] = [];
    if (plan.regions.length === 0 && plan.bands.length === 0) this.stats.unchangedSamples++;
    else {
      const started = performance.now();
      const found: TextLine[] = [];
      // A band recognises only the boxes on the rows of its changes (a line joined from boxes side by side keeps all of
      // them), and keeps the lines on its changed cells.
      const reads = [
        ...plan.regions.map((region) => ({ region, wanted: undefined, keep: (_: OcrBox) => true })),
        ...plan.bands.map((band) => ({
          region: band.rectangle,
          wanted: (b: OcrBox) => band.changes.some((c) => rowsOverlap(c, b)),
          keep: (b: OcrBox) => onChanges(band, b),
        })),
      ];
      for (const { region, wanted, keep } of reads) {
        const read = await this.read(frame, region, wanted);
        if (read) found.push(...textLines(read, frame.height).filter((line) => keep(line.box)));
        else this.reference.forget();
        this.stats.regionReads++;
      }
      fresh = found.length ? tightened(found, ocrPictureOf(frame, false), frame) : [];
      this.stats.ocrMs += performance.now() - started;
      // A line read again where a kept one was (its box reaching changed cells the kept box did not) replaces it.
      kept = kept.filter((line) => !fresh.some((f) => boxesOverlap(f.box, line.box)));
    }
    for (const line of kept) {
      const match = prior!.confirmed.get(line);
      if (match) trusted.set(line, match);
    }
    this.stats.keptLines += kept.length;
    return [...kept, ...fresh].sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
  }

  /**
   * One OCR call on a video frame: boxes detected around glyphs read alike twice in the same place on recent frames
   * take those words (except where a line of `exclude` lies), and what it reads is kept for the frames after it.
   */
  private async read(frame: Frame, rectangle?: OcrRectangle, wanted?: (b: OcrBox) => boolean, exclude: OcrBox[] = []): Promise<OcrLine[] | null> {
    const read = await this.engine.recognise(frame, rectangle, wanted, this.known.wordsFor(frame, exclude));
    if (read) this.known.record(frame, read);
    return read;
  }

  private async readWhole(frame: Frame, still: boolean): Promise<ReadLine[]> {
    const started = performance.now();
    const read = still ? await this.engine.recognise(frame) : await this.read(frame);
    if (!read) this.reference.forget();
    const minConfidence = still ? STILL_LINE_MIN_CONFIDENCE : undefined;
    const lines = read ? textLines(read, frame.height, minConfidence) : [];
    // On video, lettering that is never read surely is left to the samples that read it.
    let prepared: InkPicture | null = null;
    const ink = () => (prepared ??= ocrPictureOf(frame, still));
    if (still && read) this.unread.push(...unreadLines(read, lines, frame, ink));
    // The ink picture is made only when there are words to measure: most samples hold none.
    const result = lines.length ? tightened(lines, ink(), frame) : [];
    this.stats.ocrMs += performance.now() - started;
    this.stats.wholeReads++;
    return result;
  }

  /** Reads `frame` around `lines` (a crop: the lines may have moved by a few line heights). */
  private async readAround(frame: Frame, lines: TextLine[]): Promise<TextLine[]> {
    const rectangle = aroundRectangle(frame, lines);
    const started = performance.now();
    // The lines looked for are read again, not given the words read before.
    const read = await this.read(frame, rectangle, undefined, lines.map((l) => l.box));
    const found = read ? textLines(read, frame.height) : [];
    const result = found.length ? tightened(found, ocrPictureOf(frame, false), null) : [];
    this.stats.ocrMs += performance.now() - started;
    return result;
  }

  private async confirm(sampled: Sampled, next: Frame, nextWhole: Promise<ReadLine[]> | null): Promise<void> {
    try {
      await this.confirmAndDate(sampled, next, nextWhole);
    } finally {
      // Only the previous sample is ever looked at: older ones, and their frames, are let go.
      sampled.prior = null;
      sampled.before = null;
    }
  }

  /**
   * Reads the next frame where the candidates were (or reuses its own whole reading) and keeps the lines read twice.
   * A line the previous sample read and confirmed is kept without a second reading: it persisted, and its end lies
   * between this sample and the next frame. Lines the previous sample did not show are looked for on the frame before
   * this sample too. Either way a line's start and end are known to half a sample interval rather than a whole one.
   */
  private async confirmAndDate(sampled: Sampled, next: Frame, nextWhole: Promise<ReadLine[]> | null): Promise<void> {
    const { frame } = sampled;
    const candidates = await sampled.lines;
    if (candidates.length === 0) return;
    // A line confirmed before whose pixels are the same on the next frame reads there as it did then; one whose glyphs
    // are the same (a caption over a moving picture) reads as it did on this frame.
    const same = new Map<ReadLine, TextLine>();
    if (!nextWhole) {
      for (const [line, match] of sampled.trusted) {
        if (this.grid.sameWithin(lumaFor(frame), lumaFor(next), line.box)) same.set(line, match);
        else if (sameGlyphs(glyphFrame(frame), glyphFrame(next), line)) same.set(line, line);
      }
    }
    let again: TextLine[] = [];
    const toRead = candidates.filter((l) => !same.has(l));
    if (nextWhole) again = await nextWhole;
    else if (toRead.length) {
      again = await this.readAround(next, toRead);
      sampled.confirmReading = { frameIndex: next.index, area: rectangleBox(aroundRectangle(next, toRead)), lines: again };
      this.stats.confirmations++;
    }
    const confirmed = sampled.confirmed;
    const confirmedAt = new Map<TextObservation, ReadLine>();
    const persisting = [...(sampled.prior?.confirmed.keys() ?? [])];
    for (const line of candidates) {
      const match = same.get(line) ?? matchLine(line, again);
      if (match) {
        confirmedAt.set(this.observe(frame, line, next, match), line);
        confirmed.set(line, match);
      } else if (matchLine(line, persisting)) this.observe(frame, line, null, null);
      else this.stats.unconfirmedLines++;
    }
    if (!sampled.before || confirmed.size === 0) return;
    const prior = sampled.prior ? await sampled.prior.lines : [];
    const fresh = [...confirmed.keys()].filter((line) => matchLine(line, prior) === null);
    if (fresh.length === 0) return;
    const before = sampled.before;
    // A line whose pixels are the same on the frame before was on screen there.
    const seenBefore = new Set(fresh.filter((line) => this.grid.sameWithin(lumaFor(before), lumaFor(frame), line.box)));
    const unknown = fresh.filter((line) => !seenBefore.has(line));
    if (unknown.length) {
      for (const line of await this.readBefore(sampled, before, unknown)) seenBefore.add(line);
    }
    // An earlier sighting dates the line and nothing else: where it was and how it looked come from the sample.
    for (const [o, line] of confirmedAt) if (seenBefore.has(line)) o.seenFromSeconds = before.atSeconds;
  }

  /** The `lines` read again on `before`: the previous sample's confirming reading when it was of that frame and covered them (no second read). */
  private async readBefore(sampled: Sampled, before: Frame, lines: ReadLine[]): Promise<ReadLine[]> {
    const known = sampled.prior?.confirmReading;
    let earlier: TextLine[];
    if (known && known.frameIndex === before.index && contains(known.area, rectangleBox(aroundRectangle(before, lines)))) earlier = known.lines;
    else {
      earlier = await this.readAround(before, lines);
      this.stats.startSearches++;
    }
    return lines.filter((line) => matchLine(line, earlier) !== null);
  }

  private frameBox(b: OcrBox): FrameBox {
    const { width, height } = this.opts;
    return { x: b.x0 / width, y: b.y0 / height, w: (b.x1 - b.x0) / width, h: (b.y1 - b.y0) / height };
  }

  private observe(frame: Frame, line: ReadLine, next: Frame | null, match: TextLine | null): TextObservation {
    const observation: TextObservation = {
      atSeconds: frame.atSeconds,
      text: line.text,
      box: this.frameBox(line.box),
      confirmBox: match ? this.frameBox(match.box) : null,
      confirmAtSeconds: next ? next.atSeconds : null,
      confirmText: match ? match.text : null,
      confidence: line.confidence,
      words: line.words.map((w) => ({ text: w.text.trim(), confidence: w.confidence, box: this.frameBox(w.box) })),
      contrast: line.contrast,
    };
    this.observations.push(observation);
    return observation;
  }

  /** Waits for the last OCR calls, closes the worker and returns what was read. */
  async finish(): Promise<TextSignals> {
    const last = this.pending;
    this.pending = null;
    await this.chain;
    if (last && !this.failure) {
      // The last sample has no next frame: its lines that persisted from the sample before are kept.
      for (const line of await last.lines) {
        if (matchLine(line, [...(last.prior?.confirmed.keys() ?? [])])) this.observe(last.frame, line, null, null);
        else this.stats.unconfirmedLines++;
      }
    }
    const timeouts = this.engine.timeouts;
    await this.engine.close();
    if (this.failure) throw this.failure;
    const still = this.opts.fps <= 0;
    const interval = still ? 0 : this.intervalFrames / this.opts.fps;
    return {
      engine: ocrEngineName(),
      pictureWidth: this.opts.width,
      pictureHeight: this.opts.height,
      sampleIntervalSeconds: interval,
      ...this.stats,
      recognitionsSpared: this.known.reused,
      ocrMs: Math.round(this.stats.ocrMs),
      timeouts,
      unreadText: this.unread.map((u) => ({ box: this.frameBox(u.box), detectionScore: u.detectionScore, guess: u.guess, guessConfidence: u.guessConfidence, contrast: u.contrast })),
      tracks: buildTracks(this.observations, still ? 0 : interval + MIN_CHANGE_GAP_SECONDS, still ? 0 : 1 / this.opts.fps),
    };
  }

  async abort(): Promise<void> {
    await this.engine.close().catch(() => undefined);
  }
}
