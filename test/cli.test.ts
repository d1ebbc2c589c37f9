// The real CLI in a real process: exit codes, outputs on disk, receipts, and bad input that must never crash or hang.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, mkdirSync, statSync, openSync, writeSync, closeSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { deflateSync } from 'node:zlib';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import * as fx from './helpers/fixtures.js';
import { generate } from './helpers/media.js';

const BIN = resolve(import.meta.dirname, '../bin/preflight.js');
const work = mkdtempSync(join(tmpdir(), 'preflight-cli-'));
const env = { PREFLIGHT_HOME: join(work, 'home'), PREFLIGHT_SIGNING_KEY: undefined };

async function cli(args: string[], extraEnv: Record<string, string | undefined> = {}) {
  const r = await execa('node', [BIN, ...args], { reject: false, timeout: 120_000, env: { ...env, ...extraEnv }, extendEnv: true, stdin: 'ignore' });
  return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr), timedOut: r.timedOut };
}

beforeAll(() => {
  // The CLI runs from dist/ (npm test builds it first).
  statSync(resolve(import.meta.dirname, '../dist/src/cli.js'));
});

describe('preflight check', () => {
  it('exits 0 on PASS and prints a readable summary', async () => {
    const r = await cli(['check', await fx.cleanShort(), '--profile', 'generic_creator_video']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^PASS {2}clean/);
    expect(r.stdout).toContain('Upload-ready.');
  });

  it('exits 1 on BLOCK, writes markers, EDL and a receipt that verifies', async () => {
    const file = await fx.blackInterior();
    const markers = join(work, 'm.csv');
    const edl = join(work, 'm.edl');
    const receipt = join(work, 'r.json');
    const fcpxml = join(work, 'm.fcpxml');
    const avid = join(work, 'm-avid.txt');
    const premiere = join(work, 'm-premiere.xml');
    const html = join(work, 'report.html');
    const r = await cli(['check', file, '--json', '--markers', markers, '--edl', edl, '--receipt', receipt, '--fcpxml', fcpxml, '--avid', avid, '--premiere-xml', premiere, '--html', html]);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.verdict).toBe('BLOCK');
    expect(readFileSync(markers, 'utf8')).toMatch(/^timecode,start_seconds,end_seconds,severity,gate,summary,instruction/);
    expect(readFileSync(markers, 'utf8')).toContain('00:00:04:00,4.000');
    expect(readFileSync(edl, 'utf8')).toContain('|C:ResolveColorRed');
    expect(readFileSync(fcpxml, 'utf8')).toContain('<fcpxml version="1.9">');
    expect(readFileSync(avid, 'utf8').split('\n')[0].split('\t')).toHaveLength(8);
    expect(readFileSync(premiere, 'utf8')).toContain('<xmeml version="4">');
    expect(readFileSync(html, 'utf8')).toMatch(/<!DOCTYPE html>[\s\S]*black_frames[\s\S]*preflight-receipt\/1/i);
    const signed = JSON.parse(readFileSync(receipt, 'utf8'));
    expect(signed).toMatchObject({ schema: 'preflight-receipt/1', verdict: 'BLOCK', sha256: report.media.sha256 });
    expect(signed.blocked).toContain('black_frames');

    const ok = await cli(['verify', receipt, '--file', file]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('file hash matches');

    const other = await cli(['verify', receipt, '--file', await fx.cleanShort()]);
    expect(other.code).toBe(1);

    const tampered = join(work, 'tampered.json');
    writeFileSync(tampered, JSON.stringify({ ...signed, verdict: 'PASS', blocked: [] }));
    const bad = await cli(['verify', tampered]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^INVALID/);

    // The Ed25519 signature is checked with this data dir's public key; another data dir holds no key for it.
    const otherKey = await cli(['verify', receipt], { PREFLIGHT_SIGNING_KEY: 'a-different-signing-key-0123456789' });
    expect(otherKey.code).toBe(0);
    const otherHome = await cli(['verify', receipt], { PREFLIGHT_HOME: join(work, 'other-home') });
    expect(otherHome.code).toBe(2);
    expect(otherHome.stdout).toMatch(/^cannot verify: .*--public-key keys\.json/s);
  });

  it('--fail-on watch turns a WATCH into exit 1', async () => {
    const file = await fx.letterbox();
    expect((await cli(['check', file, '--checks', 'canvas_fill', '--profile', 'generic_creator_video'])).code).toBe(0);
    expect((await cli(['check', file, '--checks', 'canvas_fill', '--profile', 'generic_creator_video', '--fail-on', 'watch'])).code).toBe(1);
  });

  it('rejects an unknown check or profile with exit 2 and the valid names', async () => {
    const file = await fx.cleanShort();
    const checks = await cli(['check', file, '--checks', 'black_frames,nope']);
    expect(checks.code).toBe(2);
    expect(checks.stderr).toMatch(/Unknown check: nope\. Valid checks: .*loop_freeze/);
    const profile = await cli(['check', file, '--profile', 'tiktok']);
    expect(profile.code).toBe(2);
    expect(profile.stderr).toMatch(/Unknown profile "tiktok"\. Valid profiles: auto/);
  });
});

