// `preflight check one.mp4` behaves exactly as before; several files, a directory, a glob or a batch option make a batch.
import { stat } from 'node:fs/promises';

export interface BatchModeFlags {
  recursive?: boolean;
  jobs?: string;
  reportDir?: string;
  export?: string;
  reuse?: boolean;
  format?: string;
}

export async function isBatch(files: readonly string[], flags: BatchModeFlags): Promise<boolean> {
  if (files.length > 1) return true;
  if (flags.recursive || flags.jobs !== undefined || flags.reportDir !== undefined || flags.export !== undefined || flags.reuse === false) return true;
  if (flags.format !== undefined && flags.format !== 'text') return true;
  if (files.length === 0) return false;
  const stats = await stat(files[0]).catch(() => null);
  if (stats) return stats.isDirectory();
  // The glob library loads only for an argument that names no file.
  const { isDynamicPattern } = await import('tinyglobby');
  return isDynamicPattern(files[0]);
}
