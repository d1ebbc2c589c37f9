/**
 * What a folder held and was left out, for the message that says it held nothing to use: the first few with why, and
 * how many more. A sidecar directory's message and a batch's use it alike.
 */
export function describeSkipped(skipped: readonly { file: string; reason: string }[]): string {
  if (skipped.length === 0) return '';
  const shown = skipped.slice(0, 5).map(({ file, reason }) => `${file}: ${reason}`);
  if (skipped.length > shown.length) shown.push(`and ${skipped.length - shown.length} more`);
  return `; skipped ${shown.join('; ')}`;
}
