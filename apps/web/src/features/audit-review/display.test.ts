import { AUDIT_REVIEW_RISKS, type TAuditReviewPeriodSummary } from '@coldtrace/contract';
import { getContrastRatio } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { withMarkedEntries } from './api/mark-entries';
import {
  defaultPeriod,
  periodLabel,
  periodStateText,
  refusalText,
  RISK_CHIP_COLOURS,
  STATE_CHIP_COLOURS,
} from './display';

const summary = (
  period: string,
  state: TAuditReviewPeriodSummary['state'],
): TAuditReviewPeriodSummary => ({ period, state, due: '2026-06-30T00:00:00.000Z', closure: null });

describe('audit-trail review page: words and colours [FEAT-AUDIT-REVIEW]', () => {
  it('names a month as a reader does, the same in every zone', () => {
    expect(periodLabel('2026-05')).toBe('May 2026');
    expect(periodLabel('2025-12')).toBe('December 2025');
  });

  it('says each state in words, the dates in the reader zone', () => {
    expect(periodStateText(summary('2026-06', 'open'), 'UTC')).toBe(
      'In progress: the month has not ended',
    );
    expect(periodStateText(summary('2026-05', 'due'), 'UTC')).toBe('Review due by 06/30/2026');
    expect(periodStateText(summary('2026-05', 'overdue'), 'America/New_York')).toBe(
      'Overdue since 06/29/2026',
    );
    expect(
      periodStateText(
        {
          state: 'closed',
          due: '2026-06-30T00:00:00.000Z',
          closure: {
            signed_by: 'Ada Admin',
            signed_at: '2026-06-02T10:04:00.000Z',
            meaning: 'REVIEWED',
            comment: 'ok',
            second_factor: null,
            entries: 3,
            reviewed: 3,
          },
        },
        'UTC',
      ),
    ).toBe('Closed by Ada Admin on 06/02/2026, 10:04:00');
  });

  it('opens on the newest month that has ended and is not closed, else the current one', () => {
    expect(
      defaultPeriod([
        summary('2026-06', 'open'),
        summary('2026-05', 'closed'),
        summary('2026-04', 'overdue'),
      ]),
    ).toBe('2026-04');
    expect(defaultPeriod([summary('2026-06', 'open'), summary('2026-05', 'closed')])).toBe(
      '2026-06',
    );
    expect(defaultPeriod([])).toBeUndefined();
  });

  it('chips: text on background 4.5:1, border on the white page 3:1', () => {
    const all = [
      ...AUDIT_REVIEW_RISKS.map((r) => RISK_CHIP_COLOURS[r]),
      ...Object.values(STATE_CHIP_COLOURS),
    ];
    for (const c of all) {
      expect(getContrastRatio(c.text, c.background)).toBeGreaterThanOrEqual(4.5);
      expect(getContrastRatio(c.border, '#ffffff')).toBeGreaterThanOrEqual(3);
    }
  });

  it('shows the server refusal in words, naming the fields no input shows', () => {
    const notEnded = new ApiError(
      409,
      'CONFLICT',
      '2026-06 has not ended yet; review it once it has.',
      {
        period: 'not ended',
      },
    );
    expect(refusalText(notEnded, ['password'])).toBe(
      '2026-06 has not ended yet; review it once it has. (Month: not ended)',
    );
    const wrong = new ApiError(400, 'INVALID_CREDENTIALS', 'Wrong password', { password: 'Wrong' });
    expect(refusalText(wrong, ['password'])).toBeNull();
    expect(refusalText(new ApiError(500, 'HTTP_500', 'Failed'), [])).toBe('Failed');
    expect(refusalText(new Error('offline'), [])).toBe('offline');
  });

  it('puts the marks of the reply into the cached month', () => {
    const event = (id: string) => ({
      id,
      occurred_at: '2026-06-02T10:04:00.000Z',
      actor_user_id: 'u1',
      actor_name: 'Ada',
      client_type: 'WEB',
      action: 'product.update',
      entity_type: 'product',
      entity_id: '1',
      record_id: null,
      field: 'high_threshold',
      old_value: 8,
      new_value: 9,
      reason: null,
    });
    const entry = (id: string) => ({
      event: event(id),
      risk: 'medium' as const,
      reasons: ['product_limit_change' as const],
      review: null,
    });
    const mark = { reviewed_by: 'Ada', reviewed_at: '2026-06-03T00:00:00.000Z', comment: 'Seen' };
    const review = {
      period: '2026-06',
      start: '',
      end: '',
      due: '',
      state: 'open' as const,
      counts: { high: 0, medium: 2, low: 0, reviewed: 0, unreviewed_high: 0, system: 0 },
      entries: [entry('1'), entry('2')],
      closure: null,
    };
    const next = withMarkedEntries(review, [{ ...entry('2'), review: mark }]);
    expect(next.entries.map((e) => e.review)).toEqual([null, mark]);
  });
});
