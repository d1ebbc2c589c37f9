// The inline forms of a sidecar (`*_text`, `*_json`, `*_base64`): type checks, the size cap, base64 and JSON decoding.
import { decodeSidecarText } from './decode-text.js';
import { invalidSidecar, sidecarTooLarge, withOrigin } from './errors.js';
import { describeType } from '../../engine/sidecars/formats/value-type.js';
import type { SidecarOrigin } from './origin.js';
import { boundedJsonText, withinSidecarLimits } from './parse.js';

const BASE64 = /^(?:[A-Za-z0-9+/]*|[A-Za-z0-9\-_]*)={0,2}$/;

export function inlineText(value: unknown, origin: SidecarOrigin, maxBytes: number): string {
  if (typeof value !== 'string') throw invalidSidecar(origin, `expected a string, received ${describeType(value)}`);
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes > maxBytes) throw sidecarTooLarge(origin, bytes, maxBytes);
  return value;
}

/** `*_json`: an object or an array as is, or a string holding JSON. */
export function inlineJson(value: unknown, origin: SidecarOrigin, maxBytes: number): unknown {
  if (typeof value === 'string') {
    const text = inlineText(value, origin, maxBytes);
    return withOrigin(origin, () => boundedJsonText(text.replace(/^\uFEFF/, '')));
  }
  if (typeof value !== 'object' || value === null) {
    throw invalidSidecar(origin, `expected an object, an array or a JSON string, received ${describeType(value)}`);
  }
  withOrigin(origin, () => withinSidecarLimits(value));
  let serialised: string | undefined;
  try {
    serialised = JSON.stringify(value);
  } catch (error) {
    throw invalidSidecar(origin, `is not JSON data (${error instanceof Error ? error.message : String(error)})`);
  }
  const bytes = Buffer.byteLength(serialised ?? '', 'utf8');
  if (bytes > maxBytes) throw sidecarTooLarge(origin, bytes, maxBytes);
  return value;
}

/** `*_base64`: standard or URL-safe alphabet, padding optional, line breaks allowed; decoded as UTF-8 text. */
export function inlineBase64(value: unknown, origin: SidecarOrigin, maxBytes: number): string {
  if (typeof value !== 'string') throw invalidSidecar(origin, `expected a base64 string, received ${describeType(value)}`);
  const compact = value.replace(/\s+/g, '');
  const padding = /=*$/.exec(compact)?.[0].length ?? 0;
  const validLength = padding > 0 ? compact.length % 4 === 0 : compact.length % 4 !== 1;
  if (!BASE64.test(compact) || !validLength) {
    throw invalidSidecar(origin, 'is not valid base64 (expected the characters A-Z a-z 0-9 + / or - _, with optional = padding)');
  }
  const decodedBytes = Math.floor((compact.length * 3) / 4) - padding;
  if (decodedBytes > maxBytes) throw sidecarTooLarge(origin, decodedBytes, maxBytes);
  const bytes = Buffer.from(compact, 'base64');
  return withOrigin(origin, () => decodeSidecarText(bytes));
}
