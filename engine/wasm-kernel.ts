// The engine's WebAssembly kernels (engine/**/*.wat, carried as base64 by their *-kernel.ts modules): each is compiled
// once per thread and instantiated with its own memory, grown to the bytes its caller lays out before any view is taken,
// or on a shared memory it imports.
const compiled = new Map<string, WebAssembly.Module>();
const PAGE_BYTES = 65_536;

/** A new instance of the kernel `base64`, whose memory holds at least `bytes`; its exports as `T`. */
export function instantiateKernel<T extends { memory: WebAssembly.Memory }>(base64: string, bytes: number, imports: WebAssembly.Imports = {}): T {
  const exports = instantiateKernelOn<T>(base64, imports);
  growMemory(exports.memory, bytes);
  return exports;
}

/** A new instance of the kernel `base64` working on memory it imports (a shared one, given in `imports`); its exports as `T`. */
export function instantiateKernelOn<T>(base64: string, imports: WebAssembly.Imports): T {
  return new WebAssembly.Instance(compiledKernel(base64), imports).exports as unknown as T;
}

function compiledKernel(base64: string): WebAssembly.Module {
  let module = compiled.get(base64);
  if (!module) {
    module = new WebAssembly.Module(Buffer.from(base64, 'base64'));
    compiled.set(base64, module);
  }
  return module;
}

/** Grows `memory` to hold at least `bytes` (views of it taken before must be taken again). */
export function growMemory(memory: WebAssembly.Memory, bytes: number): void {
  if (memory.buffer.byteLength < bytes) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE_BYTES));
}

/**
 * The byte, `byte` or the next 4-byte step, at which floats copied from `source` share its alignment mod 8. V8 copies
 * out of a SharedArrayBuffer (the meter threads' ring) word by word only when both sides are so aligned, and byte by
 * byte otherwise: about 8 times slower. `byte` is a multiple of 4, and the region behind it has 4 bytes to spare.
 */
export function alignedLike(byte: number, source: Float32Array): number {
  return byte + ((source.byteOffset - byte) & 4);
}

/** Copies `source` into `floats` (a view of a kernel's whole memory) at {@link alignedLike}`(byte, source)`; returns that byte. */
export function copyInAligned(floats: Float32Array, byte: number, source: Float32Array): number {
  const at = alignedLike(byte, source);
  floats.set(source, at / Float32Array.BYTES_PER_ELEMENT);
  return at;
}
