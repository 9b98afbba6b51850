import { describe, expect, it } from 'vitest';
import { normalizeTerms, pageCount, readSearchState, searchHref } from './search-params';

describe('search URL [SPEC-2.9, SPEC-5.5]', () => {
  it('goes to /search with the trimmed terms and page 1', () => {
    expect(searchHref('  acme  ltd ')).toBe('/search?searchTerms=acme++ltd&page=1');
    expect(searchHref('a&b', 3)).toBe('/search?searchTerms=a%26b&page=3');
  });

  it('reads terms and page, page 1 when missing or bad', () => {
    expect(readSearchState(new URLSearchParams('searchTerms=%20x%20&page=2'))).toEqual({
      terms: 'x',
      page: 2,
    });
    expect(readSearchState(new URLSearchParams('searchTerms=x&page=0')).page).toBe(1);
    expect(readSearchState(new URLSearchParams('searchTerms=x&page=abc')).page).toBe(1);
    expect(readSearchState(new URLSearchParams('')).terms).toBe('');
  });

  it('keeps the terms within what the API accepts', () => {
    expect(normalizeTerms('x'.repeat(600))).toHaveLength(500);
  });

  it('counts pages of 5', () => {
    expect(pageCount(0, 5)).toBe(1);
    expect(pageCount(5, 5)).toBe(1);
    expect(pageCount(6, 5)).toBe(2);
  });
});
