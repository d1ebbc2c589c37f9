// How many queued jobs a worker runs at once. Each check runs one ffmpeg decode that already uses several threads, so
// the default is the machine's cores or the memory free at start (768 MB per check), whichever allows fewer. The
// 1-minute load is left out, unlike the batch's default: a worker runs for longer than any load it starts under.
import { availableParallelism, freemem } from 'node:os';
import { InvalidArgumentError } from 'commander';
import { defaultJobs, MAX_JOBS } from '../cli/batch/jobs.js';

export function defaultConcurrency(): number {
  return defaultJobs({ cores: availableParallelism(), load1: 0, freeBytes: freemem() });
}

/** A --concurrency value (commander's argument parser): a whole number from 1 to 64. */
export function parseConcurrency(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_JOBS) throw new InvalidArgumentError(`needs a whole number from 1 to ${MAX_JOBS}.`);
  return n;
}
