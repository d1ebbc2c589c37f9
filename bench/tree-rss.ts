// Peak resident memory of a whole process tree (node, its ffmpeg children, worker threads), polled from /proc: the
// kernel's per-process peak (maxRSS) cannot add up processes that peak at different times.
import { readFileSync, readdirSync } from 'node:fs';

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
