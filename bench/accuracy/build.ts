// Builds the accuracy corpus under .cache/corpus (git-ignored): each entry once, reused while its recipe is unchanged.
// Entries whose material is missing are reported unavailable with the apt-get hint; the rest still build.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CORPUS, type CorpusEntry } from './corpus.js';
import { findMaterials, missingHint, type Materials } from './materials.js';
import { Parts } from './parts.js';

export interface BuiltEntry {
  entry: CorpusEntry;
  /** The corpus file, or null when unavailable or failed. */
  path: string | null;
  /** Why the entry could not be built on this machine (with the install hint). */
  unavailable?: string;
  error?: string;
  buildSeconds: number;
}

export interface BuildOptions {
  dir?: string;
  entries?: CorpusEntry[];
  materials?: Materials;
  concurrency?: number;
  onEntry?: (b: BuiltEntry) => void;
  /** Delete files in the corpus directory that no entry used (after a full build where every entry was built). */
  prune?: boolean;
}

/** The repository root, from source (bench/accuracy) or compiled (dist/bench/accuracy) code alike. */
export function repoRoot(): string {
  let dir = import.meta.dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('package.json not found above bench/accuracy');
    dir = up;
  }
  return dir;
}

const defaultCorpusDir = () => resolve(repoRoot(), '.cache/corpus');

/** Runs `fn` over `items` with at most `limit` at once, results in input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

export async function buildCorpus(opts: BuildOptions = {}): Promise<{ built: BuiltEntry[]; seconds: number; dir: string }> {
  const dir = opts.dir ?? defaultCorpusDir();
  const materials = opts.materials ?? findMaterials();
  const kit = { parts: new Parts(dir), materials };
  const started = performance.now();
  const built = await mapLimit(opts.entries ?? CORPUS, opts.concurrency ?? 2, async (entry) => {
    const t = performance.now();
    const hint = missingHint(materials, entry.needs);
    let result: BuiltEntry;
    if (hint) result = { entry, path: null, unavailable: hint, buildSeconds: 0 };
    else {
      try {
        result = { entry, path: await entry.build(kit), buildSeconds: (performance.now() - t) / 1000 };
      } catch (err) {
        result = { entry, path: null, error: (err as Error).message, buildSeconds: (performance.now() - t) / 1000 };
      }
    }
    opts.onEntry?.(result);
    return result;
  });
  if (opts.prune && built.every((b) => b.path)) prune(dir, kit.parts.partsDir, kit.parts.used);
  return { built, seconds: (performance.now() - started) / 1000, dir };
}

/** Removes corpus files and parts that this build did not use (older recipes). */
function prune(dir: string, partsDir: string, used: Set<string>): void {
  for (const d of [dir, partsDir]) {
    if (!existsSync(d)) continue;
    for (const name of readdirSync(d, { withFileTypes: true })) {
      if (name.isFile() && !used.has(join(d, name.name))) rmSync(join(d, name.name), { force: true });
    }
  }
}
