// The visual report: the PNG encoder, escaping and determinism as units, then real checks on generated media rendered
// and opened in headless Chromium (Debian's chromium via playwright-core) at phone and desktop widths.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { crc32 as zlibCrc32, inflateSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CheckResult } from '../engine/check.js';
import { checked } from './helpers/checked.js';
import { MAX_EMBEDDED_STILLS, crc32, encodeGrayPng, escapeHtml, renderReportHtml } from '../engine/report-html/index.js';
import { flagRegions } from '../engine/report-html/regions.js';
import { buildReceipt } from '../engine/receipt.js';
import type { Report } from '../engine/report.js';
import type { Flag, Signals } from '../engine/types.js';
import { findChromium, INSTALL_HINT } from './helpers/chromium.js';
import { textVideo } from './helpers/text-media.js';
import * as fx from './helpers/fixtures.js';

const CHROMIUM = findChromium();
if (!CHROMIUM) console.warn(INSTALL_HINT);
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SCREENSHOT_DIR = resolve(import.meta.dirname, '../.cache/screenshots');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const HOSTILE = `<script>alert("x")</script> & 'quoted' <img src=x onerror=alert(1)>`;

// ---------------------------------------------------------------- PNG decoding, for checking the encoder

interface PngChunk {
  type: string;
  data: Buffer;
  crc: number;
}

function pngChunks(png: Buffer): PngChunk[] {
  const chunks: PngChunk[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('ascii', at + 4, at + 8);
    chunks.push({ type, data: png.subarray(at + 8, at + 8 + length), crc: png.readUInt32BE(at + 8 + length) });
    at += 12 + length;
  }
  return chunks;
}

/** Reverses PNG filtering for 8-bit greyscale (one byte per pixel). */
function unfilter(raw: Buffer, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const type = raw[y * (width + 1)];
    for (let x = 0; x < width; x++) {
      const residual = raw[y * (width + 1) + 1 + x];
      const left = x > 0 ? out[y * width + x - 1] : 0;
      const up = y > 0 ? out[(y - 1) * width + x] : 0;
      const upLeft = x > 0 && y > 0 ? out[(y - 1) * width + x - 1] : 0;
      const p = left + up - upLeft;
      const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
      const paeth = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      const predicted = [0, left, up, (left + up) >> 1, paeth][type];
      out[y * width + x] = (residual + predicted) & 0xff;
    }
  }
  return out;
}

describe('PNG encoder', () => {
  const width = 37;
  const height = 11;
  // A gradient, a hard edge and noise, so every filter type gets picked somewhere.
  const gray = Uint8Array.from({ length: width * height }, (_, i) => {
    const x = i % width;
    const y = Math.floor(i / width);
    return y < 4 ? x * 7 : y < 8 ? (x < 18 ? 20 : 235) : (i * 2654435761) >>> 24;
  });
  const png = encodeGrayPng(width, height, gray);

  it('computes the standard CRC-32', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });

  it('writes the signature, an 8-bit greyscale IHDR, IDAT and IEND with correct CRCs', () => {
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const chunks = pngChunks(png);
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    const ihdr = chunks[0].data;
    expect(ihdr.length).toBe(13);
    expect([ihdr.readUInt32BE(0), ihdr.readUInt32BE(4), ihdr[8], ihdr[9], ihdr[10], ihdr[11], ihdr[12]]).toEqual([width, height, 8, 0, 0, 0, 0]);
    for (const c of chunks) expect(c.crc, c.type).toBe(zlibCrc32(Buffer.concat([Buffer.from(c.type, 'ascii'), c.data])));
  });

  it('IDAT inflates back to the pixels', () => {
    const raw = inflateSync(pngChunks(png)[1].data);
    expect(raw.length).toBe(height * (width + 1));
    for (let y = 0; y < height; y++) expect(raw[y * (width + 1)]).toBeLessThanOrEqual(4);
    expect(Buffer.from(unfilter(raw, width, height)).equals(Buffer.from(gray))).toBe(true);
  });

  it('refuses sizes that do not match the pixels', () => {
    expect(() => encodeGrayPng(0, 5, new Uint8Array(0))).toThrow(RangeError);
    expect(() => encodeGrayPng(4, 4, new Uint8Array(15))).toThrow(RangeError);
  });
});

