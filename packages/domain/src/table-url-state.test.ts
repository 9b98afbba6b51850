import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FILTER_OPERATORS, type FilterItem, type OrderByItem } from './filter-grammar';
import {
  clampPageNumber,
  clampPageSize,
  searchParamsToTableState,
  tableStateToSearchParams,
  type SearchParamsReader,
  type TableState,
} from './table-url-state';

/**
 * The runtime's URLSearchParams, typed here: the domain package compiles
 * without DOM or Node typings, and the point is to test against the real one.
 */
interface UrlSearchParams extends SearchParamsReader {
  append(name: string, value: string): void;
  toString(): string;
}
const URLSearchParams = (
  globalThis as unknown as {
    URLSearchParams: new (init?: string | [string, string][]) => UrlSearchParams;
  }
).URLSearchParams;

const DEFAULT_PAGE_SIZE = 20;

const read = (query: string): TableState =>
  searchParamsToTableState(new URLSearchParams(query), DEFAULT_PAGE_SIZE);

const EMPTY: TableState = {
  filterItems: [],
  filterLogicOperator: 'or',
  orderBy: [],
  pageNumber: 0,
  pageSize: DEFAULT_PAGE_SIZE,
};

describe('tableStateToSearchParams [SPEC-2.12, SPEC-5.8]', () => {
  it('writes repeated JSON entries and the paging', () => {
    const state: TableState = {
      filterItems: [
        { field: 'primary_reference', operator: 'contains', value: 'ACME' },
        { field: 'carrier', operator: 'isAnyOf', value: ['DHL', 'UPS'] },
        { field: 'po_number', operator: 'isEmpty' },
      ],
      filterLogicOperator: 'and',
      orderBy: [
        { field: 'last_action_taken', sort: 'desc' },
        { field: 'id', sort: 'asc' },
      ],
      pageNumber: 3,
      pageSize: 50,
    };
    expect(tableStateToSearchParams(state)).toEqual([
      ['filterItems', '{"field":"primary_reference","operator":"contains","value":"ACME"}'],
      ['filterItems', '{"field":"carrier","operator":"isAnyOf","value":["DHL","UPS"]}'],
      ['filterItems', '{"field":"po_number","operator":"isEmpty"}'],
      ['filterLogicOperator', 'and'],
      ['orderBy', '{"field":"last_action_taken","sort":"desc"}'],
      ['orderBy', '{"field":"id","sort":"asc"}'],
      ['pageNumber', '3'],
      ['pageSize', '50'],
    ]);
  });

  it('leaves out the or logic and page 0, and clamps bad paging', () => {
    expect(tableStateToSearchParams(EMPTY)).toEqual([['pageSize', '20']]);
    expect(tableStateToSearchParams({ ...EMPTY, pageNumber: -4, pageSize: 0 })).toEqual([
      ['pageSize', '1'],
    ]);
    expect(tableStateToSearchParams({ ...EMPTY, pageNumber: 2.7, pageSize: 10.2 })).toEqual([
      ['pageNumber', '2'],
      ['pageSize', '10'],
    ]);
  });

  it('keeps a half-typed filter item as the grid holds it', () => {
    const entries = tableStateToSearchParams({
      ...EMPTY,
      filterItems: [{ field: 'carrier', operator: 'contains', value: '  ' }],
    });
    expect(entries[0]).toEqual([
      'filterItems',
      '{"field":"carrier","operator":"contains","value":"  "}',
    ]);
  });
});

