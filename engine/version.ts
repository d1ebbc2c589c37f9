// The engine's name and version, apart from the engine itself: `preflight --version` and `--help` print it without
// loading the gates.
import { createRequire } from 'node:module';

/** The npm package this engine ships in; its package.json gives ENGINE_VERSION. */
export const PACKAGE_NAME = 'preflight-qc';

function packageVersion(): string {
  const require = createRequire(import.meta.url);
  // engine/ in the source tree, dist/engine/ and the bundled CLI in dist/cli/ all sit one or two levels below it.
  for (const candidate of ['../package.json', '../../package.json']) {
    try {
      const pkg = require(candidate) as { name?: string; version?: string };
      if (pkg.name === PACKAGE_NAME && pkg.version) return pkg.version;
    } catch {
      /* try the next location (source tree vs dist/) */
    }
  }
  return '0.0.0';
}

export const ENGINE_VERSION = packageVersion();
