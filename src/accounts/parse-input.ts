// Validates a door's raw input against a schema; a failure is a 400 that names every offending field.
import type { z } from 'zod';
import { ServiceError } from '../errors.js';

export function parseInput<S extends z.ZodType>(schema: S, value: unknown, code: string, what: string): z.output<S> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({ field: issue.path.join('.') || '(body)', message: issue.message }));
  const summary = issues.map((i) => `${i.field}: ${i.message}`).join('; ');
  throw new ServiceError(code, `Invalid ${what}: ${summary}.`, { issues }, 400);
}
