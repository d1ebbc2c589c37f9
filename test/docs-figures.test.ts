// The docs quote figures and error codes the code decides: the figures are generated blocks (rewritten with
// UPDATE_DOCS=1 npx vitest run test/docs-figures.test.ts), and every error code a doc's table names is one the code
// raises.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOC_FIGURES, docFigureBlocks, renderDocFigures } from '../src/docs/figures.js';

const ROOT = resolve(import.meta.dirname, '..');
const UPDATE_COMMAND = 'UPDATE_DOCS=1 npx vitest run test/docs-figures.test.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
}

/** Every error code the service, the doors and the engine can raise, read from their source. */
function raisedCodes(): Set<string> {
  const codes = new Set<string>();
  // A code is the first argument of an error's constructor or errorBody, or the code argument of parseInput.
  const pattern = /(?:(?:new (?:ServiceError|EngineError)|errorBody)\(\s*|parseInput\(\s*\w+,\s*[\w.]+,\s*)'([a-z][a-z0-9_]*)'/g;
  for (const file of ['src', 'http', 'tools', 'engine'].flatMap(sourceFiles)) {
    for (const m of readFileSync(file, 'utf8').matchAll(pattern)) codes.add(m[1]);
  }
  return codes;
}

/** Codes named in the error-code column of a doc's tables (a column headed "Code", "Codes" or "Error code"). */
function documentedCodes(markdown: string): string[] {
  const codes: string[] = [];
  let column = -1;
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('|')) {
      column = -1;
      continue;
    }
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (column === -1) {
      column = cells.findIndex((c) => /^(error )?codes?$/i.test(c));
      if (column === -1) column = -2;
      continue;
    }
    if (column < 0 || /^-+$/.test(cells[0].replace(/:/g, ''))) continue;
    // Parentheses explain a code (the fields it is about), they name none.
    for (const m of (cells[column] ?? '').replace(/\([^)]*\)/g, '').matchAll(/`([a-z][a-z0-9_]*)`/g)) codes.push(m[1]);
  }
  return codes;
}

const DOCS = ['docs/api.md', 'docs/accounts.md', 'docs/billing.md', 'docs/webhooks.md'];

describe('figures in the docs', () => {
  for (const [doc, blocks] of Object.entries(DOC_FIGURES)) {
    it(`${doc} carries its generated figures as the code computes them`, () => {
      const path = join(ROOT, doc);
      const text = readFileSync(path, 'utf8');
      expect(docFigureBlocks(text).sort(), `${doc}: generated blocks`).toEqual(Object.keys(blocks).sort());
      const rendered = renderDocFigures(doc, text);
      if (process.env.UPDATE_DOCS === '1') writeFileSync(path, rendered);
      else expect(text, `${doc} quotes figures the code no longer computes: run ${UPDATE_COMMAND}`).toBe(rendered);
    });
  }
});

describe('error codes in the docs', () => {
  const raised = raisedCodes();

  it('finds the codes the code raises', () => {
    expect(raised.size).toBeGreaterThan(60);
    for (const code of ['usage_limit_exceeded', 'invalid_input', 'unauthorized', 'idempotency_conflict', 'provisioning_conflict']) expect(raised).toContain(code);
  });

  for (const doc of DOCS) {
    it(`${doc} names only codes the code raises`, () => {
      const codes = documentedCodes(readFileSync(join(ROOT, doc), 'utf8'));
      expect(codes.length, `${doc} has an error-code table`).toBeGreaterThan(0);
      expect(codes.filter((c) => !raised.has(c))).toEqual([]);
    });
  }

  it('documents the codes this service added for hostile input', () => {
    const all = new Set(DOCS.flatMap((doc) => documentedCodes(readFileSync(join(ROOT, doc), 'utf8'))));
    for (const code of ['idempotency_conflict', 'provisioning_conflict', 'callback_secret_required', 'empty_body', 'store_write_failed', 'invalid_input']) {
      expect(all, code).toContain(code);
    }
  });
});
