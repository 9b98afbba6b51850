import { describe, expect, it } from 'vitest';
import { columnRuns } from './data-table';
import { sortRows } from './data-table-sort';

describe('sortRows [SPEC-2.12]', () => {
  const rows = [
    { name: 'b', value: 2 },
    { name: 'A10', value: null },
    { name: 'a2', value: 1 },
    { name: 'C', value: 2 },
  ];

  it('sorts text case-insensitively with numbers by value', () => {
    expect(sortRows(rows, (r) => r.name, 'asc').map((r) => r.name)).toEqual([
      'a2',
      'A10',
      'b',
      'C',
    ]);
    expect(sortRows(rows, (r) => r.name, 'desc').map((r) => r.name)).toEqual([
      'C',
      'b',
      'A10',
      'a2',
    ]);
  });

  it('keeps missing values last in both directions and equal rows in their order', () => {
    expect(sortRows(rows, (r) => r.value, 'asc').map((r) => r.name)).toEqual([
      'a2',
      'b',
      'C',
      'A10',
    ]);
    expect(sortRows(rows, (r) => r.value, 'desc').map((r) => r.name)).toEqual([
      'b',
      'C',
      'a2',
      'A10',
    ]);
  });

  it('puts true first when ascending', () => {
    const flags = [{ on: false }, { on: true }];
    expect(sortRows(flags, (r) => r.on, 'asc')).toEqual([{ on: true }, { on: false }]);
  });

  it('does not change its input', () => {
    const copy = [...rows];
    sortRows(rows, (r) => r.name, 'asc');
    expect(rows).toEqual(copy);
  });
});

describe('columnRuns [SPEC-2.12]', () => {
  it('groups consecutive columns of one group, other columns alone', () => {
    const column = (key: string, group?: string) => ({
      key,
      header: key,
      render: () => key,
      group,
    });
    const runs = columnRuns([
      column('name'),
      column('high', 'Thresholds'),
      column('low', 'Thresholds'),
      column('count'),
      column('cHigh', 'Cumulative'),
    ]);
    expect(runs.map((run) => [run.group, run.start, run.columns.map((c) => c.key)])).toEqual([
      [undefined, 0, ['name']],
      ['Thresholds', 1, ['high', 'low']],
      [undefined, 3, ['count']],
      ['Cumulative', 4, ['cHigh']],
    ]);
  });
});
