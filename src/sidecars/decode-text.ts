// Sidecar bytes → text: UTF-8 (with or without BOM) or BOM-marked UTF-16; anything else is refused, never mangled.
import { SidecarFormatError } from '../../engine/sidecars/formats/format-error.js';

export function decodeSidecarText(bytes: Uint8Array): string {
  let text: string;
  try {
    if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder('utf-16le', { fatal: true }).decode(bytes.subarray(2));
    else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = new TextDecoder('utf-16be', { fatal: true }).decode(bytes.subarray(2));
    else text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new SidecarFormatError('is not UTF-8 text (is it a binary file?)');
  }
  if (text.includes('\u0000')) throw new SidecarFormatError('contains NUL characters: this looks like a binary file, not text');
  return text;
}
