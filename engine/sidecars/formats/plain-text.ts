/** Strips a byte-order mark and turns CRLF / CR line breaks into LF, so every parser sees one convention. */
export function normaliseLineBreaks(text: string): string {
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

export function isBlank(text: string): boolean {
  return text.trim() === '';
}
