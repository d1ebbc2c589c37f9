// The engine's WebAssembly kernels are committed twice: as text (engine/**/*.wat, the source) and as the TypeScript
// modules that carry the binary (scripts/build-wasm.mjs writes them). This fails when the two disagree.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DEINTERLEAVE_WASM } from '../engine/audio/deinterleave-kernel.js';
import { instantiateKernelOn } from '../engine/wasm-kernel.js';

describe('WebAssembly kernels', () => {
  it('are compiled from their current .wat sources', () => {
    let output = '';
    try {
      output = execFileSync(process.execPath, ['scripts/build-wasm.mjs', '--check'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      const failed = err as { stderr?: string; status?: number };
      expect.fail(`scripts/build-wasm.mjs --check exited ${failed.status}: ${failed.stderr}`);
    }
    expect(output).toBe('');
  });

  it('split interleaved stereo into planes moving every float\'s bits, signalling NaNs included (a float copy in TypeScript quiets them), at any frame count', () => {
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
    const kernel = instantiateKernelOn<{ stereo(src: number, left: number, right: number, frames: number): void }>(DEINTERLEAVE_WASM, { pcm: { memory } });
    const words = new Uint32Array(memory.buffer);
    for (const frames of [0, 1, 3, 4, 5, 7, 8, 1027]) {
      // Interleaved frames at byte 0; the planes at bytes 16 384 and 32 772 (a plane need not be 16-byte aligned).
      for (let i = 0; i < 2 * frames; i++) words[i] = (Math.imul(i + 1, 2654435761) ^ 0x7fc00001) >>> 0;
      const left = new Float32Array(memory.buffer, 16_384, frames);
      const right = new Float32Array(memory.buffer, 32_772, frames);
      words.fill(0, 16_384 / 4, 32_772 / 4 + frames + 4);
      kernel.stereo(0, left.byteOffset, right.byteOffset, frames);
      const bits = (plane: Float32Array) => Array.from(new Uint32Array(plane.buffer, plane.byteOffset, plane.length));
      expect(bits(left), `${frames} frames, left`).toEqual(Array.from({ length: frames }, (_, i) => words[2 * i]));
      expect(bits(right), `${frames} frames, right`).toEqual(Array.from({ length: frames }, (_, i) => words[2 * i + 1]));
      // Nothing written past the plane.
      expect(words[32_772 / 4 + frames]).toBe(0);
    }
  });
});
