import { MAX_SEARCH_LENGTH } from '@coldtrace/contract';

/**
 * The search URL (spec section 2): /search with `searchTerms` (trimmed) and
 * `page` (1-based, default 1). Page size 5 for both the suggestions and the
 * results page (spec section 9).
 */

export const SEARCH_PATH = '/search';
export const SEARCH_TERMS_PARAM = 'searchTerms';
export const SEARCH_PAGE_PARAM = 'page';

/** The terms as they are sent: trimmed, and no longer than the API takes. */
export function normalizeTerms(terms: string): string {
  return terms.trim().slice(0, MAX_SEARCH_LENGTH).trim();
}

/** `/search?searchTerms=acme%20ltd&page=1`. */
export function searchHref(terms: string, page = 1): string {
  const params = new URLSearchParams({
    [SEARCH_TERMS_PARAM]: normalizeTerms(terms),
    [SEARCH_PAGE_PARAM]: String(Math.max(1, Math.trunc(page) || 1)),
  });
  return `${SEARCH_PATH}?${params.toString()}`;
}

export interface SearchState {
  terms: string;
  /** 1-based. */
  page: number;
}

/** Reads the search URL; a missing or bad page is 1. */
export function readSearchState(params: Pick<URLSearchParams, 'get'>): SearchState {
  const terms = normalizeTerms(params.get(SEARCH_TERMS_PARAM) ?? '');
  const raw = Number(params.get(SEARCH_PAGE_PARAM));
  const page = Number.isFinite(raw) && raw >= 1 ? Math.min(Math.trunc(raw), 1_000_000) : 1;
  return { terms, page };
}

/** Pages needed for `total` results of `pageSize`. */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, pageSize)));
}
