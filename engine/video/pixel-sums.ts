// The per-pixel sums of frame-stats.ts (column totals of the picture and of its change, dark pixels, the Laplacian
// detail per column and row) as a WebAssembly kernel (frame-stats.wat), sixteen pixels at a time. The kernel keeps the
// current and the previous frame in its memory, alternating between two slots, so a frame is copied in once.
import { FRAME_STATS_WASM } from './frame-stats-kernel.js';
import { instantiateKernel } from '../wasm-kernel.js';

interface KernelExports {
  memory: WebAssembly.Memory;
  band(frame: number, previous: number, width: number, y0: number, y1: number, hasPrevious: number, colSum: number, colChange: number, darkCode: number): number;
  detail(frame: number, width: number, height: number, colDetail: number, rowDetail: number): void;
}

const align16 = (bytes: number) => Math.ceil(bytes / 16) * 16;

export class PixelSums {
  /** Per-column totals over the rows summed since they were last cleared: of the pixels, and of their change. */
  readonly colSum: Int32Array;
  readonly colChange: Int32Array;
  /** The last {@link detail}: per-column and per-row Laplacian totals over the inner pixels. */
  readonly colDetail: Int32Array;
  readonly rowDetail: Int32Array;
  private readonly kernel: KernelExports;
  private readonly slots: [Uint8Array, Uint8Array];
  private current = 0;

  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly darkCode: number,
  ) {
    const frameBytes = align16(width * height);
    const columnBytes = align16(4 * width);
    this.kernel = instantiateKernel<KernelExports>(FRAME_STATS_WASM, 2 * frameBytes + 3 * columnBytes + align16(4 * height));
    const { buffer } = this.kernel.memory;
    this.slots = [new Uint8Array(buffer, 0, width * height), new Uint8Array(buffer, frameBytes, width * height)];
    this.colSum = new Int32Array(buffer, 2 * frameBytes, width);
    this.colChange = new Int32Array(buffer, 2 * frameBytes + columnBytes, width);
    this.colDetail = new Int32Array(buffer, 2 * frameBytes + 2 * columnBytes, width);
    this.rowDetail = new Int32Array(buffer, 2 * frameBytes + 3 * columnBytes, height);
  }

  /** Copies `frame` in as the current frame; the current one becomes the previous. */
  load(frame: Uint8Array): void {
    this.current ^= 1;
    this.slots[this.current].set(frame);
  }

  /** Adds rows [y0, y1) of the current frame to the column totals (its change too, `withChange`); returns its dark pixels there. */
  band(y0: number, y1: number, withChange: boolean): number {
    const frame = this.slots[this.current].byteOffset;
    const previous = this.slots[this.current ^ 1].byteOffset;
    return this.kernel.band(frame, previous, this.width, y0, y1, withChange ? 1 : 0, this.colSum.byteOffset, this.colChange.byteOffset, this.darkCode);
  }

  /** The current frame's Laplacian detail per column and per row. */
  detail(): void {
    this.colDetail.fill(0);
    this.rowDetail.fill(0);
    this.kernel.detail(this.slots[this.current].byteOffset, this.width, this.height, this.colDetail.byteOffset, this.rowDetail.byteOffset);
  }
}