describe('preflight check with sidecars', () => {
  it('reads sidecar flags, checks sidecars alone, and refuses broken sidecars with exit 2', async () => {
    const transcript = join(work, 'talk.srt');
    writeFileSync(transcript, '1\n00:00:00,500 --> 00:00:03,000\nWelcome to the show.\n\n2\n00:00:03,500 --> 00:00:06,000\nThat is all for today.\n');
    const alone = await cli(['check', '--transcript', transcript, '--json', '--profile', 'generic_creator_video']);
    expect([0, 1]).toContain(alone.code);
    const report = JSON.parse(alone.stdout);
    expect(report.warnings.join(' ')).toContain('Sidecar-only check');
    expect(report.gates.find((g: { gate: string }) => g.gate === 'black_frames')).toMatchObject({ status: 'skipped', reason: expect.stringContaining('sidecars only') });
    expect(report.media.durationSeconds).toBe(6);

    const withMedia = await cli(['check', await fx.cleanShort(), '--transcript', transcript, '--json']);
    expect([0, 1]).toContain(withMedia.code);

    const broken = join(work, 'broken.srt');
    writeFileSync(broken, '1\n00:00:05,000 --> 00:00:02,000\nBackwards.\n');
    const bad = await cli(['check', await fx.cleanShort(), '--transcript', broken]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^preflight: transcript_path .*broken\.srt/);
    expect(bad.stderr).not.toMatch(/\n\s+at /);

    const nothing = await cli(['check']);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(/Give a media file, or sidecars/);
    const receiptless = await cli(['check', '--transcript', transcript, '--receipt', join(work, 'r2.json')]);
    expect(receiptless.code).toBe(2);
    expect(receiptless.stderr).toMatch(/--receipt needs a media file/);
  });
});

/** A valid 12000×12000 PNG (144 megapixels): probing must refuse it before decoding. */
function hugePngHeader(path: string): string {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(12000, 0);
  ihdr.writeUInt32BE(12000, 4);
  ihdr[8] = 1; // 1-bit greyscale keeps the (all-black) pixel data small
  ihdr[9] = 0;
  const pixels = deflateSync(Buffer.alloc(12000 * (1 + 1500)));
  writeFileSync(path, Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]));
  return path;
}

/** A WAV header that declares no samples. */
function emptyWav(path: string): string {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36, 4);
  h.write('WAVEfmt ', 8);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(2, 22);
  h.writeUInt32LE(48000, 24);
  h.writeUInt32LE(192000, 28);
  h.writeUInt16LE(4, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36);
  h.writeUInt32LE(0, 40);
  writeFileSync(path, h);
  return path;
}

/** Copies an MP4 and writes a 90° display matrix into its (single) track header, as phones do. */
function rotated90(src: string): string {
  const out = join(work, 'rotated.mp4');
  const data = Buffer.from(readFileSync(src));
  const at = data.indexOf('tkhd');
  if (at < 0) throw new Error('no tkhd box');
  const matrix = at - 4 + 48;
  const values = [0, 0x00010000, 0, 0xffff0000, 0, 0, 0, 0, 0x40000000];
  values.forEach((v, i) => data.writeUInt32BE(v >>> 0, matrix + i * 4));
  writeFileSync(out, data);
  return out;
}

function truncated(src: string, name: string, fraction: number): string {
  const out = join(work, name);
  const data = readFileSync(src);
  writeFileSync(out, data.subarray(0, Math.floor(data.length * fraction)));
  return out;
}

function corrupted(src: string, name: string): string {
  const out = join(work, name);
  copyFileSync(src, out);
  const size = statSync(out).size;
  const fd = openSync(out, 'r+');
  // Deterministic garbage over a third of the file, past the header.
  const junk = Buffer.from(Array.from({ length: Math.floor(size / 3) }, (_, i) => (i * 7919 + 13) & 0xff));
  writeSync(fd, junk, 0, junk.length, Math.floor(size / 3));
  closeSync(fd);
  return out;
}

