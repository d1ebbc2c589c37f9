export type JsonPathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * `['words', 12, 'end']` → `words[12].end`; keys that are not identifiers are quoted: `["chunk 01"].status`.
 * `prefix` is prepended as is (e.g. a field name: `chunk_sidecars_json[3]`).
 */
export function jsonPath(segments: readonly JsonPathSegment[], prefix = ''): string {
  let path = prefix;
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) path += path ? `.${segment}` : segment;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}
