import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { apiSignIn, iso, post, xt1Upload } from './api';
import { expectNoAccessibilityViolations, signIn } from './fixtures';

/**
 * The record screens against the real server: dashboard (statistics, serial
 * lookup, home list), All Records (server-mode grid, state in the URL), the
 * top-bar search and /search, and All Devices. The test makes its own six
 * shipments through the public API, as the phone app would (a start, then a
 * scan with temperatures); serial numbers and references carry a per-run
 * suffix, so demo data and earlier runs never get in the way.
 */

const run = Date.now().toString(36);
const PREFIX = `E2E-REC-${run}`;
const NAMES = ['ALPHA', 'BRAVO', 'CHARLIE', 'DELTA', 'ECHO', 'FOXTROT'] as const;
type Name = (typeof NAMES)[number];
const reference = (name: Name) => `${PREFIX}-${name}`;
const serial = (name: Name) => `E2E-SN-${run}-${name.charAt(0)}`;
const INTERVAL = 300;

/** 12 readings inside 2..8 °C; BRAVO's go above 8 °C (an alarm). */
const OK_TEMPS = [4.1, 4.3, 4.6, 4.8, 5.0, 5.2, 5.1, 4.9, 4.7, 4.5, 4.4, 4.2];
const ALARM_TEMPS = [4.1, 4.3, 6.6, 8.9, 9.6, 9.1, 7.4, 5.9, 5.1, 4.8, 4.6, 4.4];

const recordIds = new Map<Name, string>();

/** Six shipments: ALPHA has the latest action, BRAVO is in alarm, CHARLIE is stopped. */
async function createShipments(api: APIRequestContext): Promise<void> {
  await apiSignIn(api);
  const now = Math.floor(Date.now() / 1000);
  for (const [index, name] of NAMES.entries()) {
    const start = now - 3600 - index * 60;
    const common = {
      ...xt1Upload(serial(name), start, INTERVAL),
      primary_reference: reference(name),
      carrier: 'E2E Cold Express',
    };
    const started = (await post(api, '/api/devices/xt1/start-action/', {
      ...common,
      timestamp: iso(start),
    })) as { record_id: string };
    recordIds.set(name, started.record_id);
    await post(api, '/api/devices/xt1/scans/', {
      ...common,
      timestamp: iso(now - index * 60),
      temps: name === 'BRAVO' ? ALARM_TEMPS : OK_TEMPS,
      ...(name === 'CHARLIE' ? { stop_time_seconds: now - index * 60 } : {}),
    });
  }
}

function id(name: Name): string {
  const value = recordIds.get(name);
  if (!value) throw new Error(`no record for ${name}`);
  return value;
}

/** `?filterItems=...` for the given items (spec section 2's URL state). */
function gridQuery(
  items: { field: string; operator: string; value?: unknown }[],
  extra: Record<string, string> = {},
): string {
  const params = new URLSearchParams();
  for (const item of items) params.append('filterItems', JSON.stringify(item));
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  return `?${params.toString()}`;
}

const ours = { field: 'primary_reference', operator: 'contains', value: PREFIX };

function dataRows(page: Page): Locator {
  return page.getByRole('grid').locator('[role="row"][data-id]');
}

async function expectRows(page: Page, names: readonly Name[]): Promise<void> {
  await expect(dataRows(page)).toHaveCount(names.length);
  for (const [index, name] of names.entries()) {
    await expect(dataRows(page).nth(index)).toContainText(reference(name));
  }
}

/** Signs in on the way to `path` and waits for the page's heading (the layout has switched). */
async function signInAt(page: Page, path: string, heading: string): Promise<void> {
  await page.goto(path);
  await signIn(page);
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
}

