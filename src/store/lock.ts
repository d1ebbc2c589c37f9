// One process owns a data dir: a lock file with the owner's pid; a live owner means a clear error, a dead one is taken over.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceError } from '../errors.js';

const LOCK_FILE = 'preflight.lock';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(path: string): number | null {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown };
    return typeof parsed.pid === 'number' ? parsed.pid : null;
  } catch {
    return null;
  }
}

/** Data dirs this process holds: a second open in the same process is refused too. */
const held = new Set<string>();

export interface DataDirLock {
  release(): void;
}

export function acquireDataDirLock(home: string): DataDirLock {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const path = join(home, LOCK_FILE);
  if (held.has(path)) {
    throw new ServiceError('data_dir_locked', `This process is already using the data dir ${home}.`, { pid: process.pid }, 409);
  }
  const body = JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, body, { flag: 'wx', mode: 0o600 });
      held.add(path);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        held.delete(path);
        if (readOwner(path) === process.pid) rmSync(path, { force: true });
      };
      process.once('exit', release);
      return { release };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = readOwner(path);
      if (owner !== null && owner !== process.pid && alive(owner)) {
        throw new ServiceError(
          'data_dir_locked',
          `Another Preflight process (pid ${owner}) is using the data dir ${home}. Stop it, or set PREFLIGHT_HOME to another directory.`,
          { pid: owner },
          409,
        );
      }
      // Stale lock from a process that died: take it over.
      rmSync(path, { force: true });
    }
  }
  throw new ServiceError('data_dir_locked', `Could not lock the data dir ${home}.`, {}, 409);
}