describe('flag regions on a still', () => {
  const rounded = (evidence: Record<string, unknown>) => flagRegions(evidence).map((r) => ({ ...r, x: +r.x.toFixed(6), y: +r.y.toFixed(6), w: +r.w.toFixed(6), h: +r.h.toFixed(6) }));

  it('outlines evidence boxes, including each text box, in percent of the frame', () => {
    expect(rounded({ box: { x: 0.1, y: 0.2, w: 0.3, h: 0.4 } })).toEqual([{ x: 10, y: 20, w: 30, h: 40, kind: 'box' }]);
    const texts = rounded({ texts: [{ box: { x: 0, y: 0, w: 0.5, h: 0.5 } }, { box: { x: 0.25, y: 0.25, w: 0.5, h: 0.5 } }] });
    expect(texts.map((r) => [r.x, r.y, r.w, r.h])).toEqual([[0, 0, 50, 50], [25, 25, 50, 50]]);
  });

  it('clamps a box that leaves the frame and ignores unusable ones', () => {
    expect(rounded({ box: { x: 0.9, y: -0.1, w: 0.3, h: 0.2 } })).toEqual([{ x: 90, y: 0, w: 10, h: 10, kind: 'box' }]);
    for (const box of [{ x: 'a', y: 0, w: 1, h: 1 }, { x: 0, y: 0, w: 0, h: 1 }, { x: NaN, y: 0, w: 1, h: 1 }, null, [1, 2, 3, 4]]) {
      expect(flagRegions({ box })).toEqual([{ x: 0, y: 0, w: 100, h: 100, kind: 'frame' }]);
    }
  });

  it('outlines canvas bars and fill from barsPct and fillPct', () => {
    expect(flagRegions({ barsPct: { top: 12, bottom: 12, left: 0, right: 0 }, fillPct: { top: 0, bottom: 0, left: 0, right: 0 } })).toEqual([
      { x: 0, y: 0, w: 100, h: 12, kind: 'padding' },
      { x: 0, y: 88, w: 100, h: 12, kind: 'padding' },
    ]);
    expect(flagRegions({ fillPct: { left: 30, right: 30 } }).map((r) => [r.x, r.w])).toEqual([[0, 30], [70, 30]]);
  });

  it('falls back to the whole frame', () => {
    expect(flagRegions({ durationSeconds: 2.5 })).toEqual([{ x: 0, y: 0, w: 100, h: 100, kind: 'frame' }]);
  });
});

// ---------------------------------------------------------------- real checks

const checks = new Map<string, CheckResult>();
async function checkOf(name: string, file: () => Promise<string>): Promise<CheckResult> {
  if (!checks.has(name)) checks.set(name, await checked(await file()));
  return checks.get(name)!;
}

const blackInterior = () => checkOf('black-interior', fx.blackInterior);
const letterbox = () => checkOf('letterbox', fx.letterbox);
const audioDefects = () => checkOf('audio-defects', fx.audioDefects);
/** White text on light grey (2.3:1), read by OCR: a text_contrast BLOCK with the caption's box. */
const lowContrastCaption = () =>
  checkOf('low-contrast-caption', () =>
    textVideo('report-low-contrast', 'color=c=0xaaaaaa:s=1280x720:r=25', 4, [{ text: 'Limited offer today', size: 26, color: 'white', x: '(w-tw)/2', y: 'h-150' }]),
  );

function blockReceipt(report: Report) {
  return buildReceipt(
    {
      jobId: 'job_report_html',
      verdict: report.verdict,
      sha256: report.media.sha256,
      profile: report.deliveryProfile,
      gates: report.gates.filter((g) => g.status !== 'skipped').map((g) => g.gate),
      blockedGates: report.gates.filter((g) => g.status === 'block').map((g) => g.gate),
      issuedAt: '2026-01-02T03:04:05.000Z',
    },
    'report-html-test-key',
  );
}

