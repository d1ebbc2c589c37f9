// The tool-schema portability checks of the MCP Inspector CLI (`--method tools/list --strict`, inspector 2.12), written
// again for the suite: the inspector itself needs Node 22. It walks every subschema of each tool's inputSchema and
// outputSchema and reports:
// - type-union (warning): `type` is an array, which single-type dialects reject (zod's spelling of a nullable string);
// - remote-ref (warning): a `$ref` outside the document, unless the schema declares `$id`s;
// - untyped-schema (warning): a schema with no validation keyword at all, i.e. `{}` (zod's z.unknown());
// - boolean-schema (error): a bare true/false where a schema object is expected (allowed under additionalProperties,
//   unevaluatedProperties, additionalItems and unevaluatedItems).
export interface Finding {
  tool: string;
  rule: 'type-union' | 'remote-ref' | 'untyped-schema' | 'boolean-schema';
  path: string;
}

type Json = Record<string, unknown>;

const BOOLEAN_ALLOWED = new Set(['additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems']);
const ONE_SCHEMA = ['items', 'contains', 'not', 'propertyNames', 'if', 'then', 'else', ...BOOLEAN_ALLOWED, 'contentSchema'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas', 'dependencies', '$defs', 'definitions'];
const CONSTRAINING = new Set([
  'type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength',
  'pattern', 'format', 'contentMediaType', 'contentEncoding', 'contentSchema', 'maxItems', 'minItems', 'uniqueItems', 'maxContains',
  'minContains', 'maxProperties', 'minProperties', 'required', 'dependentRequired', 'allOf', 'anyOf', 'oneOf', 'not', 'items',
  'prefixItems', 'contains', 'additionalItems', 'unevaluatedItems', 'properties', 'patternProperties', 'additionalProperties',
  'unevaluatedProperties', 'propertyNames', 'dependentSchemas', 'dependencies', '$ref', '$dynamicRef', '$recursiveRef',
]);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function children(node: Json, path: string): [unknown, string, string][] {
  const out: [unknown, string, string][] = [];
  for (const key of SCHEMA_MAPS) {
    if (isObject(node[key])) for (const [name, sub] of Object.entries(node[key])) out.push([sub, `${path}.${key}.${name}`, key]);
  }
  for (const key of SCHEMA_LISTS) {
    if (Array.isArray(node[key])) (node[key] as unknown[]).forEach((sub, i) => out.push([sub, `${path}.${key}[${i}]`, key]));
  }
  for (const key of ONE_SCHEMA) {
    if (!(key in node)) continue;
    if (key === 'items' && Array.isArray(node.items)) node.items.forEach((sub, i) => out.push([sub, `${path}.items[${i}]`, key]));
    else out.push([node[key], `${path}.${key}`, key]);
  }
  return out;
}

function declaresId(node: unknown): boolean {
  return isObject(node) && ((typeof node.$id === 'string' && node.$id !== '') || children(node, '').some(([sub]) => declaresId(sub)));
}

export function lintSchema(tool: string, schema: unknown, root: string): Finding[] {
  const findings: Finding[] = [];
  const hasIds = declaresId(schema);
  const walk = (node: unknown, path: string, keyword: string | undefined, depth: number) => {
    if (depth > 64) return;
    if (typeof node === 'boolean') {
      if (!keyword || !BOOLEAN_ALLOWED.has(keyword)) findings.push({ tool, rule: 'boolean-schema', path });
      return;
    }
    if (!isObject(node)) return;
    if (Array.isArray(node.type) && node.type.length > 0) findings.push({ tool, rule: 'type-union', path });
    if (typeof node.$ref === 'string' && node.$ref !== '' && !node.$ref.startsWith('#') && !hasIds) findings.push({ tool, rule: 'remote-ref', path });
    const constrains = Object.keys(node).some((k) => CONSTRAINING.has(k)) || ('if' in node && ('then' in node || 'else' in node));
    if (!constrains && keyword !== 'not') findings.push({ tool, rule: 'untyped-schema', path });
    for (const [sub, subPath, key] of children(node, path)) walk(sub, subPath, key, depth + 1);
  };
  walk(schema, root, undefined, 0);
  return findings;
}

export function lintTools(tools: { name: string; inputSchema?: unknown; outputSchema?: unknown }[]): Finding[] {
  return tools.flatMap((t) => [
    ...(t.inputSchema === undefined ? [] : lintSchema(t.name, t.inputSchema, 'inputSchema')),
    ...(t.outputSchema === undefined ? [] : lintSchema(t.name, t.outputSchema, 'outputSchema')),
  ]);
}
