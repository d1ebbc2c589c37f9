// Schema spellings every MCP client accepts. zod writes a nullable string as `type: ["string", "null"]` and a value of
// any shape as `{}`; clients that map tool schemas onto a single-`type` dialect reject or drop both (the MCP
// Inspector's --strict portability check flags them). These helpers say the same thing in the portable form.
import { z } from 'zod';

/** `T | null` as two `anyOf` branches; `whenNull` says when the value is null (it also keeps zod from merging them). */
export function nullable<T extends z.ZodType>(schema: T, whenNull: string) {
  return z.union([schema, z.null().describe(whenNull)]);
}

/** A JSON object with any properties: `{"type": "object", "additionalProperties": true}`. */
export function freeObject() {
  return z.record(z.string(), z.unknown()).meta({ additionalProperties: true });
}
