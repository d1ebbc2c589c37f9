// Where the machine's Chromium is, for the browser tests: PREFLIGHT_CHROMIUM when set, else Debian's chromium on
// PATH. Without one those tests are reported skipped with INSTALL_HINT (.ci/run installs it, so CI always runs them).
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export const INSTALL_HINT = 'Chromium not found: apt-get install chromium (or set PREFLIGHT_CHROMIUM to its path) to run the browser tests.';

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.PREFLIGHT_CHROMIUM) return executable(env.PREFLIGHT_CHROMIUM) ? env.PREFLIGHT_CHROMIUM : null;
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of ['chromium', 'chromium-browser']) if (executable(join(dir, name))) return join(dir, name);
  }
  return null;
}
