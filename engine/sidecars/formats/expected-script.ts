// Expected script sidecar: what the narration should say, as plain text or JSON with text, script or words.
import { z } from 'zod';
import { failAt, parseWithSchema, SidecarFormatError } from './format-error.js';
import { isBlank, normaliseLineBreaks } from './plain-text.js';
import { describeType, isPlainObject } from './value-type.js';

export interface ExpectedScript {
  text: string;
  format: 'text' | 'json';
}

const ScriptWordSchema = z.union([
  z.string(),
  z
    .object({ text: z.string().optional(), word: z.string().optional() })
    .loose()
    .refine((word) => word.text !== undefined || word.word !== undefined, { message: 'missing (expected a text or word field)' }),
]);

const ScriptWordsSchema = z
  .array(ScriptWordSchema)
  .meta({ description: 'The script as words: strings, or objects with text (or word); any times are ignored.' });

export const ExpectedScriptObjectSchema = z
  .object({
    text: z.string().optional().meta({ description: 'The script. Used first when present.' }),
    script: z.string().optional().meta({ description: 'The script, when text is absent.' }),
    words: ScriptWordsSchema.optional(),
  })
  .loose()
  .meta({ anyOf: [{ required: ['text'] }, { required: ['script'] }, { required: ['words'] }] });

export const ExpectedScriptJsonSchema = z.union([ExpectedScriptObjectSchema, ScriptWordsSchema]).meta({
  title: 'Preflight expected script sidecar (JSON form)',
  description:
    'The script the narration should follow: an object with text, script or words (first present wins, in that order), ' +
    'or a bare array of words. Unknown fields are kept and ignored. Plain text scripts are also accepted.',
});

export function expectedScriptFromText(text: string): ExpectedScript {
  const normalised = normaliseLineBreaks(text).trim();
  if (isBlank(normalised)) throw new SidecarFormatError('expected script is empty');
  return { text: normalised, format: 'text' };
}

export function expectedScriptFromJson(value: unknown): ExpectedScript {
  let text: string;
  if (Array.isArray(value)) {
    text = joinWords(parseWithSchema(ScriptWordsSchema, value));
  } else if (isPlainObject(value)) {
    const parsed = parseWithSchema(ExpectedScriptObjectSchema, value);
    if (parsed.text !== undefined) text = parsed.text;
    else if (parsed.script !== undefined) text = parsed.script;
    else if (parsed.words !== undefined) text = joinWords(parsed.words);
    else return failAt('', 'expected a text, script or words field');
  } else {
    return failAt('', `expected an object or an array of words, received ${describeType(value)}`);
  }
  const normalised = normaliseLineBreaks(text).trim();
  if (isBlank(normalised)) return failAt('', 'expected script is empty');
  return { text: normalised, format: 'json' };
}

function joinWords(words: z.output<typeof ScriptWordsSchema>): string {
  return words
    .map((word) => (typeof word === 'string' ? word : (word.text ?? word.word ?? '')).trim())
    .filter((word) => word !== '')
    .join(' ');
}
