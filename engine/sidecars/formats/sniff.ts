// Which format a text sidecar is in: from the file name's extension when it has a known one, else from the content.
import { SidecarFormatError } from './format-error.js';

export type TextFormat = 'text' | 'json' | 'srt' | 'vtt';

const BY_EXTENSION: Record<string, TextFormat> = { '.txt': 'text', '.json': 'json', '.srt': 'srt', '.vtt': 'vtt' };

export interface SniffOptions {
  filename?: string;
  allowed: readonly TextFormat[];
  /** False for `*_text` fields: their content is text, SRT or WebVTT, never JSON (there is a `*_json` field for that). */
  mayBeJson?: boolean;
}

export function detectTextFormat(text: string, { filename, allowed, mayBeJson = true }: SniffOptions): TextFormat {
  const extension = filename ? /\.[^./\\]+$/.exec(filename)?.[0].toLowerCase() : undefined;
  const byExtension = extension ? BY_EXTENSION[extension] : undefined;
  if (byExtension) {
    if (allowed.includes(byExtension)) return byExtension;
    const accepted = Object.entries(BY_EXTENSION)
      .filter(([, format]) => allowed.includes(format))
      .map(([ext]) => ext);
    throw new SidecarFormatError(`a ${extension} file is not accepted here (accepted: ${accepted.join(', ')})`);
  }
  const head = text.replace(/^\uFEFF/, '').trimStart();
  if (allowed.includes('vtt') && /^WEBVTT(?:[ \t\r\n]|$)/.test(head)) return 'vtt';
  if (mayBeJson && allowed.includes('json') && looksLikeJson(head)) return 'json';
  if (allowed.includes('srt') && looksLikeSrt(head)) return 'srt';
  return 'text';
}

// An object, or an array whose first element is an object, a string or nothing: "[Music] ..." stays text.
function looksLikeJson(head: string): boolean {
  return head.startsWith('{') || /^\[\s*[{"\]]/.test(head);
}

function looksLikeSrt(head: string): boolean {
  return /^(?:\d+[ \t]*\r?\n)?[ \t]*\d{1,3}:\d{2}:\d{2}[,.]\d{3}[ \t]+-->/.test(head);
}
