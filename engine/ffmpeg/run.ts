import { execa } from 'execa';
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

/** Runs a binary with an argument array (never a shell), stdin ignored, a timeout and cancellation. */
export async function runTool(file: string, args: string[], opts: RunOptions): Promise<RunResult> {
  const result = await execa(file, args, {
    stdin: 'ignore',
    timeout: opts.timeoutMs,
    cancelSignal: opts.signal,
    forceKillAfterDelay: 2000,
    maxBuffer: opts.maxBuffer ?? 64 * 1024 * 1024,
    reject: false,
    encoding: 'utf8',
    stripFinalNewline: false,
  });
  if (result.timedOut) {
    throw new EngineError('timeout', `${file.split('/').pop()} did not finish within ${Math.round(opts.timeoutMs / 1000)} s and was stopped.`);
  }
  if (result.isCanceled) throw new EngineError('cancelled', 'The check was cancelled.');
  return { stdout: String(result.stdout ?? ''), stderr: String(result.stderr ?? ''), exitCode: result.exitCode ?? -1 };
}
