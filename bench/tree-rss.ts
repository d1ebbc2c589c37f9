// Peak resident memory of a whole process tree (node, its ffmpeg children, worker threads), polled from /proc: the
// kernel's per-process peak (maxRSS) cannot add up processes that peak at different times.
import { readFileSync, readdirSync } from 'node:fs';
import { execa } from 'execa';
import { ffmpegPath } from '../engine/ffmpeg/binaries.js';

function children(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

function rssKb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

export function treeRssKb(root: number): number {
  let total = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    total += rssKb(pid);
    stack.push(...children(pid));
  }
  return total;
}

/** Polls the tree of `pid` every `ms` until stopped; `stop()` returns the peak, MB. */
export function watchTreeRss(pid: number, ms = 100): { stop: () => number } {
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, treeRssKb(pid))), ms);
  return {
    stop: () => {
      clearInterval(timer);
      return peak / 1024;
    },
  };
}

export interface TimedProcess {
  seconds: number;
  /** Peak RSS of the process tree, MB. */
  peakMb: number;
  stdout: string;
}

/** Runs `file` with `args` as a process, timed from outside, with the peak RSS of its tree. */
export async function timedProcess(file: string, args: string[]): Promise<TimedProcess> {
  const t = performance.now();
  const child = execa(file, args, { stdin: 'ignore', reject: false, maxBuffer: 256 * 1024 * 1024 });
  const rss = watchTreeRss(child.pid!);
  const result = await child;
  const peakMb = rss.stop();
  return { seconds: (performance.now() - t) / 1000, peakMb, stdout: String(result.stdout) };
}

/** A bare decode of `path` by the same ffmpeg the checks run: the yardstick of every speed ratio. */
export const bareDecode = (path: string) => timedProcess(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', '-i', path, '-f', 'null', '-']);