function withHostileText(report: Report): Report {
  const [first, ...rest] = report.flags;
  const flag: Flag = { ...first, summary: HOSTILE, repair: { ...first.repair, instruction: HOSTILE }, evidence: { ...first.evidence, note: HOSTILE } };
  return {
    ...report,
    media: { ...report.media, fileName: `${HOSTILE}.mp4` },
    flags: [flag, ...rest],
    gates: report.gates.map((g, i) => (i === 0 ? { ...g, reason: HOSTILE, measurements: { ...g.measurements, nested: { text: HOSTILE, n: 0.125 } } } : g)),
    warnings: [HOSTILE],
  };
}

describe('renderReportHtml', () => {
  it('escapes hostile text from flags, gates, file names and warnings', async () => {
    const { report, signals } = await blackInterior();
    const page = renderReportHtml({ report: withHostileText(report), signals });
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(page).not.toContain('<script');
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;');
    expect(page).toContain('nested.text:');
    expect(page).toContain('nested.n:</span> 0.125');
  });

  it('is deterministic and never reads the clock', async () => {
    const { report, signals } = await blackInterior();
    const receipt = blockReceipt(report);
    vi.useFakeTimers();
    try {
      vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
      const a = renderReportHtml({ report, signals, receipt });
      vi.setSystemTime(new Date('2031-06-15T12:34:56Z'));
      const b = renderReportHtml({ report, signals, receipt });
      expect(b).toBe(a);
      expect(a).not.toContain('2030');
      expect(renderReportHtml({ report, signals, receipt, generatedAt: '2026-01-02T03:04:05Z' })).toContain('page generated 2026-01-02T03:04:05Z');
    } finally {
      vi.useRealTimers();
    }
  });

  it('declares the content security policy and loads nothing from outside the page', async () => {
    const { report, signals } = await blackInterior();
    const page = renderReportHtml({ report, signals });
    expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; img-src data:; style-src &#39;unsafe-inline&#39;">`);
    expect(page).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(page).not.toMatch(/(?:src|href)="(?!data:|#)/);
    expect(page).not.toMatch(/url\(/);
  });

  it('embeds stills only for picture flags, at most 50, and says so', async () => {
    const { report, signals } = await blackInterior();
    const base = report.flags[0];
    const flags: Flag[] = Array.from({ length: 70 }, (_, i) => ({
      ...base,
      id: `f_${String(i + 1).padStart(4, '0')}`,
      gate: i % 7 === 0 ? 'loudness' : 'black_frames',
      severity: i % 2 ? 'WATCH' : 'BLOCK',
      start: (i * report.media.durationSeconds) / 70,
      end: ((i + 1) * report.media.durationSeconds) / 70,
    }));
    const pictureFlags = flags.filter((f) => f.gate !== 'loudness');
    const page = renderReportHtml({ report: { ...report, flags }, signals });
    const stillIds = [...page.matchAll(/id="still-(f_\d+)"/g)].map((m) => m[1]);
    expect(stillIds).toHaveLength(MAX_EMBEDDED_STILLS);
    expect(page.match(/<img /g)).toHaveLength(MAX_EMBEDDED_STILLS);
    expect(stillIds.every((id) => pictureFlags.some((f) => f.id === id))).toBe(true);
    // Every BLOCK picture flag is kept before any WATCH one.
    const blockPicture = pictureFlags.filter((f) => f.severity === 'BLOCK').map((f) => f.id);
    expect(stillIds).toEqual(expect.arrayContaining(blockPicture));
    expect(page).toContain(`Only ${MAX_EMBEDDED_STILLS} stills are embedded`);
    expect(page).toContain(`${pictureFlags.length - MAX_EMBEDDED_STILLS} more picture flags have no still here`);
  });

  it('stays small for a 10-minute programme with 240 stills and many flags', async () => {
    const { report, signals } = await blackInterior();
    const v = signals.video!;
    const a = signals.audio!;
    const tenMinutes = 600;
    const stills = Array.from({ length: 240 }, (_, i) => ({ atSeconds: i * 2.5, gray: v.stills[i % v.stills.length].gray }));
    const steps = tenMinutes * 10;
    const blocks = tenMinutes * 100;
    const longSignals: Signals = {
      ...signals,
      video: { ...v, stills },
      audio: {
        ...a,
        durationSeconds: tenMinutes,
        loudness: { ...a.loudness, momentary: Array.from({ length: steps }, (_, i) => -14 + 6 * Math.sin(i / 40)), shortTerm: Array.from({ length: steps }, (_, i) => -14 + 3 * Math.sin(i / 90)) },
        stats: { ...a.stats, envelope: { ...a.stats.envelope, rmsDbfs: new Float32Array(blocks).fill(-20), peakDbfs: new Float32Array(blocks).fill(-6) } },
      },
    };
    const flags = Array.from({ length: 120 }, (_, i) => ({ ...report.flags[0], id: `f_${String(i + 1).padStart(4, '0')}`, start: i * 5, end: i * 5 + 2 }));
    const page = renderReportHtml({ report: { ...report, media: { ...report.media, durationSeconds: tenMinutes }, flags }, signals: longSignals });
    expect(page.length).toBeLessThan(3 * 1024 * 1024);
    // Charts are downsampled to at most 2000 points per series.
    for (const d of page.matchAll(/class="(?:momentary|short-term|wave-peak)" d="([^"]*)"/g)) expect((d[1].match(/[ML]/g) ?? []).length).toBeLessThanOrEqual(2 * 2000);
  });
});

// ---------------------------------------------------------------- in Chromium

interface PageVisit {
  page: Page;
  consoleErrors: string[];
  pageErrors: string[];
  requests: string[];
}

describe.skipIf(!CHROMIUM)(`visual report in headless Chromium${CHROMIUM ? '' : ` (skipped: ${INSTALL_HINT})`}`, () => {
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM!, args: CHROMIUM_ARGS });
    dir = mkdtempSync(join(tmpdir(), 'preflight-report-html-'));
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function visit(file: string, viewport: { width: number; height: number }): Promise<PageVisit> {
    const page = await browser.newPage({ viewport });
    const visit: PageVisit = { page, consoleErrors: [], pageErrors: [], requests: [] };
    page.on('console', (m) => {
      if (m.type() === 'error') visit.consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => visit.pageErrors.push(e.message));
    page.on('request', (r) => visit.requests.push(r.url()));
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    return visit;
  }

  function writePage(name: string, htmlText: string): string {
    const file = join(dir, `report-${name}.html`);
    writeFileSync(file, htmlText);
    return file;
  }

  async function expectReadableReport(name: string, report: Report, htmlText: string, expectStills: boolean, expectAudio: boolean): Promise<void> {
    const file = writePage(name, htmlText);
    const fileUrl = pathToFileURL(file).href;
    for (const [label, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
      const { page, consoleErrors, pageErrors, requests } = await visit(file, viewport);
      try {
        expect(consoleErrors, `${name} ${label} console errors`).toEqual([]);
        expect(pageErrors, `${name} ${label} page errors`).toEqual([]);
        expect(requests.filter((u) => !u.startsWith('data:')), `${name} ${label} requests`).toEqual([fileUrl]);

        const verdict = page.locator('.verdict-header .verdict');
        expect(await verdict.isVisible()).toBe(true);
        expect(await verdict.textContent()).toBe(report.verdict);
        expect(await page.locator('.readiness').isVisible()).toBe(true);

        const text = await page.locator('body').innerText();
        for (const flag of report.flags) {
          expect(await page.locator(`#flag-${flag.id} .flag-id`).isVisible(), `${flag.id} visible`).toBe(true);
          expect(text).toContain(flag.id);
        }
        expect(await page.locator('#timeline svg rect.bar').count()).toBe(report.flags.length);
        expect(await page.locator('#timeline svg title').count()).toBe(report.flags.length);
        expect(await page.locator('#gates table.gates tbody tr').count()).toBe(report.gates.length);
        if (expectAudio) {
          expect(await page.locator('#audio svg path.momentary').count()).toBe(1);
          expect(await page.locator('#audio svg path.short-term').count()).toBe(1);
          expect(await page.locator('#audio svg .target').count()).toBeGreaterThan(0);
          expect(await page.locator('#audio svg path.wave-peak').count()).toBe(1);
          expect(text).toMatch(/LUFS/);
        }
        const stills = page.locator('#contact-sheet img');
        if (expectStills) {
          expect(await stills.count()).toBeGreaterThan(0);
          // The browser decoded every embedded PNG.
          const sizes = await stills.evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).naturalWidth));
          expect(sizes.every((w) => w > 0)).toBe(true);
          expect(await page.locator('#contact-sheet svg.overlay rect.region').count()).toBeGreaterThan(0);
        } else {
          expect(await stills.count()).toBe(0);
        }

        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(scrollWidth, `${name} ${label} scrollWidth`).toBeLessThanOrEqual(viewport.width);

        const shot = join(SCREENSHOT_DIR, `report-${name}${label === 'phone' ? '' : '-desktop'}.png`);
        await page.screenshot({ path: shot, fullPage: true });
        expect(existsSync(shot)).toBe(true);
        process.stdout.write(`report-html screenshot: ${shot}\n`);
      } finally {
        await page.close();
      }
    }
  }

  it('renders a BLOCK report (interior black) with every flag, stills, charts and the receipt', async () => {
    const { report, signals } = await blackInterior();
    expect(report.verdict).toBe('BLOCK');
    expect(report.flags.some((f) => f.gate === 'black_frames' && f.severity === 'BLOCK')).toBe(true);
    const receipt = blockReceipt(report);
    const htmlText = renderReportHtml({ report, signals, receipt, generatedAt: '2026-01-02T03:04:05Z' });
    await expectReadableReport('black-interior', report, htmlText, true, true);
  });

  it('outlines letterbox bars on the still of a canvas_fill flag', async () => {
    const { report, signals } = await letterbox();
    const canvas = report.flags.find((f) => f.gate === 'canvas_fill');
    expect(canvas, JSON.stringify(report.flags)).toBeDefined();
    const htmlText = renderReportHtml({ report, signals });
    await expectReadableReport('letterbox', report, htmlText, true, false);
    const { page } = await visit(writePage('letterbox-regions', htmlText), PHONE);
    try {
      expect(await page.locator(`#still-${canvas!.id} rect.region-padding`).count()).toBe(2);
    } finally {
      await page.close();
    }
  });

  it('outlines the words of a text_contrast flag on its still', async () => {
    const { report, signals } = await lowContrastCaption();
    const text = report.flags.find((f) => f.gate === 'text_contrast');
    expect(text, JSON.stringify(report.flags)).toMatchObject({ severity: 'BLOCK', evidence: { text: 'Limited offer today' } });
    const htmlText = renderReportHtml({ report, signals });
    await expectReadableReport('low-contrast-caption', report, htmlText, true, false);
    const { page } = await visit(writePage('low-contrast-caption-regions', htmlText), PHONE);
    try {
      const box = page.locator(`#still-${text!.id} rect.region-box`);
      expect(await box.count()).toBe(1);
      // The caption sits in the lower part of the frame: the outline's top is below 70 % of the still's height.
      expect(Number(await box.getAttribute('y'))).toBeGreaterThan(70);
    } finally {
      await page.close();
    }
  });

  it('shows audio-only flags without stills, with the loudness chart against the podcast target', async () => {
    const { report, signals } = await audioDefects();
    expect(report.flags.length).toBeGreaterThan(0);
    const htmlText = renderReportHtml({ report, signals });
    await expectReadableReport('audio-defects', report, htmlText, false, true);
    expect(htmlText).toContain('target −16 LUFS');
  });

  it('shows hostile text as text, with no script or injected element', async () => {
    const { report, signals } = await blackInterior();
    const hostile = withHostileText(report);
    const { page, consoleErrors, pageErrors, requests } = await visit(writePage('hostile', renderReportHtml({ report: hostile, signals })), PHONE);
    try {
      expect(await page.evaluate(() => document.scripts.length)).toBe(0);
      expect(await page.locator('img[src="x"]').count()).toBe(0);
      expect(await page.locator(`#flag-${hostile.flags[0].id} .summary`).textContent()).toBe(HOSTILE);
      expect(consoleErrors).toEqual([]);
      expect(pageErrors).toEqual([]);
      expect(requests.filter((u) => !u.startsWith('data:') && !u.startsWith('file:'))).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
