import { writeFileSync } from 'node:fs';
import { CliError } from './exit.js';

export function writeOutput(path: string, content: string, what: string): void {
  try {
    writeFileSync(path, content);
  } catch (err) {
    throw new CliError(`could not write the ${what} to ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}
