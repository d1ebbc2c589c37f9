// Canonical JSON for signatures: JSON.stringify semantics, but object keys sorted ascending (by UTF-16 code
// unit, as Array.prototype.sort does) at every depth and no whitespace. Arrays keep their order; properties
// whose value is undefined, a function or a symbol are dropped (null inside arrays), as JSON.stringify does.
//
// The string is built by hand because JSON.stringify always writes integer-like keys ("2", "10") first in
// numeric order, whatever order the object was built in.

type Serialised = string | undefined;

function applyToJson(value: unknown, key: string): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON: (key: string) => unknown }).toJSON(key);
  }
  return value;
}

function isBoxedPrimitive(value: object): boolean {
  return value instanceof Number || value instanceof String || value instanceof Boolean;
}

function serialiseArray(items: readonly unknown[], ancestors: object[]): string {
  const parts = items.map((item, index) => serialise(item, String(index), ancestors) ?? 'null');
  return `[${parts.join(',')}]`;
}

function serialiseObject(object: Record<string, unknown>, ancestors: object[]): string {
  const parts: string[] = [];
  for (const key of Object.keys(object).sort()) {
    const serialisedValue = serialise(object[key], key, ancestors);
    if (serialisedValue !== undefined) parts.push(`${JSON.stringify(key)}:${serialisedValue}`);
  }
  return `{${parts.join(',')}}`;
}

function serialise(raw: unknown, key: string, ancestors: object[]): Serialised {
  const value = applyToJson(raw, key);
  if (value === null || typeof value !== 'object' || isBoxedPrimitive(value)) return JSON.stringify(value) as Serialised;
  if (ancestors.includes(value)) throw new TypeError('canonicalJson: cannot serialise a circular structure');
  ancestors.push(value);
  try {
    return Array.isArray(value) ? serialiseArray(value, ancestors) : serialiseObject(value as Record<string, unknown>, ancestors);
  } finally {
    ancestors.pop();
  }
}

/** Canonical JSON text of `value`. Throws TypeError where JSON.stringify would throw or give undefined. */
export function canonicalJson(value: unknown): string {
  const text = serialise(value, '', []);
  if (text === undefined) throw new TypeError('canonicalJson: value has no JSON representation');
  return text;
}
