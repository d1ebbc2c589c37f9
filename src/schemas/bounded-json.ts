// Free-form JSON from outside (a client's per-check verdicts, sidecars, webhook payloads, receipts to verify) is
// measured before it is used or stored: nesting depth, entries (object keys plus array items) and approximate
// serialised bytes. The walk is iterative and stops at the first breach, so a value nested 100,000 levels deep or
// holding a million keys costs no more than the limit allows, and never overflows the stack.
import { z } from 'zod';

export interface JsonLimits {
  /** Levels of objects and arrays; a scalar or an empty object is depth 1. */
  maxDepth: number;
  /** Object keys plus array items, counted over the whole value. */
  maxEntries: number;
  /** Serialised size (UTF-8, escapes not counted). */
  maxBytes: number;
}

/** JSON the service keeps in its store (a gate-verdict import's `per_check`). */
export const STORED_JSON_LIMITS: JsonLimits = { maxDepth: 16, maxEntries: 2_000, maxBytes: 64 * 1024 };
/** A JSON body that is read and answered but never kept (a receipt to verify, a checkout event). */
export const MESSAGE_JSON_LIMITS: JsonLimits = { maxDepth: 16, maxEntries: 10_000, maxBytes: 1024 * 1024 };
/** A sidecar (manifest, transcript, watchlist, script, chunk reports): large, but a document, never a stack bomb. */
export const SIDECAR_JSON_LIMITS: JsonLimits = { maxDepth: 64, maxEntries: 2_000_000, maxBytes: 20 * 1024 * 1024 };

/** Serialised size of a scalar; null for a value JSON cannot write at all. Non-finite numbers and undefined are left
 * to the schemas that read them (JSON writes them as null or leaves them out). */
function scalarBytes(value: unknown): number | null {
  switch (typeof value) {
    case 'string':
      return Buffer.byteLength(value, 'utf8') + 2;
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'undefined':
      return 0;
    case 'object':
      return 4;
    default:
      return null;
  }
}

/** Why `value` is not JSON within `limits`, or null when it is. */
export function jsonLimitBreach(value: unknown, limits: JsonLimits): string | null {
  const pending: [unknown, number][] = [[value, 1]];
  let entries = 0;
  let bytes = 0;
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== 'object') {
      const size = scalarBytes(item);
      if (size === null) return `holds a value JSON cannot write (${typeof item})`;
      bytes += size;
    } else {
      if (depth > limits.maxDepth) return `is nested deeper than ${limits.maxDepth} levels`;
      const children: unknown[] = Array.isArray(item) ? item : Object.values(item);
      entries += children.length;
      if (entries > limits.maxEntries) return `has more than ${limits.maxEntries} keys and array items`;
      if (Array.isArray(item)) bytes += 1 + item.length;
      else for (const key of Object.keys(item)) bytes += Buffer.byteLength(key, 'utf8') + 4;
      for (const child of children) pending.push([child, depth + 1]);
    }
    if (bytes > limits.maxBytes) return `is larger than ${limits.maxBytes} bytes`;
  }
  return null;
}

/** Adds the limits to a schema of free-form JSON: a breach is a validation issue at that field. */
export function boundedJson<S extends z.ZodType>(schema: S, limits: JsonLimits): S {
  const described = schema.description ? `${schema.description} ` : '';
  return schema
    .superRefine((value, ctx) => {
      const breach = jsonLimitBreach(value, limits);
      if (breach) ctx.addIssue({ code: 'custom', message: `The JSON ${breach}.` });
    })
    .describe(`${described}At most ${limits.maxDepth} levels deep, ${limits.maxEntries} keys and array items, ${limits.maxBytes} bytes.`) as unknown as S;
}
