import type { TRecord } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import { dispositionTexts } from './disposition-text';

/** The release decision as the reports print it (issue 35: a release in transit gives its reason). */
const signed = (transitReason: string | null): TRecord => ({
  disposition: {
    id: '1',
    decision: 'RELEASED',
    comment: 'In range',
    meaning: 'APPROVED',
    transit_reason: transitReason,
    signed_by: 'Quality Manager',
    signed_at: '2026-07-01T10:00:00.000Z',
  },
});

describe('release decision lines of the reports [RULE-REPORT-1, RULE-AUDIT-4]', () => {
  it('print the transit reason of a release before the trip ended, after the comment', () => {
    const lines = dispositionTexts(signed('Customer takes it at the border'), 'UTC');
    expect(lines.slice(-2)).toEqual([
      'Decision comment: In range',
      'Released in transit: Customer takes it at the border',
    ]);
  });

  it('print no transit line when the trip had ended', () => {
    const lines = dispositionTexts(signed(null), 'UTC');
    expect(lines.at(-1)).toBe('Decision comment: In range');
    expect(lines.join('\n')).not.toContain('in transit');
  });
});
