// --report-dir: per file a JSON and an HTML report, the exports asked for and (for complete checks) a receipt, plus
// index.json (what the next run reuses from) and index.html. Names are `<base name>-<8 hex of the path>`, so two
// `take1.mp4` in different folders never collide; the path is the one shown (relative to the working directory),
// so a cached report directory still matches when CI checks the repository out elsewhere.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { escapeHtml } from '../../../engine/report-html/html.js';
import type { Report } from '../../../engine/report.js';
import { firstBlock, type BatchRow } from './row.js';

export const INDEX_SCHEMA = 'preflight-batch-index/1';

const IndexEntrySchema = z.object({
  file: z.string(),
  id: z.string(),
  verdict: z.string(),
  outcome: z.string(),
  reuseKey: z.string().nullable(),
  outputs: z.record(z.string(), z.string()),
  error: z.string().nullable(),
  block: z.number().int(),
  watch: z.number().int(),
  /** The first BLOCK as `timecode gate: summary`, or the reason the file could not be checked. */
  note: z.string(),
});
const IndexSchema = z.object({ schema: z.literal(INDEX_SCHEMA), files: z.array(IndexEntrySchema).max(100_000) });
export type IndexEntry = z.infer<typeof IndexEntrySchema>;

export function fileId(shown: string): string {
  const base = shown.split(/[\\/]/).pop() ?? 'file';
  const safe = base.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80) || 'file';
  return `${safe}-${createHash('sha256').update(shown).digest('hex').slice(0, 8)}`;
}

/** Writes through a temporary name, so an interrupted run never leaves half a report for the next run to reuse. */
export function writeAtomic(path: string, content: string): void {
  const tmp = `${path}.${randomUUID().slice(0, 8)}.part`;
  writeFileSync(tmp, content);
  renameSync(tmp, path);
}

export class ReportDir {
  private readonly previous = new Map<string, IndexEntry>();

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    let raw: string;
    try {
      raw = readFileSync(join(dir, 'index.json'), 'utf8');
    } catch {
      return;
    }
    const parsed = IndexSchema.safeParse(safeJson(raw));
    if (parsed.success) for (const entry of parsed.data.files) this.previous.set(entry.id, entry);
  }

  /** The stored report of an earlier run with the same reuse key, if all its files are still there. */
  reusable(id: string, key: string, sha256: string): { report: Report; entry: IndexEntry } | null {
    const entry = this.previous.get(id);
    if (!entry || entry.reuseKey !== key || entry.outcome === 'error' || !entry.outputs.report) return null;
    try {
      if (!Object.values(entry.outputs).every((name) => existsSync(join(this.dir, name)))) return null;
      const report = JSON.parse(readFileSync(join(this.dir, entry.outputs.report), 'utf8')) as Report;
      return report.media?.sha256 === sha256 ? { report, entry } : null;
    } catch {
      return null;
    }
  }

  write(name: string, content: string): string {
    writeAtomic(join(this.dir, name), content);
    return name;
  }

  /** This run's files, then those an earlier run left here (a run over one file never forgets the others). */
  writeIndex(rows: readonly BatchRow[], keys: ReadonlyMap<string, string>): void {
    const current: IndexEntry[] = rows.map((row) => ({
      file: row.file,
      id: fileId(row.file),
      verdict: row.verdict,
      outcome: row.outcome,
      reuseKey: keys.get(row.path) ?? null,
      outputs: row.outputs as Record<string, string>,
      error: row.error,
      block: row.report?.summary.block ?? 0,
      watch: row.report?.summary.watch ?? 0,
      note: noteOf(row),
    }));
    const ids = new Set(current.map((e) => e.id));
    const files = [...current, ...[...this.previous.values()].filter((e) => !ids.has(e.id))];
    writeAtomic(join(this.dir, 'index.json'), `${JSON.stringify({ schema: INDEX_SCHEMA, files }, null, 2)}\n`);
    writeAtomic(join(this.dir, 'index.html'), indexHtml(files));
  }
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

const VERDICT_COLOUR: Record<string, string> = { PASS: '#1a7f37', WATCH: '#9a6700', BLOCK: '#cf222e', ERROR: '#6e7781' };

function noteOf(row: BatchRow): string {
  const first = firstBlock(row);
  return row.error ?? (first ? `${first.timecode} ${first.gate}: ${first.summary}` : '');
}

function indexHtml(entries: readonly IndexEntry[]): string {
  const e = escapeHtml;
  const body = entries
    .map((entry) => {
      const link = entry.outputs.html ? `<a href="${e(encodeURI(entry.outputs.html))}">${e(entry.file)}</a>` : e(entry.file);
      const json = entry.outputs.report ? ` <a href="${e(encodeURI(entry.outputs.report))}">json</a>` : '';
      const counts = entry.verdict === 'ERROR' ? '<td>-</td><td>-</td>' : `<td>${entry.block}</td><td>${entry.watch}</td>`;
      const colour = VERDICT_COLOUR[entry.verdict] ?? '#000';
      return `<tr><td>${link}${json}</td><td style="color:${colour};font-weight:bold">${e(entry.verdict)}</td>${counts}<td>${entry.outcome === 'reused' ? 'reused' : ''}</td><td>${e(entry.note)}</td></tr>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Preflight batch: ${entries.length} files</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{padding:4px 10px;border-bottom:1px solid #ddd;text-align:left}</style></head>
<body><h1>Preflight batch: ${entries.length} files</h1>
<table><thead><tr><th>File</th><th>Verdict</th><th>BLOCK</th><th>WATCH</th><th></th><th>First BLOCK / error</th></tr></thead>
<tbody>
${body}
</tbody></table></body></html>
`;
}
