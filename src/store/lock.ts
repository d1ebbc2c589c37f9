// One process owns a data dir. The lock file names its owner (pid, the pid's start time, host name, a random token)
// and the owner touches it every few seconds. A lock is stale, and taken over, when its pid is gone or now belongs to
// another process (a different start time), or when it has not been touched for LOCK_STALE_MS (an owner on another
// host, or a system without /proc). So a crash never blocks the data dir for good, and an unrelated live process
// that happens to have the recorded pid does not either.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ServiceError } from '../errors.js';

const LOCK_FILE = 'preflight.lock';
export const LOCK_REFRESH_MS = 10_000;
export const LOCK_STALE_MS = 60_000;
/** A lock file being written by its new owner may be empty for a moment: it is not stale before this age. */
const LOCK_CREATION_GRACE_MS = 2_000;

export interface LockOwner {
  pid: number;
  /** The pid's start time in clock ticks after boot (Linux /proc); null where it cannot be read. */
  pidStartTicks: string | null;
  hostname: string;
  token: string;
  acquiredAt: string;
}

/** Start time of a process (field 22 of /proc/<pid>/stat), or null when there is no such process or no /proc. */
export function processStartTicks(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may contain spaces: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(path: string): LockOwner | null {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    if (typeof parsed.pid !== 'number' || typeof parsed.token !== 'string') return null;
    return {
      pid: parsed.pid,
      pidStartTicks: typeof parsed.pidStartTicks === 'string' ? parsed.pidStartTicks : null,
      hostname: typeof parsed.hostname === 'string' ? parsed.hostname : '',
      token: parsed.token,
      acquiredAt: typeof parsed.acquiredAt === 'string' ? parsed.acquiredAt : '',
    };
  } catch {
    return null;
  }
}

function ageMs(path: string): number | null {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/** Why a lock of `age` ms no longer holds, or null while its owner holds it. */
export function staleReason(owner: LockOwner | null, age: number): string | null {
  if (owner === null) return age > LOCK_CREATION_GRACE_MS ? 'the lock file is unreadable' : null;
  const unrefreshed = age > LOCK_STALE_MS ? `the lock was last refreshed ${Math.round(age / 1000)} s ago` : null;
  if (owner.hostname !== hostname()) return unrefreshed;
  if (!alive(owner.pid)) return `process ${owner.pid} is gone`;
  const ticks = processStartTicks(owner.pid);
  if (owner.pidStartTicks === null || ticks === null) return unrefreshed;
  return ticks === owner.pidStartTicks ? null : `pid ${owner.pid} now belongs to another process`;
}

/** Data dirs this process holds: a second open in the same process is refused too. */
const held = new Set<string>();

export interface DataDirLock {
  release(): void;
}

function lockedError(home: string, owner: LockOwner | null): ServiceError {
  const who = owner ? `pid ${owner.pid} on ${owner.hostname || 'an unknown host'}` : 'a process that is starting';
  return new ServiceError(
    'data_dir_locked',
    `Another Preflight process (${who}) is using the data dir ${home}. Stop it, or set PREFLIGHT_HOME to another directory. A lock left by a crash is taken over once its process is gone, or ${LOCK_STALE_MS / 1000} s after it was last refreshed.`,
    { pid: owner?.pid ?? null, hostname: owner?.hostname ?? null },
    409,
  );
}

export function acquireDataDirLock(home: string): DataDirLock {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const path = join(home, LOCK_FILE);
  if (held.has(path)) {
    throw new ServiceError('data_dir_locked', `This process is already using the data dir ${home}.`, { pid: process.pid }, 409);
  }
  const mine: LockOwner = {
    pid: process.pid,
    pidStartTicks: processStartTicks(process.pid),
    hostname: hostname(),
    token: randomBytes(16).toString('hex'),
    acquiredAt: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, JSON.stringify(mine), { flag: 'wx', mode: 0o600 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = readOwner(path);
      if (staleReason(owner, ageMs(path) ?? 0) === null) throw lockedError(home, owner);
      rmSync(path, { force: true });
      continue;
    }
    // Two processes taking over the same stale lock at once: only the one whose token is in the file goes on.
    if (readOwner(path)?.token !== mine.token) throw lockedError(home, readOwner(path));
    return holdLock(path, mine.token);
  }
  throw lockedError(home, readOwner(path));
}

function holdLock(path: string, token: string): DataDirLock {
  held.add(path);
  const ours = () => readOwner(path)?.token === token;
  const refresh = setInterval(() => {
    try {
      if (ours()) utimesSync(path, new Date(), new Date());
    } catch {
      /* the next refresh tries again */
    }
  }, LOCK_REFRESH_MS);
  refresh.unref();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    clearInterval(refresh);
    held.delete(path);
    if (ours()) rmSync(path, { force: true });
  };
  process.once('exit', release);
  return { release };
}
