// The engine's WebAssembly kernels (engine/**/*.wat, carried as base64 by their *-kernel.ts modules): each is compiled
// once per thread and instantiated with its own memory, grown to the bytes its caller lays out before any view is taken.
const compiled = new Map<string, WebAssembly.Module>();
const PAGE_BYTES = 65_536;

/** A new instance of the kernel `base64`, whose memory holds at least `bytes`; its exports as `T`. */
export function instantiateKernel<T extends { memory: WebAssembly.Memory }>(base64: string, bytes: number, imports: WebAssembly.Imports = {}): T {
  let module = compiled.get(base64);
  if (!module) {
    module = new WebAssembly.Module(Buffer.from(base64, 'base64'));
    compiled.set(base64, module);
  }
  const exports = new WebAssembly.Instance(module, imports).exports as unknown as T;
  growMemory(exports.memory, bytes);
  return exports;
}

/** Grows `memory` to hold at least `bytes` (views of it taken before must be taken again). */
export function growMemory(memory: WebAssembly.Memory, bytes: number): void {
  if (memory.buffer.byteLength < bytes) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE_BYTES));
}
