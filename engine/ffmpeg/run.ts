// Runs the engine's tools (ffprobe, ffmpeg, mkfifo) with node:child_process. A check spawns its first tool within a
// few milliseconds of starting, so this module loads nothing else: execa, which it used before, took 23 ms to load,
// on the way to a check's first decoded frame (npm run bench -- startup).
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { EngineError } from '../errors.js';

export interface RunOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  maxBuffer?: number;
}

export interface RunResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface SpawnOptions {
  stdio: StdioOptions;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface ToolExit {
  /** The tool's exit code; -1 when it was killed by a signal or could not be started. */
  exitCode: number;
  timedOut: boolean;
  isCanceled: boolean;
  /** Why the tool could not be started (ENOENT, EACCES ...), or null. */
  spawnError: Error | null;
}

export interface SpawnedTool {
  child: ChildProcess;
  /** Settles once the tool has exited and its pipes are closed; never rejects. */
  exit: Promise<ToolExit>;
}

/**
 * Starts a binary with an argument array (never a shell). It is killed (SIGKILL: a stuck decoder may ignore SIGTERM,
 * and nothing it would write on the way out is kept) when `timeoutMs` passes or `signal` aborts.
 */
export function spawnTool(file: string, args: string[], opts: SpawnOptions): SpawnedTool {
  const child = spawn(file, args, { stdio: opts.stdio });
  let timedOut = false;
  let isCanceled = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, opts.timeoutMs);
  const cancel = () => {
    isCanceled = true;
    child.kill('SIGKILL');
  };
  if (opts.signal?.aborted) cancel();
  else opts.signal?.addEventListener('abort', cancel, { once: true });
  const exit = new Promise<ToolExit>((resolve) => {
    const settle = (exitCode: number | null, spawnError: Error | null) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', cancel);
      resolve({ exitCode: exitCode ?? -1, timedOut, isCanceled, spawnError });
    };
    child.once('error', (err) => settle(null, err));
    child.once('close', (code) => settle(code, null));
  });
  return { child, exit };
}

/** Collects a stream's text up to `limit` bytes; `over` is called once when more arrives. */
function collect(stream: NodeJS.ReadableStream | null, limit: number, over: () => void): () => string {
  const chunks: Buffer[] = [];
  let bytes = 0;
  stream?.on('data', (chunk: Buffer) => {
    if (bytes >= limit) return;
    bytes += chunk.length;
    chunks.push(bytes > limit ? chunk.subarray(0, chunk.length - (bytes - limit)) : chunk);
    if (bytes >= limit) over();
  });
  return () => Buffer.concat(chunks).toString('utf8');
}

/** Runs a binary with an argument array (never a shell), stdin ignored, a timeout and cancellation; output bounded by `maxBuffer`. */
export async function runTool(file: string, args: string[], opts: RunOptions): Promise<RunResult> {
  if (opts.signal?.aborted) throw new EngineError('cancelled', 'The check was cancelled.');
  const { child, exit } = spawnTool(file, args, { stdio: ['ignore', 'pipe', 'pipe'], timeoutMs: opts.timeoutMs, signal: opts.signal });
  const limit = opts.maxBuffer ?? 64 * 1024 * 1024;
  const tooMuch = () => child.kill('SIGKILL');
  const stdout = collect(child.stdout, limit, tooMuch);
  const stderr = collect(child.stderr, limit, tooMuch);
  const ended = await exit;
  if (ended.timedOut) {
    throw new EngineError('timeout', `${file.split('/').pop()} did not finish within ${Math.round(opts.timeoutMs / 1000)} s and was stopped.`);
  }
  if (ended.isCanceled) throw new EngineError('cancelled', 'The check was cancelled.');
  return { stdout: stdout(), stderr: ended.spawnError ? ended.spawnError.message : stderr(), exitCode: ended.exitCode };
}
