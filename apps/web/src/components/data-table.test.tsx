import IconButton from '@mui/material/IconButton';
import EditOutlined from '@mui/icons-material/EditOutlined';
import { useQuery } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../lib/api-error';
import { stubApi } from '../test/api';
import { renderInApp } from '../test/render';
import { DataTable, type DataColumn } from './data-table';
import { SectionList } from './section-list';

interface Product {
  id: string;
  name: string;
  high: number | null;
  low: number | null;
  active: boolean;
}

const PRODUCTS: Product[] = [
  { id: '1', name: 'vaccine 10', high: 8, low: 2, active: true },
  { id: '2', name: 'Insulin', high: null, low: null, active: false },
  { id: '3', name: 'vaccine 9', high: 25, low: 15, active: true },
  { id: '4', name: 'Blood plasma', high: -20, low: null, active: true },
];

const COLUMNS: DataColumn<Product>[] = [
  { key: 'name', header: 'Name', render: (p) => p.name, sortValue: (p) => p.name },
  {
    key: 'high',
    header: 'High',
    group: 'Thresholds',
    numeric: true,
    render: (p) => p.high ?? '—',
    sortValue: (p) => p.high,
  },
  {
    key: 'low',
    header: 'Low',
    group: 'Thresholds',
    numeric: true,
    render: (p) => p.low ?? '—',
    sortValue: (p) => p.low,
  },
  { key: 'active', header: 'Active', render: (p) => (p.active ? 'Yes' : 'No') },
];

/** The row headers (first column) from top to bottom. */
function names(): string[] {
  return screen.getAllByRole('rowheader').map((cell) => cell.textContent ?? '');
}

function renderTable(props: Partial<Parameters<typeof DataTable<Product>>[0]> = {}) {
  stubApi();
  return renderInApp(
    <DataTable
      label="Products"
      columns={COLUMNS}
      rows={PRODUCTS}
      rowKey={(p) => p.id}
      {...props}
    />,
  );
}