describe('bad input: a correct report or a clear error (exit 2), never a stack trace or a hang', () => {
  const errors: [string, () => Promise<string> | string, RegExp][] = [
    ['zero-byte file', () => (writeFileSync(join(work, 'empty.mp4'), ''), join(work, 'empty.mp4')), /is empty \(0 bytes\)/],
    ['text renamed .mp4', () => (writeFileSync(join(work, 'notes.mp4'), 'just some text\n'.repeat(50)), join(work, 'notes.mp4')), /not a media file/],
    ['missing file', () => join(work, 'nope.mp4'), /No file at/],
    ['directory', () => (mkdirSync(join(work, 'adir'), { recursive: true }), join(work, 'adir')), /is a directory/],
    ['huge dimensions', () => hugePngHeader(join(work, 'huge.png')), /megapixel limit/],
    ['0-duration media', () => emptyWav(join(work, 'empty.wav')), /no playable duration|not a media file|no video, audio/],
    ['subtitle-only file', () => (writeFileSync(join(work, 'subs.srt'), '1\n00:00:01,000 --> 00:00:02,000\nhello\n'), join(work, 'subs.srt')), /no video, audio or image stream/],
  ];
  for (const [name, make, message] of errors) {
    it(`${name}: exit 2 with a clear message`, async () => {
      const r = await cli(['check', await make()]);
      expect(r.timedOut).toBe(false);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^preflight: /);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stdout).toBe('');
    });
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the parsed report is checked field by field
  type ParsedReport = Record<string, any>;
  const reports: [string, () => Promise<string>, (report: ParsedReport) => void][] = [
    ['truncated container', async () => truncated(await generate('faststart.mp4', ['-f', 'lavfi', '-i', 'testsrc2=s=320x240:r=30:d=6', '-f', 'lavfi', '-i', 'sine=f=1000:d=6', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', '+faststart']), 'truncated.mp4', 0.5), () => {}],
    ['corrupt data', async () => corrupted(await fx.cleanShort(), 'corrupt.mp4'), () => {}],
    ['8-channel audio', () => generate('eight-channel.wav', ['-f', 'lavfi', '-i', "aevalsrc=exprs='0.1*sin(2*PI*500*t)|0.1*sin(2*PI*600*t)|0.1*sin(2*PI*700*t)|0.05*sin(2*PI*80*t)|0.1*sin(2*PI*800*t)|0.1*sin(2*PI*900*t)|0.1*sin(2*PI*1000*t)|0.1*sin(2*PI*1100*t)':c=7.1:s=48000:d=4"]), (r) => {
      expect(r.media.audio.channels).toBe(8);
      expect(r.gates.find((g: { gate: string }) => g.gate === 'loudness').measurements.integratedLufs).toEqual(expect.any(Number));
    }],
    ['10-bit HDR', () => generate('hdr10.mp4', ['-f', 'lavfi', '-i', 'testsrc2=s=640x360:r=25:d=3', '-c:v', 'libx265', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p10le', '-color_trc', 'smpte2084', '-color_primaries', 'bt2020', '-colorspace', 'bt2020nc', '-x265-params', 'log-level=error']), (r) => {
      expect(r.media.video.hdr).toBe(true);
    }],
    ['VFR phone footage', () => generate('vfr.mp4', ['-f', 'lavfi', '-i', 'testsrc2=s=640x360:r=30:d=5', '-vf', "settb=1/1000,setpts='(N/30+0.012*sin(N))/TB'", '-vsync', 'vfr', '-r', '1000', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p']), (r) => {
      expect(r.media.video.variableFrameRate).toBe(true);
    }],
    ['odd sizes', () => generate('odd.mp4', ['-f', 'lavfi', '-i', 'testsrc2=s=640x360:r=25:d=3', '-vf', 'scale=641:361', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv444p']), (r) => {
      expect(r.media.video.width).toBe(641);
    }],
    ['rotated video', async () => rotated90(await generate('landscape.mp4', ['-f', 'lavfi', '-i', 'testsrc2=s=640x360:r=30:d=3', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-an'])), (r) => {
      expect(r.media.video.rotation === 90 || r.media.video.rotation === 270).toBe(true);
      expect(r.media.video.displayWidth).toBe(360);
      expect(r.media.video.displayHeight).toBe(640);
    }],
  ];
  for (const [name, make, check] of reports) {
    it(`${name}: a report or a clear error`, async () => {
      const r = await cli(['check', await make(), '--json']);
      expect(r.timedOut).toBe(false);
      expect([0, 1, 2]).toContain(r.code);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      if (r.code === 2) {
        expect(r.stderr).toMatch(/^preflight: /);
      } else {
        const report = JSON.parse(r.stdout);
        expect(['PASS', 'WATCH', 'BLOCK']).toContain(report.verdict);
        check(report);
      }
    });
  }
});


describe('--help', () => {
  it('prints the usage of every command and exits 0; a bad option of a door command exits 2', async () => {
    for (const args of [['--help'], ['check', '--help'], ['verify', '--help'], ['serve', '--help'], ['mcp', '--help'], ['mcp', '-h']]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout, args.join(' ')).toMatch(/^Usage: preflight/);
    }
    expect((await cli(['serve', '--help'])).stdout).toMatch(/\/mcp[\s\S]*--port <port>/);
    expect((await cli(['mcp', '--help'])).stdout).toMatch(/--upload-port <port>/);
    const renamed = await cli(['mcp', '--http', '8788']);
    expect(renamed.code).toBe(2);
    expect(renamed.stderr).toMatch(/--http is now --upload-port/);
    const badPort = await cli(['serve', '--port', 'eighty']);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toMatch(/--port <port>.*invalid/);
  });

  it('reads a door command line before loading the server: the entries reach no service, storage or door package', () => {
    // The doors start from the CLI bundle (dist/cli/mcp.js, dist/cli/serve.js). What a chunk loads before it runs: its
    // static imports, followed through the bundle's own chunks; the door is a dynamic import, loaded once the options
    // are read.
    const BUNDLE = resolve(import.meta.dirname, '../dist/cli');
    const staticImports = (chunk: string): string[] =>
      [...readFileSync(join(BUNDLE, chunk), 'utf8').matchAll(/\bimport\s*(?:[\w*{][^;]*?from\s*)?["']([^"']+)["']/g)].map((m) => m[1]);
    const reached = (entry: string): { chunks: string[]; packages: string[] } => {
      const chunks = new Set<string>();
      const packages = new Set<string>();
      const visit = (chunk: string) => {
        if (chunks.has(chunk)) return;
        chunks.add(chunk);
        for (const spec of staticImports(chunk)) {
          if (spec.startsWith('./')) visit(spec.slice(2));
          else if (!spec.startsWith('node:')) packages.add(spec);
        }
      };
      visit(entry);
      return { chunks: [...chunks], packages: [...packages].sort() };
    };
    const doorOf = (entry: string) => /import\("\.\/([^"]+)"\)/.exec(readFileSync(join(BUNDLE, entry), 'utf8'))?.[1] ?? '';
    const SERVER_PACKAGES = /^(@modelcontextprotocol\/|hono|@hono\/|@electric-sql\/|pg$|pg-boss|@aws-sdk\/|nodemailer|onnxruntime)/;
    for (const [entry, door, serverPackage] of [['mcp.js', 'mcp-door-', '@modelcontextprotocol/sdk/server/stdio.js'], ['serve.js', 'serve-door-', '@hono/node-server']] as const) {
      const { chunks, packages } = reached(entry);
      expect(chunks.length, entry).toBeGreaterThan(1);
      expect(packages.filter((p) => SERVER_PACKAGES.test(p)), entry).toEqual([]);
      expect(chunks.filter((c) => c.startsWith(door)), entry).toEqual([]);
      // The door is what the entry imports once the options are read; it reaches the server's packages, but not the
      // storage SDKs a default setup never uses (S3, SMTP), which load when first used.
      expect(doorOf(entry), entry).toMatch(new RegExp(`^${door}`));
      const doorPackages = reached(doorOf(entry)).packages;
      expect(doorPackages, entry).toContain(serverPackage);
      expect(doorPackages.filter((p) => /^(@aws-sdk\/|nodemailer)/.test(p)), entry).toEqual([]);
    }
  });

  it("bundles zod with its English messages only, and they still read in English", async () => {
    // scripts/bundle-cli.mjs drops zod's other locales (z.locales), which the CLI never selects, from what every start parses.
    // The bundle is minified (no module comments to list), so it is searched for each locale's own message.
    const bundle = resolve(import.meta.dirname, '../dist/cli');
    const sources = readdirSync(bundle).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(bundle, f), 'utf8')).join('\n');
    const invalidInput = { en: 'Invalid input: expected', nl: 'Ongeldige invoer: verwacht', id: 'Input tidak valid: diharapkan' };
    for (const [locale, message] of Object.entries(invalidInput)) {
      expect(readFileSync(resolve(import.meta.dirname, `../node_modules/zod/v4/locales/${locale}.js`), 'utf8'), locale).toContain(message);
      expect(sources.includes(message), locale).toBe(locale === 'en');
    }
    const manifest = join(work, 'typed-manifest.json');
    writeFileSync(manifest, JSON.stringify({ segments: [{ start: '0', end: 1 }] }));
    const r = await cli(['check', await fx.cleanShort(), '--manifest', manifest]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/segments\[0\]\.start: expected number, received string/);
  });
});
