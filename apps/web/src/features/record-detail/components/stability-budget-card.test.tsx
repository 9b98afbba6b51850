import { ZRecordStabilityBudget, type TRecordStabilityBudget } from '@coldtrace/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../test/api';
import { renderInApp } from '../../../test/render';
import { StabilityBudgetCard } from './stability-budget-card';

/** A budget of insulin pens: 12 h above 8 °C, 30 min below 2 °C, one leg (record 101). */
function budgetOf(over: Partial<TRecordStabilityBudget> = {}): TRecordStabilityBudget {
  return ZRecordStabilityBudget.parse({
    product_name: 'Insulin pens',
    shipping_reference: null,
    legs: [{ record_id: '101', tag_serial_number: 'XT1-0042', start_time: '2026-11-20T06:00:00Z' }],
    planned_arrival: null,
    bands: [
      {
        direction: 'ABOVE',
        limit: 8,
        allowed_minutes: 720,
        consumed_minutes: 90,
        remaining_minutes: 630,
        used_up: false,
        this_leg_minutes: 90,
        projected_minutes: null,
        used_up_at: null,
      },
      {
        direction: 'BELOW',
        limit: 2,
        allowed_minutes: 30,
        consumed_minutes: 32,
        remaining_minutes: 0,
        used_up: true,
        this_leg_minutes: 12,
        projected_minutes: null,
        used_up_at: null,
      },
    ],
    ...over,
  });
}

function renderCard(
  budget: TRecordStabilityBudget,
  props: { unit?: 'C' | 'F'; onEditArrival?: () => void } = {},
) {
  stubApi();
  return renderInApp(
    <StabilityBudgetCard
      budget={budget}
      recordId="101"
      unit={props.unit ?? 'C'}
      timeZone="UTC"
      onEditArrival={props.onEditArrival}
    />,
  );
}

describe('the stability budget card [FEAT-STABILITY-BUDGET]', () => {
  it('shows each band with its use, what is left and this leg, for one record', () => {
    renderCard(budgetOf());
    expect(screen.getByText('Insulin pens · this record only · 1 leg')).toBeTruthy();
    expect(screen.getByText('Planned arrival: not set')).toBeTruthy();

    const above = screen.getByRole('progressbar', { name: 'Above 8.0 °C: 1h 30m of 12h used' });
    expect(above.getAttribute('aria-valuenow')).toBe('12.5');
    expect(above.classList.contains('MuiLinearProgress-colorSuccess')).toBe(true);
    expect(screen.getByText('10h 30m left · this leg 1h 30m')).toBeTruthy();

    const below = screen.getByRole('progressbar', { name: 'Below 2.0 °C: 32 min of 30 min used' });
    expect(below.getAttribute('aria-valuenow')).toBe('100');
    expect(below.classList.contains('MuiLinearProgress-colorError')).toBe(true);
    expect(screen.getByText('Used up: 32 min of 30 min used')).toBeTruthy();
    expect(screen.getByText('0 min left · this leg 12 min')).toBeTruthy();
    // No projection without a planned arrival, no list of legs for one leg.
    expect(screen.queryByText(/At this leg's rate/)).toBeNull();
    expect(screen.queryByText(/^Legs:/)).toBeNull();
  });

  it("projects a band to the planned arrival at this leg's rate, and says when it runs out", () => {
    const [above, below] = budgetOf().bands;
    renderCard(
      budgetOf({
        planned_arrival: '2026-11-22T18:00:00Z',
        bands: [{ ...above!, projected_minutes: 800, used_up_at: '2026-11-22T15:30:00Z' }, below!],
      }),
    );
    expect(screen.getByText('Planned arrival: 11/22/2026, 18:00:00')).toBeTruthy();
    expect(
      screen.getByText(
        "At this leg's rate: 13h 20m by the planned arrival (11/22/2026, 18:00:00); used up at 11/22/2026, 15:30:00",
      ),
    ).toBeTruthy();
  });

  it('sums a shipment of several legs and links the other legs', () => {
    renderCard(
      budgetOf({
        shipping_reference: 'SHP-7',
        legs: [
          { record_id: '100', tag_serial_number: 'XT1-0041', start_time: '2026-11-19T06:00:00Z' },
          { record_id: '101', tag_serial_number: 'XT1-0042', start_time: '2026-11-20T06:00:00Z' },
        ],
      }),
    );
    expect(screen.getByText('Insulin pens · shipment SHP-7 · 2 legs')).toBeTruthy();
    const legs = screen.getByText(/^Legs:/);
    expect(legs.textContent).toBe('Legs: record 100, record 101 (this one)');
    expect(within(legs).getByRole('link', { name: 'record 100' }).getAttribute('href')).toBe(
      '/recorddetails/100',
    );
    expect(within(legs).getAllByRole('link')).toHaveLength(1);
  });

  it("names the bands in the user's unit", () => {
    renderCard(budgetOf(), { unit: 'F' });
    expect(screen.getByRole('heading', { name: 'Above 46.4 °F' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Below 35.6 °F' })).toBeTruthy();
  });

  it('offers the planned arrival only to whoever may change it', async () => {
    const onEditArrival = vi.fn();
    const { user, unmount } = renderCard(budgetOf(), { onEditArrival });
    await user.click(screen.getByRole('button', { name: 'Planned arrival' }));
    expect(onEditArrival).toHaveBeenCalledTimes(1);
    unmount();
    renderCard(budgetOf());
    expect(screen.queryByRole('button', { name: 'Planned arrival' })).toBeNull();
  });
});
