// Watchlist sidecar: terms whose pronunciation or spelling is checked, each with the wrong forms to catch,
// plus words that must never be said.
import { z } from 'zod';
import { failAt, parseWithSchema } from './format-error.js';
import { describeType, isPlainObject } from './value-type.js';

const phrase = z.string().regex(/\S/, 'must not be blank');

export const WatchlistTermSchema = z
  .object({
    expected: phrase.meta({ description: 'The correct word or phrase, as it should be said.' }),
    banned: z
      .array(phrase)
      .default([])
      .meta({ description: 'Wrong forms of this term (mispronunciations, misspellings) to flag when they appear.' }),
  })
  .loose();

const TermsSchema = z.array(WatchlistTermSchema).default([]).meta({ description: 'Terms to watch.' });

export const WatchlistObjectSchema = z
  .object({
    terms: TermsSchema,
    banned: z.array(phrase).default([]).meta({ description: 'Words or phrases that must not be said at all.' }),
  })
  .loose();

export const WatchlistJsonSchema = z.union([WatchlistObjectSchema, z.array(WatchlistTermSchema)]).meta({
  title: 'Preflight pronunciation watchlist sidecar',
  description:
    'Terms to watch in the transcript: { terms: [{ expected, banned: [...] }], banned: [...] }, or a bare array of terms. ' +
    'Unknown fields are kept and ignored.',
});

export type Watchlist = z.output<typeof WatchlistObjectSchema>;
export type WatchlistTerm = z.output<typeof WatchlistTermSchema>;

export function watchlistFromJson(value: unknown): Watchlist {
  if (Array.isArray(value)) return { terms: parseWithSchema(z.array(WatchlistTermSchema), value), banned: [] };
  if (!isPlainObject(value)) return failAt('', `expected an object with terms or an array of terms, received ${describeType(value)}`);
  return parseWithSchema(WatchlistObjectSchema, value);
}
