// The engine's tool runner (engine/ffmpeg/run.ts): node:child_process under the timeouts, cancellation and output
// bound that execa gave it, on real processes.
import { describe, expect, it } from 'vitest';
import { EngineError } from '../engine/errors.js';
import { runTool, spawnTool } from '../engine/ffmpeg/run.js';

const node = process.execPath;

describe('runTool', () => {
  it('returns the output and exit code of a tool that fails', async () => {
    const r = await runTool(node, ['-e', 'process.stdout.write("out"); process.stderr.write("err"); process.exit(3)'], { timeoutMs: 10_000 });
    expect(r).toEqual({ stdout: 'out', stderr: 'err', exitCode: 3 });
  });

  it('stops a tool that outlives its timeout, as an EngineError timeout', async () => {
    const started = Date.now();
    const run = runTool(node, ['-e', 'setInterval(() => {}, 1000)'], { timeoutMs: 300 });
    await expect(run).rejects.toMatchObject({ code: 'timeout' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('stops a tool that ignores SIGTERM when the check is cancelled', async () => {
    const controller = new AbortController();
    const run = runTool(node, ['-e', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'], { timeoutMs: 60_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    const err = await run.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect(err).toMatchObject({ code: 'cancelled' });
  });

  it('does not start a tool for a signal already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(runTool(node, ['-e', '0'], { timeoutMs: 10_000, signal: controller.signal })).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('keeps at most maxBuffer bytes of output and stops a tool that writes more', async () => {
    const r = await runTool(node, ['-e', 'const b = Buffer.alloc(65536, 120); const w = () => process.stdout.write(b, w); w()'], { timeoutMs: 10_000, maxBuffer: 100_000 });
    expect(r.stdout.length).toBe(100_000);
    expect(r.exitCode).toBe(-1);
  });

  it('reports a binary that cannot start as exit -1 with the reason', async () => {
    const r = await runTool('/nonexistent/ffprobe', [], { timeoutMs: 10_000 });
    expect(r.exitCode).toBe(-1);
    expect(r.stderr).toMatch(/ENOENT/);
  });
});

describe('spawnTool', () => {
  it('hands a descriptor to the tool and settles when its pipes close', async () => {
    const { child, exit } = spawnTool(node, ['-e', 'require("fs").writeSync(3, "on fd 3")'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'], timeoutMs: 10_000 });
    let fd3 = '';
    child.stdio[3]?.on('data', (chunk: Buffer) => (fd3 += chunk.toString()));
    expect(await exit).toEqual({ exitCode: 0, timedOut: false, isCanceled: false, spawnError: null });
    expect(fd3).toBe('on fd 3');
  });
});