test.describe('records screens [SPEC-2.12, SPEC-2.9, SPEC-2.10]', () => {
  test.beforeAll(async ({ playwright }, testInfo) => {
    const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
    try {
      await createShipments(api);
    } finally {
      await api.dispose();
    }
  });

  test('dashboard: statistics, cards linking to filtered lists, the home list', async ({
    page,
  }) => {
    await signInAt(page, '/', 'Dashboard');
    const statistics = page.getByRole('list', { name: 'Record statistics' });
    const records = statistics.getByRole('link', { name: /^Records [\d,]+$/ });
    await expect(records).toBeVisible();
    const count = Number((await records.innerText()).replace(/[^\d]/g, ''));
    expect(count).toBeGreaterThanOrEqual(NAMES.length);
    await expect(statistics.getByText('Scans made')).toBeVisible();
    await expect(statistics.getByText('Running tags')).toBeVisible();

    // The home list: the latest action first, with status, reference and temperature.
    const latest = page.getByRole('list', { name: 'Latest records' });
    const alpha = latest.getByRole('link').filter({ hasText: reference('ALPHA') });
    await expect(alpha).toContainText(serial('ALPHA'));
    await expect(alpha).toContainText('OK');
    // The last scan's last reading, in the user's unit (another test may have chosen °F).
    await expect(alpha).toContainText(/4\.2 °C|39\.6 °F/);
    await expect(alpha).toContainText(/\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}/);
    await expect(latest.getByRole('link').filter({ hasText: reference('BRAVO') })).toContainText(
      'Alarm',
    );
    await expect(page.getByText(/^Times in /)).toBeVisible();
    await expectNoAccessibilityViolations(page);

    // A date range switches to the filtered statistics; today covers our records.
    const filtered = page.waitForResponse((r) => r.url().includes('/statistics/filtered/'));
    await page.getByRole('button', { name: 'Today' }).click();
    const day = (await (await filtered).json()) as { num_records: number };
    await expect(page).toHaveURL(/from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}/);
    await expect(page.getByText(/^Records created on /)).toBeVisible();

    // The day's Records card (the server's counts by hour) and the All Records list it
    // opens (counting the rows created that day) tell the same number.
    expect(day.num_records).toBeGreaterThanOrEqual(NAMES.length);
    await expect(records).toHaveAccessibleName(
      `Records ${day.num_records.toLocaleString('en-US')}`,
    );
    await records.click();
    await expect(page).toHaveURL(/\/allrecords\?filterItems=/);
    await expect(
      page.getByRole('button', { name: /^Filter: Created is on or after/ }),
    ).toBeVisible();
    await expect(page.getByText(new RegExp(`^\\d+–\\d+ of ${day.num_records}$`))).toBeVisible();
    await page.goBack();
    await expect(page.getByText(/^Records created on /)).toBeVisible();

    // The in-alarm card opens All Records filtered to the alarms (of that day).
    await statistics.getByRole('link', { name: /^In alarm \d/ }).click();
    await expect(page).toHaveURL(/\/allrecords\?filterItems=/);
    await expect(page.getByRole('button', { name: /^Filter: Status is Alarm/ })).toBeVisible();
    await expect(
      page.getByRole('button', { name: /^Filter: Created is on or after/ }),
    ).toBeVisible();
    await expect(dataRows(page).filter({ hasText: reference('BRAVO') })).toHaveCount(1);
    await expect(dataRows(page).filter({ hasText: reference('ALPHA') })).toHaveCount(0);
  });

  test('serial-number lookup opens the latest record; errors show under the box', async ({
    page,
  }) => {
    await signInAt(page, '/', 'Dashboard');
    const box = page.getByPlaceholder('Enter Serial Number');
    await box.fill(`no-such-tag-${run}`);
    await page.keyboard.press('Enter');
    await expect(
      page.getByText(`No record found for serial number no-such-tag-${run}`),
    ).toBeVisible();
    // Typing clears the error.
    await box.fill(`  ${serial('BRAVO')}  `);
    await expect(page.getByText(/No record found/)).toHaveCount(0);
    const session = page.waitForRequest((r) => r.url().includes('/api/auth/session/'));
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await session;
    await expect(page).toHaveURL(new RegExp(`/recorddetails/${id('BRAVO')}$`));
  });

  test('All Records: filter, reload the URL, sort, page size, open a row', async ({ page }) => {
    await signInAt(page, '/allrecords', 'All Records');
    await expect(dataRows(page).first()).toBeVisible();

    // Filter by primary reference, contains: the URL follows (debounced), the server filters.
    await page.getByRole('button', { name: 'Add filter' }).click();
    const editor = page.getByRole('form', { name: 'Filter' });
    await expect(editor.getByRole('combobox', { name: 'Column' })).toHaveText('Primary reference');
    await expect(editor.getByRole('combobox', { name: 'Operator' })).toHaveText('contains');
    await editor.getByRole('textbox', { name: 'Value' }).fill(PREFIX);
    await editor.getByRole('button', { name: 'Done' }).click();
    await expect(page).toHaveURL(/filterItems=/);
    await expect(dataRows(page)).toHaveCount(NAMES.length);
    const url = page.url();
    expect(
      new URL(url).searchParams.getAll('filterItems').map((i) => JSON.parse(i) as unknown),
    ).toEqual([ours]);

    // The same URL, reloaded, shows the same rows.
    await page.reload();
    await expect(
      page.getByRole('button', { name: `Filter: Primary reference contains ${PREFIX}. Edit` }),
    ).toBeVisible();
    await expectRows(page, ['ALPHA', 'BRAVO', 'CHARLIE', 'DELTA', 'ECHO', 'FOXTROT']);
    await expectNoAccessibilityViolations(page);

    // Sort by primary reference: ascending, then descending, in the URL.
    const header = page.getByRole('columnheader', { name: 'Primary ref.' });
    await header.click();
    await expect(page).toHaveURL(
      /orderBy=%7B%22field%22%3A%22primary_reference%22%2C%22sort%22%3A%22asc%22%7D/,
    );
    await expectRows(page, ['ALPHA', 'BRAVO', 'CHARLIE', 'DELTA', 'ECHO', 'FOXTROT']);
    await header.click();
    await expect(page).toHaveURL(/%22sort%22%3A%22desc%22/);
    await expectRows(page, ['FOXTROT', 'ECHO', 'DELTA', 'CHARLIE', 'BRAVO', 'ALPHA']);

    // Page size from the pagination: the URL holds it.
    await page.getByRole('combobox', { name: /Rows per page/ }).click();
    await page.getByRole('option', { name: '50' }).click();
    await expect(page).toHaveURL(/pageSize=50/);
    await expect(dataRows(page)).toHaveCount(NAMES.length);

    // A copied link with a page size of 4, and the next page.
    await page.goto(
      `/allrecords${gridQuery([ours], { orderBy: JSON.stringify({ field: 'primary_reference', sort: 'asc' }), pageSize: '4' })}`,
    );
    await expectRows(page, ['ALPHA', 'BRAVO', 'CHARLIE', 'DELTA']);
    await page.getByRole('button', { name: 'Go to next page' }).click();
    await expect(page).toHaveURL(/pageNumber=1/);
    await expectRows(page, ['ECHO', 'FOXTROT']);

    // Two filters joined by and: ours and in alarm.
    await page.goto(
      `/allrecords${gridQuery([ours, { field: 'computed_status', operator: 'is', value: 'Alarm' }], { filterLogicOperator: 'and' })}`,
    );
    await expectRows(page, ['BRAVO']);
    await expect(page.getByRole('button', { name: 'Match all' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    // A row opens its record.
    await dataRows(page).first().getByRole('gridcell').nth(2).click();
    await expect(page).toHaveURL(new RegExp(`/recorddetails/${id('BRAVO')}$`));
  });

  test('column visibility is remembered for the user', async ({ page }) => {
    await signInAt(page, `/allrecords${gridQuery([ours])}`, 'All Records');
    await expect(page.getByRole('columnheader', { name: 'Carrier' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('checkbox', { name: 'Carrier' }).check();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('columnheader', { name: 'Carrier' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('columnheader', { name: 'Carrier' })).toBeVisible();
    await expect(dataRows(page).first()).toContainText('E2E Cold Express');
  });

  test('top-bar search: suggestions, keyboard, view all, /search pages', async ({ page }) => {
    await signInAt(page, '/', 'Dashboard');
    const search = page.getByRole('combobox', { name: 'Search' });
    await search.fill(`  ${PREFIX}`);
    const suggestions = page.getByRole('listbox', { name: 'Search suggestions' });
    await expect(suggestions).toBeVisible();
    // At most 5, labelled with the record id and the primary reference; 6 match.
    await expect(suggestions.getByRole('option', { name: /^Record \d+/ })).toHaveCount(5);
    await expect(suggestions.getByRole('option', { name: 'View all results (6)' })).toBeVisible();
    await expect(
      suggestions.getByRole('option', { name: `Record ${id('BRAVO')} ${reference('BRAVO')}` }),
    ).toBeVisible();
    await expectNoAccessibilityViolations(page);

    // Arrow keys move through them; Escape closes the list.
    await search.press('ArrowDown');
    await expect(search).toHaveAttribute('aria-activedescendant', /.+/);
    await search.press('Escape');
    await expect(suggestions).toBeHidden();

    // Follow a suggestion.
    await search.press('ArrowDown');
    await suggestions
      .getByRole('option', { name: `Record ${id('BRAVO')} ${reference('BRAVO')}` })
      .click();
    await expect(page).toHaveURL(new RegExp(`/recorddetails/${id('BRAVO')}$`));

    // Enter: /search with the trimmed terms and page 1.
    await search.fill(`  ${PREFIX}  `);
    await search.press('Enter');
    await expect(page).toHaveURL(
      `/search?searchTerms=${encodeURIComponent(PREFIX)}&page=1`.replace(/%20/g, '+'),
    );
    await expect(page.getByRole('heading', { name: 'Search Results', level: 1 })).toBeVisible();
    await expect(page.getByText('6 records · page 1 of 2')).toBeVisible();
    const results = page.getByRole('list', { name: /Search results/ });
    await expect(results.getByRole('link')).toHaveCount(5);
    await expectNoAccessibilityViolations(page);
    await page.getByRole('button', { name: 'Go to page 2' }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(results.getByRole('link')).toHaveCount(1);

    // On /search a new search replaces the query in place.
    const historyLength = await page.evaluate(() => history.length);
    await search.fill(reference('CHARLIE'));
    await search.press('Enter');
    await expect(page).toHaveURL(
      new RegExp(`/search\\?searchTerms=${reference('CHARLIE')}&page=1$`),
    );
    await expect(page.getByText('1 record', { exact: true })).toBeVisible();
    expect(await page.evaluate(() => history.length)).toBe(historyLength);
    await results.getByRole('link').first().click();
    await expect(page).toHaveURL(new RegExp(`/recorddetails/${id('CHARLIE')}$`));

    // Nothing found.
    await page.goto(`/search?searchTerms=nothing-like-${run}&page=1`);
    await expect(page.getByText(`No records match “nothing-like-${run}”`)).toBeVisible();
  });

  test('All Devices lists the tags with their last record', async ({ page }) => {
    await signInAt(
      page,
      `/alldevices${gridQuery([{ field: 'serial_number', operator: 'contains', value: `E2E-SN-${run}` }], { orderBy: JSON.stringify({ field: 'serial_number', sort: 'asc' }) })}`,
      'All Devices',
    );
    await expect(dataRows(page)).toHaveCount(NAMES.length);
    const alpha = dataRows(page).first();
    await expect(alpha).toContainText(serial('ALPHA'));
    await expect(alpha).toContainText(reference('ALPHA'));
    await expect(alpha).toContainText('Running');
    await expect(dataRows(page).filter({ hasText: serial('CHARLIE') })).toContainText('Idle');
    await alpha.getByRole('link', { name: `Record ${id('ALPHA')}` }).click();
    await expect(page).toHaveURL(new RegExp(`/recorddetails/${id('ALPHA')}$`));
  });
});

test('All Devices without sysAdminUser: an honest no-access page, no tag list requested [SPEC-2.12, SPEC-2.9, SPEC-2.10]', async ({
  page,
}) => {
  // The session (and the sign-in reply, which becomes the session) without sysAdminUser.
  await page.route(/\/api\/auth\/(session|login)\//, async (route) => {
    const response = await route.fetch();
    if (!response.ok()) {
      await route.fulfill({ response });
      return;
    }
    const user = (await response.json()) as { current_session_permissions: string[] };
    user.current_session_permissions = user.current_session_permissions.filter(
      (name) => name !== 'sysAdminUser',
    );
    await route.fulfill({ response, json: user });
  });
  let detailsRequested = false;
  page.on('request', (request) => {
    if (request.url().includes('/api/devices/xt1/details/')) detailsRequested = true;
  });
  await page.goto('/alldevices');
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'All Devices', level: 1 })).toBeVisible();
  await expect(page.getByText(/All Devices is for user administrators/)).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'All Devices' }),
  ).toHaveCount(0);
  expect(detailsRequested).toBe(false);
  await page.getByRole('link', { name: 'Go to All Records' }).click();
  await expect(page).toHaveURL(/\/allrecords$/);
});
