import { REVIEW_STATE_FILTERS, xt1Records } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import {
  REVIEW_STATE_FILTER_LABELS,
  recordsWithReviewState,
  reviewStateFilterOf,
} from './components/review-state-filter';
import { NEEDS_REVIEW_HREF, NEEDS_REVIEW_QUERY } from '../dashboard/components/needs-review-card';

describe('review state filter (issue 14 item 1) [FEAT-REVIEW-QUEUE]', () => {
  it('reads each state from the URL, and nothing from an unknown or missing one', () => {
    for (const f of REVIEW_STATE_FILTERS) {
      expect(reviewStateFilterOf(new URLSearchParams({ review_state: f }))).toBe(f);
      expect(REVIEW_STATE_FILTER_LABELS[f]).toMatch(/\S/);
    }
    expect(reviewStateFilterOf(new URLSearchParams({ review_state: 'PENDING' }))).toBeUndefined();
    expect(reviewStateFilterOf(new URLSearchParams())).toBeUndefined();
  });

  it("the dashboard's Needs review card opens All Records filtered by NEEDS_REVIEW", () => {
    const url = new URL(NEEDS_REVIEW_HREF, 'http://localhost');
    expect(url.pathname).toBe('/allrecords');
    expect(reviewStateFilterOf(url.searchParams)).toBe('NEEDS_REVIEW');
    expect(recordsWithReviewState('RELEASED')).toBe('/allrecords?review_state=RELEASED');
  });

  it('counts with one row of the same filter, a query the records call accepts', () => {
    expect(NEEDS_REVIEW_QUERY).toMatchObject({ review_state: 'NEEDS_REVIEW', page_size: 1 });
    expect(xt1Records.query!.parse(NEEDS_REVIEW_QUERY)).toMatchObject({
      review_state: 'NEEDS_REVIEW',
    });
  });
});
