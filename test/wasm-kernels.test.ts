// The engine's WebAssembly kernels are committed twice: as text (engine/**/*.wat, the source) and as the TypeScript
// modules that carry the binary (scripts/build-wasm.mjs writes them). This fails when the two disagree.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

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
});
