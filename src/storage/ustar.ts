// Unpacks the build's database template (a gzipped ustar archive of PGlite's data dir, as its dumpDataDir writes it)
// into a folder with Node's own zlib and file calls. PGlite's loadDataDir reads the same archive in JavaScript and
// writes every file through its emulated file system, which cost about 0.5 s and 0.75 s of CPU of a first start.
// Only what that archive holds is accepted (regular files and folders under plain relative names); anything else
// throws, and the caller loads the template the slow way instead.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

const BLOCK = 512;
/** The template is about 15 MB unpacked; an archive that claims more is not ours. */
const MAX_UNPACKED_BYTES = 256 * 1024 * 1024;

const text = (header: Buffer, at: number, length: number): string => {
  const field = header.subarray(at, at + length);
  const end = field.indexOf(0);
  return field.subarray(0, end < 0 ? length : end).toString('utf8');
};

function octal(header: Buffer, at: number, length: number): number {
  const digits = text(header, at, length).trim();
  if (!/^[0-7]{1,12}$/.test(digits)) throw new Error(`template archive: bad number field ${JSON.stringify(digits)}`);
  return Number.parseInt(digits, 8);
}

/** The header's name as a path under the folder: no absolute part, no `.` or `..` segment. */
function relativeName(header: Buffer): string {
  const prefix = text(header, 345, 155);
  const name = `${prefix ? `${prefix}/` : ''}${text(header, 0, 100)}`;
  const segments = name.split('/').filter((s) => s !== '');
  if (segments.length === 0 || segments.some((s) => s === '.' || s === '..' || s.includes('\\'))) {
    throw new Error(`template archive: unexpected entry name ${JSON.stringify(name)}`);
  }
  return segments.join('/');
}

function checksumMatches(header: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  return sum === octal(header, 148, 8);
}

/** Writes the archive's folders and files under `dir` (which exists). */
export function unpackGzippedUstar(archive: Buffer, dir: string): void {
  const tar = gunzipSync(archive, { maxOutputLength: MAX_UNPACKED_BYTES });
  for (let at = 0; at + BLOCK <= tar.length; ) {
    const header = tar.subarray(at, at + BLOCK);
    if (header.every((b) => b === 0)) return;
    if (!checksumMatches(header)) throw new Error(`template archive: bad header checksum at byte ${at}`);
    const type = String.fromCharCode(header[156]!);
    const size = octal(header, 124, 12);
    const path = join(dir, relativeName(header));
    const body = at + BLOCK;
    if (body + size > tar.length) throw new Error('template archive: truncated');
    if (type === '5') mkdirSync(path, { recursive: true, mode: 0o700 });
    else if (type === '0' || type === '\0') writeFileSync(path, tar.subarray(body, body + size), { mode: 0o600 });
    else throw new Error(`template archive: unsupported entry type ${JSON.stringify(type)}`);
    at = body + Math.ceil(size / BLOCK) * BLOCK;
  }
  throw new Error('template archive: no end marker');
}
