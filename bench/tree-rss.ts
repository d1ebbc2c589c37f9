// Peak resident memory of a whole process tree (node, its ffmpeg children, worker threads), polled from /proc: the
// kernel's per-process peak (maxRSS) cannot add up processes that peak at different times. And the two yardsticks a
// check is measured against: a bare decode, and the check's own decode pass with nothing reading its output.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync, readdirSync } from 'node:fs';
import { execa } from 'execa';
import { decodePassArgs } from '../engine/analyse.js';
import { ffmpegPath } from '../engine/ffmpeg/binaries.js';
import { probe } from '../engine/probe.js';
import { decodeNeeds, type CheckOptions } from '../engine/check.js';

/** The processes `pid` started that are still running. */
export function children(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** The kernel's clock ticks a second (USER_HZ, 100 on Linux), the unit of /proc/<pid>/stat's CPU times. */
const CLOCK_TICKS = 100;

/**
 * User + system CPU seconds of a process (Linux /proc), with those of the children it has waited for when asked; 0 once
 * it has gone.
 */
export function cpuSeconds(pid: number, withWaitedChildren = false): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime, stime, cutime, cstime: fields 14 to 17 of stat, 12 to 15 after the command name.
    return fields.slice(11, withWaitedChildren ? 15 : 13).reduce((sum, f) => sum + Number(f), 0) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** A process's resident memory, kB: now (VmRSS) or its peak so far (VmHWM); 0 once it has gone. */
export function memoryKb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** What a process of a check's tree is, from its command line: node (the check), the OCR worker, ffmpeg, ffprobe. */
export function roleOf(pid: number): string {
  try {
    const [command, ...args] = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const name = command.split('/').pop() ?? command;
    // The OCR worker is node running its code from a string (engine/ocr/paddle/worker.ts), after its V8 flags.
    const code = args.find((a) => !a.startsWith('--'));
    return name === 'node' && code === '-e' ? 'OCR worker' : name;
  } catch {
    return 'gone';
  }
}

/** The resident memory of the tree of `root`, kB, by role (roleOf). */
export function treeRssByRole(root: number): Map<string, number> {
  const byRole = new Map<string, number>();
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    const kb = memoryKb(pid);
    if (kb > 0) {
      const role = roleOf(pid);
      byRole.set(role, (byRole.get(role) ?? 0) + kb);
    }
    stack.push(...children(pid));
  }
  return byRole;
}

export interface TreePeak {
  /** The tree's peak, MB. */
  mb: number;
  /** What each role held at that moment, MB, largest first: which process a growing peak grows in. */
  parts: [role: string, mb: number][];
}

/** Polls the tree of `pid` every `ms` until stopped; `stop()` returns its peak and the peak's parts. */
export function watchTreeRss(pid: number, ms = 100): { stop: () => TreePeak } {
  let peak: TreePeak = { mb: 0, parts: [] };
  const timer = setInterval(() => {
    const byRole = treeRssByRole(pid);
    const kb = [...byRole.values()].reduce((a, b) => a + b, 0);
    if (kb / 1024 > peak.mb) peak = { mb: kb / 1024, parts: [...byRole].map(([role, k]): [string, number] => [role, k / 1024]).sort((a, b) => b[1] - a[1]) };
  }, ms);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

/** "node 219 + OCR worker 307 + ffmpeg 41 MB". */
export const partsText = (peak: TreePeak): string => `${peak.parts.map(([role, mb]) => `${role} ${mb.toFixed(0)}`).join(' + ')} MB`;

export interface TimedProcess {
  seconds: number;
  /** Peak RSS of the process tree and what each process held at that moment (watchTreeRss). */
  peak: TreePeak;
  stdout: string;
}

/** Runs `file` with `args` as a process, timed from outside, with the peak RSS of its tree. */
export async function timedProcess(file: string, args: string[]): Promise<TimedProcess> {
  const t = performance.now();
  const child = execa(file, args, { stdin: 'ignore', reject: false, maxBuffer: 256 * 1024 * 1024 });
  const rss = watchTreeRss(child.pid!);
  const result = await child;
  const peak = rss.stop();
  return { seconds: (performance.now() - t) / 1000, peak, stdout: String(result.stdout) };
}

/** A bare decode of `path` by the same ffmpeg the checks run: the yardstick of every speed ratio. */
export const bareDecode = (path: string) => timedProcess(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', '-i', path, '-f', 'null', '-']);

/**
 * Seconds the ffmpeg of a check with `opts` (its decode pass) takes with its pipes on /dev/null, where nothing reads
 * them: the downscale and the PCM conversion a bare decode does not do, not the pipes' transport. With `through`
 * 'pipes', each output goes into a pipe that a `cat` empties into /dev/null: the bytes' way into a reader too, which a
 * check pays on its decoder's thread (an hour of stereo PCM is 1.4 GB), and still no analysis. No check is cheaper.
 */
export async function decodePassAlone(path: string, opts: Pick<CheckOptions, 'checks'> = {}, through: 'devnull' | 'pipes' = 'devnull'): Promise<number> {
  const media = await probe(path);
  const args = decodePassArgs(media, decodeNeeds(media, opts));
  const pipes = args.filter((a) => a.startsWith('pipe:')).length;
  const devNull = openSync('/dev/null', 'w');
  try {
    const t = performance.now();
    const child =
      through === 'devnull'
        ? spawn(ffmpegPath(), args, { stdio: ['ignore', 'ignore', 'pipe', ...Array<number>(pipes).fill(devNull)] })
        : spawn('bash', ['-c', `exec "$0" "$@" ${Array.from({ length: pipes }, (_, k) => `${3 + k}> >(exec cat > /dev/null)`).join(' ')}`, ffmpegPath(), ...args], {
            stdio: ['ignore', 'ignore', 'pipe'],
          });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += String(d)));
    const [code] = (await once(child, 'close')) as [number | null];
    if (code !== 0) throw new Error(`the decode pass alone failed: ${stderr.trim()}`);
    return (performance.now() - t) / 1000;
  } finally {
    closeSync(devNull);
  }
}
