import { describe, expect, it } from 'vitest';
import {
  filterKey,
  gridViewHref,
  orderByToSortModel,
  pageSizeOptions,
  readGridViewState,
  sortModelToOrderByItems,
  writeGridViewState,
  type GridViewState,
} from './grid-url-state';

const state: GridViewState = {
  filterModel: {
    items: [
      { id: 7, field: 'primary_reference', operator: 'contains', value: 'ACME' },
      { id: 9, field: 'computed_status', operator: 'isAnyOf', value: ['OK', 'Alarm'] },
    ],
    logicOperator: 'and',
  },
  orderBy: [{ field: 'last_action_taken', sort: 'desc' }],
  pageNumber: 2,
  pageSize: 50,
};

describe('grid state in the URL (spec section 2, "Tabular views") [SPEC-2.12]', () => {
  it('writes filterItems (JSON, repeated), the logic, orderBy (JSON), pageNumber and pageSize', () => {
    const params = writeGridViewState(new URLSearchParams(), state);
    expect(params.getAll('filterItems').map((item) => JSON.parse(item) as unknown)).toEqual([
      { field: 'primary_reference', operator: 'contains', value: 'ACME' },
      { field: 'computed_status', operator: 'isAnyOf', value: ['OK', 'Alarm'] },
    ]);
    expect(params.get('filterLogicOperator')).toBe('and');
    expect(params.getAll('orderBy').map((entry) => JSON.parse(entry) as unknown)).toEqual([
      { field: 'last_action_taken', sort: 'desc' },
    ]);
    expect(params.get('pageNumber')).toBe('2');
    expect(params.get('pageSize')).toBe('50');
  });

  it('reads back what it wrote (a copied link reopens the same view)', () => {
    const read = readGridViewState(writeGridViewState(new URLSearchParams(), state), 20);
    expect(read.filterModel.logicOperator).toBe('and');
    expect(read.filterModel.items.map(({ id: _id, ...item }) => item)).toEqual(
      state.filterModel.items.map(({ id: _id, ...item }) => item),
    );
    expect(read.orderBy).toEqual(state.orderBy);
    expect(read.pageNumber).toBe(2);
    expect(read.pageSize).toBe(50);
  });

  it('leaves the defaults out: or, page 0', () => {
    const params = writeGridViewState(new URLSearchParams(), {
      ...state,
      filterModel: { ...state.filterModel, logicOperator: 'or' },
      pageNumber: 0,
    });
    expect(params.has('filterLogicOperator')).toBe(false);
    expect(params.has('pageNumber')).toBe(false);
    expect(params.get('pageSize')).toBe('50');
  });

  it('keeps the URL’s other parameters and replaces its own', () => {
    const current = new URLSearchParams('from=2025-03-01&pageNumber=9&filterItems=junk');
    const params = writeGridViewState(current, state);
    expect(params.get('from')).toBe('2025-03-01');
    expect(params.get('pageNumber')).toBe('2');
    expect(params.getAll('filterItems')).toHaveLength(2);
  });

  it('reads forgivingly: defaults, clamping, bad entries skipped', () => {
    const read = readGridViewState(
      new URLSearchParams(
        'filterItems=not-json&filterItems={"field":"id","operator":"=","value":5}' +
          '&filterLogicOperator=xor&orderBy={"field":"id","sort":"up"}&pageNumber=-3&pageSize=0',
      ),
      20,
    );
    expect(read.filterModel.items).toEqual([{ id: 0, field: 'id', operator: '=', value: '5' }]);
    expect(read.filterModel.logicOperator).toBe('or');
    expect(read.orderBy).toEqual([]);
    expect(read.pageNumber).toBe(0);
    expect(read.pageSize).toBe(1);
    expect(readGridViewState(new URLSearchParams(''), 20).pageSize).toBe(20);
  });

  it('keeps half-typed filter items in the URL', () => {
    const params = writeGridViewState(new URLSearchParams(), {
      ...state,
      filterModel: {
        items: [{ field: 'primary_reference', operator: 'contains', value: '' }],
        logicOperator: 'or',
      },
    });
    expect(params.getAll('filterItems')).toEqual([
      '{"field":"primary_reference","operator":"contains","value":""}',
    ]);
  });

  it('filterKey changes with the filter, not with item ids or paging', () => {
    const same = {
      ...state.filterModel,
      items: state.filterModel.items.map((item, index) => ({ ...item, id: index })),
    };
    expect(filterKey(same)).toBe(filterKey(state.filterModel));
    expect(filterKey({ ...same, logicOperator: 'or' })).not.toBe(filterKey(state.filterModel));
  });

  it('the community grid shows the first sort entry', () => {
    expect(
      orderByToSortModel([
        { field: 'a', sort: 'asc' },
        { field: 'b', sort: 'desc' },
      ]),
    ).toEqual([{ field: 'a', sort: 'asc' }]);
    expect(sortModelToOrderByItems([{ field: 'a', sort: null }])).toEqual([]);
  });

  it('offers the URL’s page size when it is not a standard one', () => {
    expect(pageSizeOptions([20, 50, 100], 50)).toEqual([20, 50, 100]);
    expect(pageSizeOptions([20, 50, 100], 7)).toEqual([7, 20, 50, 100]);
  });

  it('builds links to a view', () => {
    expect(gridViewHref('/allrecords', { ...state, pageNumber: 0 })).toMatch(
      /^\/allrecords\?filterItems=/,
    );
  });
});
