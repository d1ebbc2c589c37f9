// A new embedded database is loaded from the template the build made (initialised and migrated once), not initialised
// afresh; an existing one is opened as it is.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/storage/migrations/index.js';
import { pgliteTemplatePath, pgliteVersion } from '../src/storage/pglite-template.js';
import { openSql, PGLITE_SHARED_BUFFERS } from '../src/storage/sql.js';

const dirs: string[] = [];
const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'preflight-template-'));
  dirs.push(dir);
  return join(dir, 'db');
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('the embedded database template', () => {
  it('is built for the installed PGlite', () => {
    expect(pgliteTemplatePath()).toMatch(new RegExp(`dist/pglite-template/pglite-${pgliteVersion()!.replaceAll('.', '\\.')}\\.tar\\.gz$`));
    expect(existsSync(pgliteTemplatePath()!)).toBe(true);
  });

  it('gives a new data dir the migrated schema before any migration runs', async () => {
    const sql = await openSql({ dir: newDir() });
    try {
      const rows = await sql.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version).sort((a, b) => a - b));
    } finally {
      await sql.close();
    }
  });

  it('leaves an existing database as it is', async () => {
    const dir = newDir();
    const first = await openSql({ dir });
    await first.exec('CREATE TABLE kept (note text); INSERT INTO kept VALUES (\'still here\')');
    await first.close();
    const again = await openSql({ dir });
    try {
      expect(await again.query('SELECT note FROM kept')).toEqual([{ note: 'still here' }]);
    } finally {
      await again.close();
    }
  });

  it('runs new, reopened and in-memory databases with small shared buffers (PGlite zeroes and keeps all of them)', async () => {
    const dir = newDir();
    for (const options of [{ dir }, { dir }, { dir: null }]) {
      const sql = await openSql(options);
      try {
        expect(await sql.query('SHOW shared_buffers')).toEqual([{ shared_buffers: PGLITE_SHARED_BUFFERS }]);
      } finally {
        await sql.close();
      }
    }
  });

  it('gives a new data dir only the database the store uses, with its WAL in 1 MB segments', async () => {
    const sql = await openSql({ dir: newDir() });
    try {
      expect(await sql.query('SELECT datname FROM pg_database ORDER BY datname')).toEqual([{ datname: 'postgres' }]);
      expect(await sql.query('SHOW wal_segment_size')).toEqual([{ wal_segment_size: '1MB' }]);
    } finally {
      await sql.close();
    }
  });
});
