// Batch progress on stderr. On a terminal: a line per running file and a live count, redrawn in place. Elsewhere
// (CI logs, pipes): one line per finished file, nothing that needs a cursor.
import type { CheckStage } from '../../../engine/check.js';
import type { BatchRow } from './row.js';

export interface BatchProgress {
  started(file: string): void;
  update(file: string, pct: number, stage: CheckStage): void;
  finished(row: BatchRow): void;
  done(): void;
}

interface Tally {
  done: number;
  block: number;
  watch: number;
  errors: number;
}

function countLine(t: Tally, total: number): string {
  return `${t.done}/${total} done · ${t.block} BLOCK · ${t.watch} WATCH${t.errors ? ` · ${t.errors} error${t.errors > 1 ? 's' : ''}` : ''}`;
}

function tallyRow(t: Tally, row: BatchRow): void {
  t.done++;
  if (row.verdict === 'BLOCK') t.block++;
  if (row.verdict === 'WATCH') t.watch++;
  if (row.verdict === 'ERROR') t.errors++;
}

export function finishedLine(row: BatchRow, index: number, total: number): string {
  const counts = row.report ? `${row.report.summary.block} BLOCK, ${row.report.summary.watch} WATCH` : row.error;
  const how = row.outcome === 'reused' ? 'reused' : `${row.seconds.toFixed(1)} s`;
  return `[${String(index).padStart(String(total).length)}/${total}] ${row.verdict.padEnd(5)} ${row.file} (${counts}; ${how})`;
}

export function batchProgress(total: number, stream: NodeJS.WriteStream = process.stderr): BatchProgress {
  const tally: Tally = { done: 0, block: 0, watch: 0, errors: 0 };
  if (!stream.isTTY) {
    return {
      started() {},
      update() {},
      finished(row) {
        tallyRow(tally, row);
        stream.write(`${finishedLine(row, tally.done, total)}\n`);
      },
      done() {},
    };
  }
  const running = new Map<string, { pct: number; stage: string }>();
  let drawn = 0;
  let last = 0;
  // A pseudo-terminal may report 0 columns; a line is cut only at the width, never before the file name.
  const width = Math.max(60, (stream.columns || 100) - 1);
  const draw = (force = false) => {
    const now = Date.now();
    if (!force && now - last < 100) return;
    last = now;
    const lines = [...running].map(([file, p]) => {
      const bar = `[${'#'.repeat(Math.round(p.pct / 5)).padEnd(20, '-')}] ${String(Math.round(p.pct)).padStart(3)}% ${p.stage.padEnd(8)} `;
      return `  ${bar}${file}`.slice(0, width);
    });
    lines.push(countLine(tally, total));
    let out = drawn > 1 ? `\x1b[${drawn - 1}A\r` : '\r';
    out += lines.map((l) => `\x1b[2K${l}`).join('\n');
    // Lines left over from a taller frame are cleared, then the cursor returns to the frame's last line.
    const extra = drawn - lines.length;
    if (extra > 0) out += `${'\n\x1b[2K'.repeat(extra)}\x1b[${extra}A`;
    stream.write(out);
    drawn = lines.length;
  };
  const clear = () => {
    if (drawn === 0) return;
    stream.write(`${drawn > 1 ? `\x1b[${drawn - 1}A` : ''}\r\x1b[J`);
    drawn = 0;
  };
  return {
    started(file) {
      running.set(file, { pct: 0, stage: 'probe' });
      draw(true);
    },
    update(file, pct, stage) {
      running.set(file, { pct, stage });
      draw();
    },
    finished(row) {
      running.delete(row.file);
      tallyRow(tally, row);
      // Finished files scroll above the live frame, so the terminal keeps a record of them.
      clear();
      stream.write(`${finishedLine(row, tally.done, total)}\n`);
      draw(true);
    },
    done() {
      clear();
    },
  };
}
