// A minimal PNG encoder for 8-bit greyscale pictures (colour type 0): enough for contact-sheet stills without an
// image library. Each row gets the PNG filter with the smallest sum of absolute residuals (the libpng heuristic),
// which roughly halves the size of camera pictures against unfiltered rows.
import { deflateSync } from 'node:zlib';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (ISO 3309, as PNG chunks use it). */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  typeAndData.copy(out, 4);
  out.writeUInt32BE(crc32(typeAndData), 8 + data.length);
  return out;
}

function header(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // colour type: greyscale
  ihdr[10] = 0; // compression: deflate
  ihdr[11] = 0; // filter method: adaptive
  ihdr[12] = 0; // no interlace
  return ihdr;
}

function paeth(left: number, up: number, upLeft: number): number {
  const p = left + up - upLeft;
  const pa = Math.abs(p - left);
  const pb = Math.abs(p - up);
  const pc = Math.abs(p - upLeft);
  if (pa <= pb && pa <= pc) return left;
  return pb <= pc ? up : upLeft;
}

type Predictor = (left: number, up: number, upLeft: number) => number;

/** PNG filter types 0..4 (None, Sub, Up, Average, Paeth) for one byte per pixel. */
const PREDICTORS: Predictor[] = [() => 0, (left) => left, (_left, up) => up, (left, up) => (left + up) >> 1, paeth];

function filterRow(row: Uint8Array, previous: Uint8Array, type: number, out: Uint8Array): number {
  const predict = PREDICTORS[type];
  let cost = 0;
  for (let x = 0; x < row.length; x++) {
    const residual = (row[x] - predict(x > 0 ? row[x - 1] : 0, previous[x], x > 0 ? previous[x - 1] : 0)) & 0xff;
    out[x] = residual;
    cost += residual < 128 ? residual : 256 - residual;
  }
  return cost;
}

function filteredScanlines(width: number, height: number, gray: Uint8Array): Uint8Array {
  const out = new Uint8Array(height * (width + 1));
  const candidate = new Uint8Array(width);
  let previous: Uint8Array = new Uint8Array(width);
  for (let y = 0; y < height; y++) {
    const row = gray.subarray(y * width, (y + 1) * width);
    const target = out.subarray(y * (width + 1) + 1, (y + 1) * (width + 1));
    let bestCost = Infinity;
    for (let type = 0; type < PREDICTORS.length; type++) {
      const cost = filterRow(row, previous, type, candidate);
      if (cost < bestCost) {
        bestCost = cost;
        out[y * (width + 1)] = type;
        target.set(candidate);
      }
    }
    previous = row;
  }
  return out;
}

/** Encodes `width × height` 8-bit grey pixels (row-major, one byte each) as a PNG file. */
export function encodeGrayPng(width: number, height: number, gray: Uint8Array): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) {
    throw new RangeError(`PNG size must be positive integers, got ${width}×${height}`);
  }
  if (gray.length < width * height) throw new RangeError(`expected ${width * height} pixels, got ${gray.length}`);
  const idat = deflateSync(filteredScanlines(width, height, gray), { level: 9 });
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header(width, height)), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))]);
}

export function pngDataUri(png: Uint8Array): string {
  return `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
}
