/** A one-line progress bar on a TTY stream (stderr), silent elsewhere. */
export function progressBar(stream: NodeJS.WriteStream = process.stderr): { update(pct: number, stage: string): void; done(): void } {
  if (!stream.isTTY) return { update() {}, done() {} };
  let last = '';
  return {
    update(pct, stage) {
      const width = 30;
      const filled = Math.round((pct / 100) * width);
      // Fixed width, so a shorter stage name never leaves the end of a longer one on screen.
      const line = `  [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(pct)).padStart(3)}% ${stage.padEnd(12)}`;
      if (line !== last) stream.write(`\r${line}`);
      last = line;
    },
    done() {
      if (last) stream.write(`\r${' '.repeat(last.length)}\r`);
    },
  };
}
