// A new embedded database starts from a data dir that the build initialised and migrated once
// (scripts/pglite-template.mjs): PGlite's initdb costs about 5 s of CPU, unpacking the template (./ustar.ts) and opening
// the database about 1.3 s. The template is named by the PGlite version that wrote it, so another PGlite never loads it
// and initialises afresh instead.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'preflight-qc';

/** The nearest folder at or above `from` whose package.json is named `name`. */
function packageDir(from: string, name: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === name) return dir;
      } catch {
        // an unreadable package.json on the way up is not ours
      }
    }
    if (dirname(dir) === dir) return null;
  }
}

/** The installed PGlite's version (its package exports no package.json, so it is found from its entry point). */
export function pgliteVersion(): string | null {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const dir = packageDir(dirname(entry), '@electric-sql/pglite');
  return dir ? ((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string }).version ?? null) : null;
}

/** Where the template for the installed PGlite lives, or null outside a Preflight package. */
export function pgliteTemplatePath(): string | null {
  const root = packageDir(dirname(fileURLToPath(import.meta.url)), PACKAGE_NAME);
  const version = pgliteVersion();
  return root && version ? join(root, 'dist', 'pglite-template', `pglite-${version}.tar.gz`) : null;
}

/** The template to load into a new data dir (a gzipped tar), or null when the build made none for this PGlite. */
export function pgliteTemplate(): Buffer | null {
  const path = pgliteTemplatePath();
  return path && existsSync(path) ? readFileSync(path) : null;
}
