import { parseFilter } from '@coldtrace/domain';
import type { TDegreesUnit } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import {
  OPERATORS_BY_TYPE,
  filterItemProblem,
  filterModelToApiFilter,
  operatorLabel,
  sortModelToOrderBy,
  valueEntries,
  type FilterFieldSpec,
  type GridFilterModelLike,
} from './grid-filter';

const SPECS: FilterFieldSpec[] = [
  { field: 'primary_reference', label: 'Primary reference', type: 'text' },
  { field: 'id', label: 'Record', type: 'id' },
  { field: 'number_of_points', label: 'Points', type: 'number' },
  { field: 'highest_recorded_temperature', label: 'Highest', type: 'temperature' },
  { field: 'created', label: 'Created', type: 'date' },
  {
    field: 'computed_status',
    label: 'Status',
    type: 'enum',
    options: [
      { value: 'OK', label: 'OK' },
      { value: 'Alarm', label: 'Alarm' },
    ],
  },
  {
    field: 'active',
    label: 'Recording',
    type: 'boolean',
    options: [
      { value: 'true', label: 'Active' },
      { value: 'false', label: 'Stopped' },
    ],
  },
];

const C: { unit: TDegreesUnit; timeZone: string } = { unit: 'C', timeZone: 'UTC' };

function filter(model: GridFilterModelLike, context = C) {
  return filterModelToApiFilter(model, SPECS, context);
}

describe('operators per type (record-queries.md) [SPEC-5.6, RULE-FILTER-1]', () => {
  it('offers only what the server accepts for each type', () => {
    expect(OPERATORS_BY_TYPE.text).toEqual([
      'contains',
      'equals',
      '!=',
      'startsWith',
      'endsWith',
      'isAnyOf',
      'isEmpty',
      'isNotEmpty',
    ]);
    expect(OPERATORS_BY_TYPE.number).not.toContain('contains');
    expect(OPERATORS_BY_TYPE.date).toEqual([
      'is',
      'not',
      'after',
      'onOrAfter',
      'before',
      'onOrBefore',
      'isEmpty',
      'isNotEmpty',
    ]);
    expect(OPERATORS_BY_TYPE.enum).toEqual(['is', 'not', 'isAnyOf', 'isEmpty', 'isNotEmpty']);
    expect(OPERATORS_BY_TYPE.boolean).toEqual(['is']);
    expect(OPERATORS_BY_TYPE.id).toEqual(
      expect.arrayContaining(['=', '>', 'isAnyOf', 'contains', 'startsWith']),
    );
    expect(OPERATORS_BY_TYPE.id).not.toContain('isEmpty');
  });

  it('labels operators as the grid does', () => {
    expect(operatorLabel('text', '!=')).toBe('does not equal');
    expect(operatorLabel('number', '!=')).toBe('!=');
    expect(operatorLabel('date', 'onOrAfter')).toBe('is on or after');
    expect(operatorLabel('enum', 'not')).toBe('is not');
  });
});

