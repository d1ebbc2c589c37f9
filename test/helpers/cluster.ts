// `preflight worker` as a real child process of the built CLI, with a data dir of its own: with `preflight serve
// --no-worker` (serve.ts) and a shared PREFLIGHT_DATABASE_URL, a deployment of several processes (the scale-out test,
// the store benchmark's throughput). No test runner here, so the benchmark can use it too.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from './serve.js';

export interface RunningWorker {
  proc: ChildProcess;
  pid: number;
  home: string;
  /** What it wrote on stderr so far. */
  stderr(): string;
  /** Sends `signal` and resolves with the exit code (null when a signal ended it). */
  stop(signal: NodeJS.Signals): Promise<number | null>;
}

/** Starts `preflight worker` and waits until it works the queue. */
export async function startWorker(env: Record<string, string>, args: string[] = []): Promise<RunningWorker> {
  const home = mkdtempSync(join(tmpdir(), 'preflight-worker-'));
  const proc = spawn(process.execPath, [BIN, 'worker', ...args], {
    env: { ...process.env, PREFLIGHT_HOME: home, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((done) => proc.on('exit', (code) => done(code)));
  await new Promise<void>((ready, fail) => {
    proc.stdout!.on('data', (d: Buffer) => d.toString().includes('preflight worker: working') && ready());
    void exited.then((code) => fail(new Error(`worker exited ${code}: ${stderr}`)));
  });
  return {
    proc,
    pid: proc.pid!,
    home,
    stderr: () => stderr,
    stop(signal) {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}
