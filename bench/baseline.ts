// Another build measured beside this one in the same run, so a before/after pair shares the machine's state: set
// PREFLIGHT_BENCH_BASELINE to that build's checkout (its dependencies installed and `npm run build` done there), e.g.
// `git worktree add /tmp/base <commit> && (cd /tmp/base && npm ci)`. Its checks run between the same bare decodes as
// this build's.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execaSync } from 'execa';

export interface Baseline {
  cli: string;
  /** The checkout's commit, short, or its path when it is not a git checkout. */
  label: string;
}

let found: Baseline | null | undefined;

/** The baseline build's CLI, or null when PREFLIGHT_BENCH_BASELINE is unset; a path that holds no built CLI is an error. */
export function baseline(): Baseline | null {
  if (found !== undefined) return found;
  const dir = process.env.PREFLIGHT_BENCH_BASELINE;
  if (!dir) return (found = null);
  const root = resolve(dir);
  const cli = join(root, 'bin/preflight.js');
  if (!existsSync(cli)) throw new Error(`PREFLIGHT_BENCH_BASELINE=${dir}: no bin/preflight.js there (a checkout of this project is expected)`);
  const git = execaSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { reject: false });
  return (found = { cli, label: git.exitCode === 0 ? `baseline ${String(git.stdout).trim()}` : `baseline ${root}` });
}

/** Runs `runs` one after another, starting with run `turn` (mod their count), and answers their results in their own order. */
export async function inTurn<T>(runs: (() => Promise<T>)[], turn: number): Promise<T[]> {
  const out: T[] = [];
  for (let k = 0; k < runs.length; k++) {
    const i = (k + turn) % runs.length;
    out[i] = await runs[i]();
  }
  return out;
}
