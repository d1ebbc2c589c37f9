// How many files to check at once. Each check runs one ffmpeg decode that already uses several threads, so the
// default stays at or below the cores that are free now and the memory a decode may need.
import { availableParallelism, freemem, loadavg } from 'node:os';

/** Memory one running check may take (an HD decode, its signal buffers and a report): conservative on purpose. */
export const MEMORY_PER_JOB_BYTES = 768 * 1024 * 1024;
export const MAX_JOBS = 64;

export interface MachineLoad {
  cores: number;
  load1: number;
  freeBytes: number;
}

export function currentLoad(): MachineLoad {
  return { cores: availableParallelism(), load1: loadavg()[0] ?? 0, freeBytes: freemem() };
}

/** Free cores (cores minus the 1-minute load) and free memory, whichever allows fewer; at least 1. */
export function defaultJobs(load: MachineLoad = currentLoad()): number {
  const freeCores = Math.floor(load.cores - load.load1);
  const byMemory = Math.floor(load.freeBytes / MEMORY_PER_JOB_BYTES);
  return Math.max(1, Math.min(freeCores, byMemory, load.cores, MAX_JOBS));
}
