import { describe, expect, it } from 'vitest';
import { updatedSearch } from './url-search';

describe('updatedSearch [SPEC-2.12]', () => {
  const set = (key: string, value: string) => (current: URLSearchParams) => {
    const next = new URLSearchParams(current);
    next.set(key, value);
    return next;
  };

  it('starts from the search it is given and keeps what it does not change', () => {
    expect(updatedSearch('?review_state=AWAITING_DECISION', set('disposition', 'NONE'))).toBe(
      '?review_state=AWAITING_DECISION&disposition=NONE',
    );
  });

  it('two updates in a row keep both (the second starts from the first)', () => {
    const first = updatedSearch('', set('review_state', 'AWAITING_DECISION'));
    expect(updatedSearch(first, set('disposition', 'NONE'))).toBe(
      '?review_state=AWAITING_DECISION&disposition=NONE',
    );
  });

  it('an update that removes everything leaves an empty search', () => {
    expect(updatedSearch('?tab=carriers', () => new URLSearchParams())).toBe('?');
  });
});
