// A problem found in a sidecar's content. Pure (no service imports) so the formats can be reused by the engine;
// the ingestion layer turns it into a ServiceError that names the field and the file.
import type { z } from 'zod';
import { jsonPath, type JsonPathSegment } from './json-path.js';

export interface SidecarFormatLocation {
  /** JSON path of the offending value, e.g. `words[12].end`; absent for the whole document. */
  path?: string;
  /** 1-based line (text formats and JSON syntax errors). */
  line?: number;
  column?: number;
  /** 1-based cue number (SRT/WebVTT). */
  cue?: number;
}

export class SidecarFormatError extends Error {
  constructor(
    /** The problem alone, without the location, e.g. `must be ≥ start (2.1 < 2.4)`. */
    public readonly problem: string,
    public readonly location: SidecarFormatLocation = {},
  ) {
    super(describe(problem, location));
    this.name = 'SidecarFormatError';
  }
}

function describe(problem: string, { path, line, column, cue }: SidecarFormatLocation): string {
  if (path) return `${path}: ${problem}`;
  if (cue !== undefined) return `cue ${cue} (line ${line}): ${problem}`;
  if (line !== undefined) return column === undefined ? `line ${line}: ${problem}` : `line ${line}, column ${column}: ${problem}`;
  return problem;
}

/** Parses with a zod schema; the first issue becomes a SidecarFormatError with its JSON path. */
export function parseWithSchema<T extends z.ZodType>(schema: T, value: unknown, basePath: JsonPathSegment[] = []): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const [first, ...rest] = result.error.issues;
  const more = rest.length > 0 ? ` (and ${rest.length} more problem${rest.length === 1 ? '' : 's'})` : '';
  const path = jsonPath([...basePath, ...(first.path as JsonPathSegment[])]);
  return failAt(path, `${issueProblem(first)}${more}`);
}

export function failAt(path: string, problem: string): never {
  throw new SidecarFormatError(problem, path ? { path } : {});
}

// zod prefixes its messages ("Invalid input: expected number, received string"); keep the informative part.
function issueProblem(issue: z.core.$ZodIssue): string {
  const message = issue.message.replace(/^Invalid (input|option|value): /, '');
  if (issue.code === 'invalid_type' && /received undefined$/.test(message)) return `missing (expected ${issue.expected})`;
  return message;
}
