// A new embedded database is loaded from the template the build made (initialised and migrated once), not initialised
// afresh; an existing one is opened as it is.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { MIGRATIONS } from '../src/storage/migrations/index.js';
import { pgliteTemplatePath, pgliteVersion } from '../src/storage/pglite-template.js';
import { openSql, PGLITE_SHARED_BUFFERS } from '../src/storage/sql.js';
import { unpackGzippedUstar } from '../src/storage/ustar.js';

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
    // Unpacked by the fast way: a fallback (PGlite's loader, or initdb) says so on stderr.
    const warnings = vi.spyOn(process.stderr, 'write');
    const sql = await openSql({ dir: newDir() });
    expect(warnings.mock.calls.filter(([text]) => String(text).includes('template'))).toEqual([]);
    warnings.mockRestore();
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

describe('unpacking the template', () => {
  /** Every file under `dir` with its bytes' hash, by relative path; folders as ''. */
  const listing = (dir: string): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      const path = relative(dir, join(entry.parentPath, entry.name));
      out[path] = entry.isDirectory() ? '' : createHash('sha256').update(readFileSync(join(dir, path))).digest('hex');
    }
    return out;
  };

  it('writes what tar extracts from it, file for file and folder for folder', () => {
    const template = pgliteTemplatePath()!;
    const ours = newDir();
    mkdirSync(ours);
    unpackGzippedUstar(readFileSync(template), ours);
    const theirs = newDir();
    mkdirSync(theirs);
    // GNU tar strips the leading '/' of PGlite's names, as the unpacker does.
    execFileSync('tar', ['-xzf', template, '-C', theirs], { stdio: 'ignore' });
    const mine = listing(ours);
    expect(Object.keys(mine).length).toBeGreaterThan(400);
    expect(Object.values(mine).filter((hash) => hash === '').length).toBeGreaterThan(10);
    expect(mine).toEqual(listing(theirs));
  });

  it('refuses an archive it did not expect: names outside the folder, links, corrupt or cut-off archives', () => {
    const gzip = (tar: Buffer) => gzipSync(tar);
    const entry = (name: string, type: string, body = Buffer.alloc(0), sum?: number) => {
      const header = Buffer.alloc(512);
      header.write(name, 0, 'utf8');
      header.write('0000600\0', 100);
      header.write(`${body.length.toString(8).padStart(11, '0')}\0`, 124);
      header.write(type, 156);
      header.write('ustar\0' + '00', 257);
      header.fill(' ', 148, 156);
      let total = 0;
      for (const b of header) total += b;
      header.write(`${(sum ?? total).toString(8).padStart(6, '0')}\0 `, 148);
      const padded = Buffer.alloc(Math.ceil(body.length / 512) * 512);
      body.copy(padded);
      return Buffer.concat([header, padded]);
    };
    const end = Buffer.alloc(1024);
    const fine = gzip(Buffer.concat([entry('/base', '5'), entry('/base/1', '0', Buffer.from('one')), end]));
    const into = newDir();
    mkdirSync(into);
    unpackGzippedUstar(fine, into);
    expect(readFileSync(join(into, 'base/1'), 'utf8')).toBe('one');
    const refused: [string, Buffer, RegExp][] = [
      ['a name that climbs out', gzip(Buffer.concat([entry('../escape', '0', Buffer.from('x')), end])), /unexpected entry name/],
      ['a symbolic link', gzip(Buffer.concat([entry('link', '2'), end])), /unsupported entry type "2"/],
      ['a corrupt header', gzip(Buffer.concat([entry('base/2', '0', Buffer.from('x'), 1), end])), /checksum/],
      ['a cut-off file', gzip(entry('base/3', '0', Buffer.alloc(2048)).subarray(0, 1024)), /truncated/],
      ['no end marker', gzip(entry('base/4', '0', Buffer.from('x'))), /no end marker/],
    ];
    for (const [what, archive, message] of refused) expect(() => unpackGzippedUstar(archive, into), what).toThrow(message);
    expect(existsSync(join(into, '..', 'escape'))).toBe(false);
  });
});
