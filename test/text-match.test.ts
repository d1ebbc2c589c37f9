import { describe, expect, it } from 'vitest';
import { containsPhrase, findPhrase, normalise, tokenize } from '../engine/text/match.js';

describe('whole-word matching', () => {
  it('matches words and phrases, never parts of words', () => {
    expect(containsPhrase('Our company grew', 'pan')).toBe(false);
    expect(containsPhrase('the interface is clean', 'face')).toBe(false);
    expect(containsPhrase('a mustard seed grows', 'seed')).toBe(true);
    expect(containsPhrase('a mustard seed grows', 'mustard seed')).toBe(true);
    expect(containsPhrase('Mustard, seed!', 'mustard seed')).toBe(true);
    expect(containsPhrase('seed mustard', 'mustard seed')).toBe(false);
  });

  it('normalises case, accents, curly quotes and dashes', () => {
    expect(normalise('Café — “Naïve”')).toBe('cafe - “naive”');
    expect(containsPhrase('CAFÉ au lait', 'cafe')).toBe(true);
    expect(containsPhrase('Don’t stop', "don't")).toBe(true);
  });

  it('keeps character offsets of the original text', () => {
    const text = 'Visit Example.com now';
    const tokens = tokenize(text);
    expect(tokens.map((t) => t.norm)).toEqual(['visit', 'example', 'com', 'now']);
    expect(text.slice(tokens[1].start, tokens[1].end)).toBe('Example');
    expect(findPhrase(tokens, 'example com')).toEqual([1]);
  });
});