describe('searchParamsToTableState [SPEC-2.12, SPEC-5.8]', () => {
  it('gives the defaults for an empty query', () => {
    expect(read('')).toEqual(EMPTY);
  });

  it('reads what was written, through a real query string', () => {
    const query = new URLSearchParams([
      ['searchTerms', 'kept by the caller'],
      ['filterItems', '{"field":"high_threshold","operator":">=","value":"8"}'],
      ['filterLogicOperator', 'and'],
      ['orderBy', '{"field":"id","sort":"desc"}'],
      ['pageNumber', '2'],
      ['pageSize', '5'],
    ]).toString();
    expect(read(query)).toEqual({
      filterItems: [{ field: 'high_threshold', operator: '>=', value: '8' }],
      filterLogicOperator: 'and',
      orderBy: [{ field: 'id', sort: 'desc' }],
      pageNumber: 2,
      pageSize: 5,
    });
  });

  it('skips entries that are not JSON of the right shape', () => {
    const bad = [
      'not json',
      '[]',
      'null',
      '{"field":"a"}',
      '{"field":"a","operator":"like","value":"x"}',
      '{"field":"a b","operator":"contains","value":"x"}',
      '{"field":7,"operator":"contains","value":"x"}',
      '{"field":"a","operator":"contains","value":{"x":1}}',
      '{"field":"a","operator":"isAnyOf","value":["x",{}]}',
    ];
    const params = new URLSearchParams(bad.map((entry) => ['filterItems', entry]));
    params.append('filterItems', '{"field":"a","operator":"contains","value":"ok"}');
    params.append('orderBy', '{"field":"a","sort":"up"}');
    params.append('orderBy', '{"field":"-a","sort":"asc"}');
    params.append('orderBy', 'id');
    expect(searchParamsToTableState(params, DEFAULT_PAGE_SIZE)).toEqual({
      ...EMPTY,
      filterItems: [{ field: 'a', operator: 'contains', value: 'ok' }],
    });
  });

  it('reads numeric and null filter values the grid may hold', () => {
    expect(
      read(
        new URLSearchParams([
          ['filterItems', '{"field":"a","operator":">","value":8.5}'],
          ['filterItems', '{"field":"b","operator":"isAnyOf","value":[1,"x",true]}'],
          ['filterItems', '{"field":"c","operator":"contains","value":null}'],
        ]).toString(),
      ).filterItems,
    ).toEqual([
      { field: 'a', operator: '>', value: '8.5' },
      { field: 'b', operator: 'isAnyOf', value: ['1', 'x', 'true'] },
      { field: 'c', operator: 'contains' },
    ]);
  });

  it('defaults an unknown logic to or', () => {
    expect(read('filterLogicOperator=AND').filterLogicOperator).toBe('or');
    expect(read('filterLogicOperator=xor').filterLogicOperator).toBe('or');
  });

  it('defaults paging that is not a number and clamps paging out of range', () => {
    expect(read('pageNumber=abc&pageSize=').pageNumber).toBe(0);
    expect(read('pageNumber=abc&pageSize=').pageSize).toBe(DEFAULT_PAGE_SIZE);
    expect(read('pageNumber=-3&pageSize=0')).toMatchObject({ pageNumber: 0, pageSize: 1 });
    expect(read('pageNumber=2.9&pageSize=-7')).toMatchObject({ pageNumber: 2, pageSize: 1 });
    expect(read('pageNumber=Infinity&pageSize=NaN')).toMatchObject({ pageNumber: 0, pageSize: 20 });
    expect(searchParamsToTableState(new URLSearchParams(''), 0).pageSize).toBe(1);
  });
});

describe('clampPageNumber and clampPageSize [SPEC-2.12, SPEC-5.8]', () => {
  it('keep integers in range', () => {
    expect(clampPageNumber(5, 0)).toBe(5);
    expect(clampPageNumber(-1, 0)).toBe(0);
    expect(clampPageNumber(null, 3)).toBe(3);
    expect(clampPageSize(0, 20)).toBe(1);
    expect(clampPageSize(Number.NaN, 20)).toBe(20);
    expect(clampPageSize(1e300, 20)).toBe(Number.MAX_SAFE_INTEGER);
  });
});

const fieldArbitrary = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.]{0,20}$/);
const filterItemArbitrary: fc.Arbitrary<FilterItem> = fc.oneof(
  fc.record(
    {
      field: fieldArbitrary,
      operator: fc.constantFrom(...FILTER_OPERATORS),
      value: fc.oneof(fc.string(), fc.array(fc.string())),
    },
    { requiredKeys: ['field', 'operator'] },
  ),
);
const orderByArbitrary: fc.Arbitrary<OrderByItem> = fc.record({
  field: fieldArbitrary,
  sort: fc.constantFrom('asc' as const, 'desc' as const),
});
const stateArbitrary: fc.Arbitrary<TableState> = fc.record({
  filterItems: fc.array(filterItemArbitrary, { maxLength: 5 }),
  filterLogicOperator: fc.constantFrom('and' as const, 'or' as const),
  orderBy: fc.array(orderByArbitrary, { maxLength: 4 }),
  pageNumber: fc.nat(),
  pageSize: fc.integer({ min: 1, max: 10_000 }),
});

describe('URL state round trip [SPEC-2.12, SPEC-5.8]', () => {
  it('reads back any valid state through a query string', () => {
    fc.assert(
      fc.property(stateArbitrary, fc.integer({ min: 1, max: 100 }), (state, defaultPageSize) => {
        const query = new URLSearchParams(tableStateToSearchParams(state)).toString();
        expect(searchParamsToTableState(new URLSearchParams(query), defaultPageSize)).toEqual(
          state,
        );
      }),
    );
  });

  it('reads any query into a state within bounds', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom(
              'filterItems',
              'filterLogicOperator',
              'orderBy',
              'pageNumber',
              'pageSize',
              'x',
            ),
            fc.string(),
          ),
        ),
        (entries) => {
          const state = searchParamsToTableState(new URLSearchParams(entries), DEFAULT_PAGE_SIZE);
          expect(Number.isInteger(state.pageNumber) && state.pageNumber >= 0).toBe(true);
          expect(Number.isInteger(state.pageSize) && state.pageSize >= 1).toBe(true);
          expect(['and', 'or']).toContain(state.filterLogicOperator);
        },
      ),
    );
  });
});
