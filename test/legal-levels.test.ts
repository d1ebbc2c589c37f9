import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ffmpegPath } from '../engine/ffmpeg/binaries.js';
import { LegalLevelsAccumulator, legalLevelsMatrix, legalLevelsPixelFormat } from '../engine/video/legal-levels.js';
import { generate } from './helpers/media.js';

const WIDTH = 320;
const HEIGHT = 240;
const AREA = WIDTH * HEIGHT;

/** A one-frame lossless file drawn with geq on 8-bit yuv444p code values. */
function drawn(name: string, lum: string, cb = '128', cr = '128', extra: string[] = []): Promise<string> {
  const graph = `color=c=black:s=${WIDTH}x${HEIGHT}:d=0.2,format=yuv444p,geq=lum='${lum}':cb='${cb}':cr='${cr}'`;
  return generate(name, ['-f', 'lavfi', '-i', graph, '-frames:v', '1', ...extra, '-c:v', 'ffv1']);
}

/** Reads the first picture back as the decode pass will: packed yuv444p (or yuvj444p for full range). */
async function planes(path: string, colorRange: 'tv' | 'pc' | null = 'tv'): Promise<Uint8Array> {
  const format = legalLevelsPixelFormat(colorRange);
  const { stdout } = await execa(
    ffmpegPath(),
    ['-hide_banner', '-loglevel', 'error', '-i', path, '-frames:v', '1', '-vf', `format=${format}`, '-f', 'rawvideo', '-pix_fmt', format, 'pipe:1'],
    { stdin: 'ignore', encoding: 'buffer', timeout: 60_000 },
  );
  const frame = new Uint8Array(stdout as Uint8Array);
  expect(frame.length).toBe(AREA * 3);
  return frame;
}

function measure(frame: Uint8Array, opts: { fullRange?: boolean; atSeconds?: number } = {}) {
  const acc = new LegalLevelsAccumulator({ allowancePct: 1, matrix: 'bt601', fullRange: opts.fullRange ?? false });
  acc.push(frame, WIDTH, HEIGHT, opts.atSeconds ?? 0);
  return acc.finish();
}

/** A synthetic yuv444p frame: `lumaAt(x, y)` for Y, constant chroma. */
function syntheticFrame(width: number, height: number, lumaAt: (x: number, y: number) => number, cb = 128, cr = 128): Uint8Array {
  const area = width * height;
  const frame = new Uint8Array(area * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) frame[y * width + x] = lumaAt(x, y);
  frame.fill(cb, area, area * 2);
  frame.fill(cr, area * 2);
  return frame;
}

