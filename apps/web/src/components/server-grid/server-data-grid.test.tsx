import { ZTagExtended, authSessionGet, xt1Details, type TTagExtended } from '@coldtrace/contract';
import { tableStateToSearchParams } from '@coldtrace/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AllDevicesPage } from '../../features/devices/all-devices-page';
import { pageReply, stubApi, type ApiStub } from '../../test/api';
import { sessionUser } from '../../test/fixtures';
import { renderInApp } from '../../test/render';

/**
 * The server-mode grid (server-data-grid.tsx, its URL state and query) as
 * All Devices uses it: paging, sorting and filtering are the API's, the
 * grid's state is the URL's.
 */

function tag(id: number, over: Partial<TTagExtended> = {}): TTagExtended {
  return ZTagExtended.parse({
    id,
    serial_number: `XT1-${String(id).padStart(4, '0')}`,
    tag_type: 'XT1_NFC_MU',
    running: false,
    last_record_id: String(100 + id),
    last_temp: 4.5,
    ...over,
  });
}

/** A user administrator (All Devices needs sysAdminUser) and the devices the API answers. */
function serveDevices(rows: TTagExtended[], total = rows.length): ApiStub {
  return stubApi()
    .on(authSessionGet, sessionUser({ permissions: ['sysDataRead', 'sysAdminUser'] }))
    .on(xt1Details, pageReply(xt1Details, rows, total));
}

/** The grid's list queries, in order (without the cache-buster). */
const listQueries = (api: ApiStub) => api.sent(xt1Details).map((r) => r.query);

describe('the server-mode data grid [SPEC-2.12, SPEC-5.8, FEAT-ACCESSIBILITY]', () => {
  it('asks for the page, size and order the URL holds, and shows the total', async () => {
    const api = serveDevices([tag(1), tag(2)], 57);
    const search = new URLSearchParams(
      tableStateToSearchParams({
        filterItems: [],
        filterLogicOperator: 'or',
        orderBy: [{ field: 'last_temp', sort: 'desc' }],
        pageNumber: 1,
        pageSize: 50,
      }),
    );
    renderInApp(<AllDevicesPage />, { route: `/alldevices?${search}` });
    const grid = await screen.findByRole('grid', { name: 'Devices' });
    await within(grid).findByText('XT1-0002');
    expect(listQueries(api)).toEqual([
      { order_by: '-last_temp', page_number: '2', page_size: '50' },
    ]);
    expect(screen.getByText('51–57 of 57')).toBeTruthy();
    expect(
      within(grid)
        .getByRole('columnheader', { name: /^Last temp/ })
        .getAttribute('aria-sort'),
    ).toBe('descending');
  });

  it('sorts by a header click: the order goes to the URL and the API is asked again', async () => {
    const api = serveDevices([tag(1), tag(2)]);
    const { user, router } = renderInApp(<AllDevicesPage />, { route: '/alldevices' });
    const grid = await screen.findByRole('grid', { name: 'Devices' });
    await within(grid).findByText('XT1-0001');

    await user.click(within(grid).getByText('Serial number'));
    await waitFor(() => expect(listQueries(api)).toHaveLength(2));
    await user.click(within(grid).getByText('Serial number'));
    await waitFor(() => expect(listQueries(api)).toHaveLength(3));
    expect(listQueries(api)).toEqual([
      { page_number: '1', page_size: '20' },
      { order_by: 'serial_number', page_number: '1', page_size: '20' },
      { order_by: '-serial_number', page_number: '1', page_size: '20' },
    ]);
    expect(new URLSearchParams(router.state.location.search).getAll('orderBy')).toEqual([
      JSON.stringify({ field: 'serial_number', sort: 'desc' }),
    ]);
  });

  it('pages on the server: the next page is asked for and kept in the URL', async () => {
    const api = serveDevices([tag(1), tag(2)], 45);
    const { user, router } = renderInApp(<AllDevicesPage />, { route: '/alldevices' });
    await screen.findByText('1–20 of 45');
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(listQueries(api)).toHaveLength(2));
    expect(listQueries(api)[1]).toEqual({ page_number: '2', page_size: '20' });
    expect(new URLSearchParams(router.state.location.search).get('pageNumber')).toBe('1');
    expect(await screen.findByText('21–40 of 45')).toBeTruthy();
  });

  it("opens a row's record with the keyboard", async () => {
    serveDevices([tag(1), tag(2)]);
    const { user, router } = renderInApp(<AllDevicesPage />, { route: '/alldevices' });
    const grid = await screen.findByRole('grid', { name: 'Devices' });
    const cell = await within(grid).findByText('XT1-0002');
    // Into the grid from its column headers, down the rows, Enter.
    within(grid)
      .getByRole('columnheader', { name: /^Serial number/ })
      .focus();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(cell.closest('[role="gridcell"]')?.contains(document.activeElement)).toBe(true);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/recorddetails/102'));
  });

  it('says so when there are no devices yet', async () => {
    serveDevices([], 0);
    renderInApp(<AllDevicesPage />, { route: '/alldevices' });
    expect(
      await screen.findByText(
        'No devices yet: a tag appears here after its first scan with the phone app (or run the simulator: npm run simulate).',
      ),
    ).toBeTruthy();
  });
});