describe('filterModelToApiFilter [SPEC-5.6, RULE-FILTER-1]', () => {
  it('leaves the parameter out without complete items', () => {
    expect(filter({ items: [] })).toBeUndefined();
    expect(
      filter({ items: [{ field: 'primary_reference', operator: 'contains', value: '  ' }] }),
    ).toBeUndefined();
  });

  it('maps a text item, trimmed and escaped', () => {
    expect(
      filter({ items: [{ field: 'primary_reference', operator: 'contains', value: ' a^b|c=d ' }] }),
    ).toBe('primary_reference__contains=a\\^b\\|c\\=d');
  });

  it('keeps a comma inside a single text value', () => {
    const text = filter({
      items: [{ field: 'primary_reference', operator: 'equals', value: 'Acme, Inc' }],
    })!;
    expect(parseFilter(text).items).toEqual([
      { field: 'primary_reference', operator: 'equals', value: 'Acme, Inc' },
    ]);
  });

  it('spells the symbolic operators with their wire names', () => {
    expect(filter({ items: [{ field: 'number_of_points', operator: '>=', value: '10' }] })).toBe(
      'number_of_points__gte=10',
    );
    expect(filter({ items: [{ field: 'primary_reference', operator: '!=', value: 'x' }] })).toBe(
      'primary_reference__ne=x',
    );
  });

  it('joins with ^ for and and | for or (default or)', () => {
    const items = [
      { id: 1, field: 'primary_reference', operator: 'contains', value: 'A' },
      { id: 2, field: 'computed_status', operator: 'is', value: 'Alarm' },
    ];
    expect(filter({ items })).toBe('primary_reference__contains=A|computed_status__is=Alarm');
    expect(filter({ items, logicOperator: 'and' })).toBe(
      'primary_reference__contains=A^computed_status__is=Alarm',
    );
  });

  it('sends isAnyOf as a list and valueless operators without a value', () => {
    expect(
      filter({
        items: [{ field: 'computed_status', operator: 'isAnyOf', value: ['OK', ' Alarm ', ''] }],
      }),
    ).toBe('computed_status__isAnyOf=OK,Alarm');
    expect(filter({ items: [{ field: 'primary_reference', operator: 'isEmpty' }] })).toBe(
      'primary_reference__isEmpty=',
    );
  });

  it('converts temperatures typed in °F to °C', () => {
    expect(
      filter(
        { items: [{ field: 'highest_recorded_temperature', operator: '>', value: '46.4' }] },
        { unit: 'F', timeZone: 'UTC' },
      ),
    ).toBe('highest_recorded_temperature__gt=8');
    expect(
      filter(
        {
          items: [
            { field: 'highest_recorded_temperature', operator: 'isAnyOf', value: ['32', '50'] },
          ],
        },
        { unit: 'F', timeZone: 'UTC' },
      ),
    ).toBe('highest_recorded_temperature__isAnyOf=0,10');
    expect(
      filter({ items: [{ field: 'highest_recorded_temperature', operator: '<', value: '2.555' }] }),
    ).toBe('highest_recorded_temperature__lt=2.56');
  });

  it('leaves out what the server would refuse, and says why', () => {
    const bad = [
      { field: 'number_of_points', operator: '>', value: 'ten' },
      { field: 'id', operator: '=', value: '12a' },
      { field: 'primary_reference', operator: '>', value: '1' },
      { field: 'computed_status', operator: 'is', value: 'Maybe' },
      { field: 'created', operator: 'after', value: '2025-02-30' },
      { field: 'unknown_field', operator: 'contains', value: 'x' },
    ];
    expect(filter({ items: bad })).toBeUndefined();
    expect(filterItemProblem(SPECS[2]!, bad[0]!)).toBe("'ten' is not a number");
    expect(filterItemProblem(SPECS[1]!, bad[1]!)).toMatch(/not a record id/);
    expect(filterItemProblem(SPECS[0]!, bad[2]!)).toMatch(/does not apply/);
    expect(filter({ items: [...bad, { field: 'id', operator: 'startsWith', value: '12' }] })).toBe(
      'id__startsWith=12',
    );
  });

  it('accepts enum and boolean values in any case', () => {
    expect(filter({ items: [{ field: 'computed_status', operator: 'is', value: 'alarm' }] })).toBe(
      'computed_status__is=alarm',
    );
    expect(filter({ items: [{ field: 'active', operator: 'is', value: true }] })).toBe(
      'active__is=true',
    );
  });

  describe('dates are days in the user zone', () => {
    const paris = { unit: 'C' as const, timeZone: 'Europe/Paris' };

    it('sends the date alone in UTC', () => {
      expect(filter({ items: [{ field: 'created', operator: 'is', value: '2025-03-01' }] })).toBe(
        'created__is=2025-03-01',
      );
    });

    it('sends the first or last minute of the day with its offset', () => {
      const day = (operator: string) =>
        filter({ items: [{ field: 'created', operator, value: '2025-03-01' }] }, paris);
      expect(day('onOrAfter')).toBe('created__onOrAfter=2025-03-01T00:00+01:00');
      expect(day('before')).toBe('created__before=2025-03-01T00:00+01:00');
      expect(day('after')).toBe('created__after=2025-03-01T23:59+01:00');
      expect(day('onOrBefore')).toBe('created__onOrBefore=2025-03-01T23:59+01:00');
    });

    it('uses the offset of the day itself (summer time)', () => {
      expect(
        filter({ items: [{ field: 'created', operator: 'after', value: '2025-07-14' }] }, paris),
      ).toBe('created__after=2025-07-14T23:59+02:00');
      // The day summer time begins: midnight is +01:00, the evening +02:00.
      expect(
        filter({ items: [{ field: 'created', operator: 'is', value: '2025-03-30' }] }, paris),
      ).toBe(
        'created__onOrAfter=2025-03-30T00:00+01:00^created__onOrBefore=2025-03-30T23:59+02:00',
      );
    });

    it("'is' alone is two items joined by and; 'not' two joined by or", () => {
      expect(
        filter({ items: [{ field: 'created', operator: 'is', value: '2025-03-01' }] }, paris),
      ).toBe(
        'created__onOrAfter=2025-03-01T00:00+01:00^created__onOrBefore=2025-03-01T23:59+01:00',
      );
      expect(
        filter({ items: [{ field: 'created', operator: 'not', value: '2025-03-01' }] }, paris),
      ).toBe('created__before=2025-03-01T00:00+01:00|created__after=2025-03-01T23:59+01:00');
    });

    it('keeps the two items when the filter has the same logic, else sends the date', () => {
      const other = { field: 'primary_reference', operator: 'contains', value: 'A' };
      const is = { field: 'created', operator: 'is', value: '2025-03-01' };
      expect(filter({ items: [other, is], logicOperator: 'and' }, paris)).toBe(
        'primary_reference__contains=A^created__onOrAfter=2025-03-01T00:00+01:00^created__onOrBefore=2025-03-01T23:59+01:00',
      );
      expect(filter({ items: [other, is], logicOperator: 'or' }, paris)).toBe(
        'primary_reference__contains=A|created__is=2025-03-01',
      );
    });

    it('a range of days (the dashboard cards) is exact', () => {
      expect(
        filter(
          {
            items: [
              { field: 'created', operator: 'onOrAfter', value: '2025-03-01' },
              { field: 'created', operator: 'onOrBefore', value: '2025-03-31' },
              { field: 'computed_status', operator: 'is', value: 'Alarm' },
            ],
            logicOperator: 'and',
          },
          { unit: 'C', timeZone: 'America/New_York' },
        ),
      ).toBe(
        'created__onOrAfter=2025-03-01T00:00-05:00^created__onOrBefore=2025-03-31T23:59-04:00^computed_status__is=Alarm',
      );
    });

    it('every filter it writes parses back with the grammar', () => {
      const text = filter(
        {
          items: [
            { field: 'created', operator: 'not', value: '2025-03-01' },
            { field: 'primary_reference', operator: 'isAnyOf', value: ['a,b', 'c'] },
          ],
        },
        paris,
      )!;
      expect(parseFilter(text).items).toHaveLength(3);
    });
  });
});

describe('valueEntries [SPEC-5.6, RULE-FILTER-1]', () => {
  it('splits text lists on commas and drops empty entries', () => {
    expect(valueEntries(' a, ,b ')).toEqual(['a', 'b']);
    expect(valueEntries(['1', 2, true, null])).toEqual(['1', '2', 'true']);
    expect(valueEntries(undefined)).toEqual([]);
  });
});

describe('sortModelToOrderBy [SPEC-5.6, RULE-FILTER-1]', () => {
  it('writes -field for descending and leaves unsorted out', () => {
    expect(
      sortModelToOrderBy([
        { field: 'last_action_taken', sort: 'desc' },
        { field: 'id', sort: 'asc' },
        { field: 'carrier', sort: null },
      ]),
    ).toEqual(['-last_action_taken', 'id']);
  });
});
