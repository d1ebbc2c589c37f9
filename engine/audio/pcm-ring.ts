// A ring of PCM batches in shared memory, written by one producer (the thread reading the decoder's PCM) and read by
// every meter thread, with no message per batch: the threads count batches in a shared control array and sleep on it
// (Atomics.wait) when the ring is empty or full. A batch holds one plane per channel, end to end; its slot is written
// again only once every reader has released it. The batches live in a shared WebAssembly memory, from byte 0, so that
// a kernel can write them (the reader's split of the decoder's frames); bytes after them are spare, for the producer.

/** The words of the control array. */
const WRITTEN = 0;
const READ = 1;
/** WRITTEN holds the count of published batches below these flags. */
const CLOSED = 1 << 29;
const ABORTED = 1 << 30;
const COUNT = CLOSED - 1;
/** A producer waiting for a free slot looks at the abort flag this often, ms. */
const PRODUCER_POLL_MS = 100;
const WASM_PAGE_BYTES = 65_536;

export interface PcmRingBuffers {
  control: SharedArrayBuffer;
  /** Shared: the batches from byte 0, then {@link spareBytes} bytes for the producer (from {@link spareByte}). */
  memory: WebAssembly.Memory;
  spareByte: number;
  spareBytes: number;
  slots: number;
  channels: number;
  /** Frames one batch holds. */
  batchFrames: number;
  readers: number;
}

type WaitAsync = (array: Int32Array, index: number, value: number, timeout?: number) => { async: boolean; value: Promise<string> | string };
// Node 20 has it; the ES2022 library this project compiles against does not declare it.
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

export class PcmRing {
  private readonly control: Int32Array;
  private readonly data: Float32Array;
  /** Frames of the batch in each slot, after the readers' words. */
  private readonly framesAt: number;

  private constructor(readonly buffers: PcmRingBuffers) {
    this.control = new Int32Array(buffers.control);
    this.data = new Float32Array(buffers.memory.buffer, 0, buffers.spareByte / Float32Array.BYTES_PER_ELEMENT);
    this.framesAt = READ + buffers.readers;
  }

  /** `spareBytes`: room after the batches for the producer's own use (a staging area for its reads). */
  static create(slots: number, channels: number, batchFrames: number, readers: number, spareBytes = 0): PcmRing {
    const control = new SharedArrayBuffer((READ + readers + slots) * Int32Array.BYTES_PER_ELEMENT);
    // 16-byte aligned, for a kernel's vector stores.
    const spareByte = Math.ceil((slots * channels * batchFrames * Float32Array.BYTES_PER_ELEMENT) / 16) * 16;
    const pages = Math.max(1, Math.ceil((spareByte + spareBytes) / WASM_PAGE_BYTES));
    const memory = new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
    return new PcmRing({ control, memory, spareByte, spareBytes, slots, channels, batchFrames, readers });
  }

  /** The ring another thread created (its `buffers`, passed as worker data). */
  static attach(buffers: PcmRingBuffers): PcmRing {
    return new PcmRing(buffers);
  }

  /** The planes of batch `seq`'s slot, each `frames` long (the producer fills them whole, a reader reads `frames`). */
  planes(seq: number, frames = this.buffers.batchFrames): Float32Array[] {
    const { slots, channels, batchFrames } = this.buffers;
    const start = (seq % slots) * channels * batchFrames;
    return Array.from({ length: channels }, (_, c) => this.data.subarray(start + c * batchFrames, start + c * batchFrames + frames));
  }

  get published(): number {
    return Atomics.load(this.control, WRITTEN) & COUNT;
  }

  /** Frames published: every batch but the last is whole. */
  get publishedFrames(): number {
    const published = this.published;
    if (published === 0) return 0;
    return (published - 1) * this.buffers.batchFrames + this.control[this.framesAt + ((published - 1) % this.buffers.slots)];
  }

  get aborted(): boolean {
    return (Atomics.load(this.control, WRITTEN) & ABORTED) !== 0;
  }

  /** Batches published and not yet released by the slowest reader. */
  get queued(): number {
    return this.published - this.slowestReader().read;
  }

  /** Producer, on a worker thread: sleeps until batch `seq`'s slot is free; false when the ring was aborted. */
  waitFree(seq: number): boolean {
    const need = seq - this.buffers.slots + 1;
    for (let slowest = this.slowestReader(); slowest.read < need && !this.aborted; slowest = this.slowestReader()) {
      Atomics.wait(this.control, slowest.word, slowest.read, PRODUCER_POLL_MS);
    }
    return !this.aborted;
  }

  /** Producer, on the main thread: resolves once at most `level` batches are queued, or the ring was aborted. */
  async whenQueuedAtMost(level: number): Promise<void> {
    const need = this.published - level;
    for (let slowest = this.slowestReader(); slowest.read < need && !this.aborted; slowest = this.slowestReader()) {
      const waited = waitAsync(this.control, slowest.word, slowest.read, PRODUCER_POLL_MS);
      if (waited.async) await waited.value;
    }
  }

  /** The control word and release count of the reader furthest behind (the ring has at least one reader). */
  private slowestReader(): { word: number; read: number } {
    let word = READ;
    let read = Atomics.load(this.control, READ);
    for (let r = 1; r < this.buffers.readers; r++) {
      const released = Atomics.load(this.control, READ + r);
      if (released < read) [word, read] = [READ + r, released];
    }
    return { word, read };
  }

  /** Producer: batch `seq` (the next one) holds `frames` frames. */
  publish(seq: number, frames: number): void {
    this.control[this.framesAt + (seq % this.buffers.slots)] = frames;
    // An add keeps an abort flag another thread may have just set.
    Atomics.add(this.control, WRITTEN, 1);
    Atomics.notify(this.control, WRITTEN);
  }

  /** Producer: no batch follows. */
  close(): void {
    Atomics.or(this.control, WRITTEN, CLOSED);
    Atomics.notify(this.control, WRITTEN);
  }

  /** Anyone: stops producer and readers. */
  abort(): void {
    Atomics.or(this.control, WRITTEN, ABORTED);
    Atomics.notify(this.control, WRITTEN);
    for (let r = 0; r < this.buffers.readers; r++) Atomics.notify(this.control, READ + r);
  }

  /** Reader: sleeps until batch `seq` is published and returns its frames; -1 once the ring is closed before it or aborted. */
  take(seq: number): number {
    for (;;) {
      const written = Atomics.load(this.control, WRITTEN);
      if (written & ABORTED) return -1;
      if ((written & COUNT) > seq) return this.control[this.framesAt + (seq % this.buffers.slots)];
      if (written & CLOSED) return -1;
      Atomics.wait(this.control, WRITTEN, written);
    }
  }

  /** Reader `reader` (0 ..) is done with batch `seq`. */
  release(reader: number, seq: number): void {
    Atomics.store(this.control, READ + reader, seq + 1);
    Atomics.notify(this.control, READ + reader);
  }
}
