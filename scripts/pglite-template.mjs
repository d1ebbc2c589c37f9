// `npm run build`, after tsc: initialises and migrates an embedded database once and keeps its data dir as a template
// (dist/pglite-template/), so that a new PREFLIGHT_HOME's database loads in under a second instead of running
// PGlite's initdb (about 5 s of CPU) at every first start.
import { Buffer } from 'node:buffer';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openDatabase } from '../dist/src/storage/database.js';
import { pgliteTemplatePath } from '../dist/src/storage/pglite-template.js';

const target = pgliteTemplatePath();
if (!target) throw new Error('pglite-template: cannot tell where the template goes');
rmSync(dirname(target), { recursive: true, force: true });
const dir = mkdtempSync(join(tmpdir(), 'preflight-pglite-template-'));
try {
  const db = await openDatabase({ dir });
  const dump = await db.sql.db.dumpDataDir('gzip');
  await db.close();
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, Buffer.from(await dump.arrayBuffer()));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