describe('the data table [FEAT-ACCESSIBILITY]', () => {
  it('is a named table with the first column as row headers and grouped column headings', () => {
    renderTable();
    const table = screen.getByRole('table', { name: 'Products' });
    expect(names()).toEqual(['vaccine 10', 'Insulin', 'vaccine 9', 'Blood plasma']);
    const group = within(table).getByRole('columnheader', { name: 'Thresholds' });
    expect(group.getAttribute('colspan')).toBe('2');
    expect(within(table).getByRole('columnheader', { name: 'Name' }).getAttribute('rowspan')).toBe(
      '2',
    );
    expect(
      within(table).getByRole('columnheader', { name: 'High' }).getAttribute('rowspan'),
    ).toBeNull();
  });

  it('sorts by a header click, ascending then descending, missing values last both ways', async () => {
    const { user } = renderTable();
    const header = () => screen.getByRole('columnheader', { name: /^High/ });
    expect(header().getAttribute('aria-sort')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'High' }));
    expect(names()).toEqual(['Blood plasma', 'vaccine 10', 'vaccine 9', 'Insulin']);
    expect(header().getAttribute('aria-sort')).toBe('ascending');

    await user.click(screen.getByRole('button', { name: /^High/ }));
    expect(names()).toEqual(['vaccine 9', 'vaccine 10', 'Blood plasma', 'Insulin']);
    expect(header().getAttribute('aria-sort')).toBe('descending');

    // Text as people read it: case aside, numbers in names by value (9 before 10).
    await user.click(screen.getByRole('button', { name: 'Name' }));
    expect(names()).toEqual(['Blood plasma', 'Insulin', 'vaccine 9', 'vaccine 10']);
    expect(header().getAttribute('aria-sort')).toBeNull();
    expect(screen.getByRole('columnheader', { name: /^Name/ }).getAttribute('aria-sort')).toBe(
      'ascending',
    );
  });

  it('sorts from the keyboard: the sortable headings are buttons in the tab order', async () => {
    const { user } = renderTable();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Name' }));
    await user.keyboard('{Enter}');
    expect(names()).toEqual(['Blood plasma', 'Insulin', 'vaccine 9', 'vaccine 10']);
    await user.keyboard(' ');
    expect(names()).toEqual(['vaccine 10', 'vaccine 9', 'Insulin', 'Blood plasma']);
    await user.tab();
    await user.tab();
    await user.tab();
    // Past the three sortable headings (Active is not one): nothing else in the table takes focus.
    expect(screen.getByRole('table').contains(document.activeElement)).toBe(false);
    expect(screen.queryByRole('button', { name: 'Active' })).toBeNull();
  });

  it('gives each row its own actions under a heading for screen readers', async () => {
    const edit = vi.fn();
    const { user } = renderTable({
      actionsHeader: 'Edit',
      actions: (p) => (
        <IconButton aria-label={`Edit ${p.name}`} onClick={() => edit(p.id)} size="small">
          <EditOutlined fontSize="small" />
        </IconButton>
      ),
    });
    expect(screen.getByRole('columnheader', { name: 'Edit' })).toBeTruthy();
    const row = screen.getByRole('row', { name: /^vaccine 9/ });
    await user.click(within(row).getByRole('button', { name: 'Edit vaccine 9' }));
    expect(edit.mock.calls).toEqual([['3']]);
    expect(screen.getAllByRole('button', { name: /^Edit / })).toHaveLength(4);
  });

  it('shows skeleton rows while loading, and says the table is busy', () => {
    renderTable({ loading: true, skeletonRows: 3 });
    const table = screen.getByRole('table', { name: 'Products' });
    expect(table.parentElement?.getAttribute('aria-busy')).toBe('true');
    expect(screen.queryAllByRole('rowheader')).toEqual([]);
    // The heading row (two rows: the group spans) and three skeleton rows.
    expect(within(table).getAllByRole('row')).toHaveLength(5);
  });
});

/** A card's list of products over a query, as the configuration page wires it. */
function ProductList({ load }: { load: () => Promise<Product[]> }) {
  const query = useQuery({ queryKey: ['products'], queryFn: load });
  return (
    <SectionList
      query={query}
      what="the products"
      label="Products"
      columns={COLUMNS}
      rowKey={(p) => p.id}
      empty="No products yet. Add one to set its thresholds."
    />
  );
}

describe('a list card over the data table [FEAT-ACCESSIBILITY, SPEC-8]', () => {
  it('says so when the list is empty, instead of an empty table', async () => {
    stubApi();
    renderInApp(<ProductList load={() => Promise.resolve([])} />);
    expect(await screen.findByText('No products yet. Add one to set its thresholds.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows the loading state, then the rows', async () => {
    stubApi();
    let answer!: (rows: Product[]) => void;
    renderInApp(<ProductList load={() => new Promise((resolve) => (answer = resolve))} />);
    expect(screen.getByRole('status', { name: 'Loading the products' })).toBeTruthy();
    answer(PRODUCTS);
    expect(await screen.findByRole('rowheader', { name: 'Blood plasma' })).toBeTruthy();
    expect(screen.queryByRole('status', { name: 'Loading the products' })).toBeNull();
  });

  it('says what failed and loads again on Retry', async () => {
    stubApi();
    const load = vi
      .fn<() => Promise<Product[]>>()
      .mockRejectedValueOnce(
        new ApiError(503, 'SERVICE_UNAVAILABLE', 'The database is not reachable.'),
      )
      .mockResolvedValueOnce(PRODUCTS);
    const { user } = renderInApp(<ProductList load={load} />);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Could not load the products')).toBeTruthy();
    expect(within(alert).getByText('The database is not reachable.')).toBeTruthy();
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('rowheader', { name: 'Insulin' })).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