describe('LegalLevelsAccumulator on ffmpeg-generated pictures', () => {
  it('passes mid grey', async () => {
    const file = await generate('grey.mkv', ['-f', 'lavfi', '-i', `color=c=0x808080:s=${WIDTH}x${HEIGHT}:d=0.2`, '-frames:v', '1', '-pix_fmt', 'yuv444p', '-c:v', 'ffv1']);
    const signals = measure(await planes(file));
    expect(signals).toEqual({ samples: 1, worstOutOfRangePct: 0, worstAtSeconds: 0, samplesOverAllowance: [] });
  });

  it('fails a super-white band over 10 % of the picture, measured after the R 103 low-pass', async () => {
    // 24 of 240 rows at Y=254, coded as lossless 4:2:0 H.264 so the read-back goes through chroma upsampling.
    const graph = `color=c=black:s=${WIDTH}x${HEIGHT}:d=0.2,format=yuv444p,geq=lum='if(lt(Y,24),254,126)':cb=128:cr=128`;
    const file = await generate('superwhite-band.mp4', ['-f', 'lavfi', '-i', graph, '-frames:v', '1', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-qp', '0']);
    const signals = measure(await planes(file), { atSeconds: 12.5 });
    // The vertical [1,2,1] filter pulls the band's last row back into range: 23 of 240 rows remain.
    expect(signals.worstOutOfRangePct).toBeCloseTo((23 / 240) * 100, 3);
    expect(signals.worstOutOfRangePct).toBeGreaterThan(9);
    expect(signals.samplesOverAllowance).toEqual([{ atSeconds: 12.5, outOfRangePct: signals.worstOutOfRangePct }]);
  });

  it('keeps an excursion over 0.5 % of the area within the 1 % allowance', async () => {
    // A 24×16 block (384 px = 0.5 %) of Y=254; the filter softens its edges, so less than 0.5 % is counted.
    const file = await drawn('superwhite-block.mkv', 'if(between(X,100,123)*between(Y,100,115),254,126)');
    const signals = measure(await planes(file));
    expect(signals.worstOutOfRangePct).toBeGreaterThan(0);
    expect(signals.worstOutOfRangePct).toBeLessThanOrEqual(0.5);
    expect(signals.samplesOverAllowance).toEqual([]);
  });

  it('passes full-range black and white, which the same code values in limited range would fail', async () => {
    const file = await drawn('fullrange-black-white.mkv', 'if(lt(X,160),0,255)', '128', '128', ['-color_range', 'pc']);
    const frame = await planes(file, 'pc');
    expect([frame[0], frame[WIDTH - 1]]).toEqual([0, 255]);
    expect(measure(frame, { fullRange: true }).worstOutOfRangePct).toBe(0);
    expect(measure(frame, { fullRange: false }).worstOutOfRangePct).toBeGreaterThan(90);
  });

  it('counts R′G′B′ excursions that Y′CbCr range checks miss (legal Y, out-of-gamut colour)', async () => {
    const file = await drawn('saturated-red.mkv', '180', '128', '250');
    const signals = measure(await planes(file));
    expect(signals.worstOutOfRangePct).toBe(100);
  });

  it('fails super-black below code 5', async () => {
    const file = await drawn('superblack.mkv', '1');
    expect(measure(await planes(file)).worstOutOfRangePct).toBe(100);
  });
});

describe('LegalLevelsAccumulator bookkeeping', () => {
  const grey = syntheticFrame(64, 32, () => 126);
  const halfWhite = syntheticFrame(64, 32, (x) => (x < 32 ? 250 : 126));

  it('keeps the worst sample and every sample over the allowance, in push order', () => {
    const acc = new LegalLevelsAccumulator({ allowancePct: 1, matrix: 'bt709', fullRange: false });
    acc.push(grey, 64, 32, 0);
    acc.push(halfWhite, 64, 32, 10);
    acc.push(grey, 64, 32, 20);
    acc.push(halfWhite, 64, 32, 30);
    const signals = acc.finish();
    expect(signals.samples).toBe(4);
    expect(signals.worstAtSeconds).toBe(10);
    expect(signals.worstOutOfRangePct).toBeGreaterThan(40);
    expect(signals.samplesOverAllowance.map((s) => s.atSeconds)).toEqual([10, 30]);
  });

  it('reports no samples as zero', () => {
    const acc = new LegalLevelsAccumulator({ allowancePct: 1, matrix: 'bt709', fullRange: false });
    expect(acc.finish()).toEqual({ samples: 0, worstOutOfRangePct: 0, worstAtSeconds: 0, samplesOverAllowance: [] });
  });

  it('accepts the window edges 5 and 246 and rejects 4 and 247', () => {
    for (const [code, outside] of [[5, false], [246, false], [4, true], [247, true]] as const) {
      const signals = measure(syntheticFrame(WIDTH, HEIGHT, () => code));
      expect(signals.worstOutOfRangePct, `Y=${code}`).toBe(outside ? 100 : 0);
    }
  });

  it('filters interlaced pictures within each field', () => {
    // Every other row at Y=254: within a field the rows are uniform, so intra-field filtering keeps them all.
    const alternating = syntheticFrame(64, 32, (_x, y) => (y % 2 === 0 ? 254 : 126));
    const progressive = new LegalLevelsAccumulator({ allowancePct: 1, matrix: 'bt709', fullRange: false });
    const interlaced = new LegalLevelsAccumulator({ allowancePct: 1, matrix: 'bt709', fullRange: false, interlaced: true });
    progressive.push(alternating, 64, 32, 0);
    interlaced.push(alternating, 64, 32, 0);
    expect(progressive.finish().worstOutOfRangePct).toBe(0);
    expect(interlaced.finish().worstOutOfRangePct).toBe(50);
  });

  it('rejects a buffer smaller than three planes', () => {
    const acc = new LegalLevelsAccumulator({ allowancePct: 1, matrix: 'bt709', fullRange: false });
    expect(() => acc.push(new Uint8Array(10), 64, 32, 0)).toThrow(RangeError);
  });

  it('chooses the matrix from the tagged colour space, else from the picture height', () => {
    expect(legalLevelsMatrix('bt709', 480)).toBe('bt709');
    expect(legalLevelsMatrix('smpte170m', 1080)).toBe('bt601');
    expect(legalLevelsMatrix(null, 1080)).toBe('bt709');
    expect(legalLevelsMatrix(null, 576)).toBe('bt601');
    expect(legalLevelsPixelFormat('pc')).toBe('yuvj444p');
    expect(legalLevelsPixelFormat(null)).toBe('yuv444p');
  });
});
