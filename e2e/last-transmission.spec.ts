import { mkdirSync } from 'node:fs';
import { formatDateTime } from '@coldtrace/domain';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiSignIn, getJson, iso, post, xt1Upload } from './api';
import { signIn } from './fixtures';
import { deviceToken, runningRecord, summaryValue } from './rt';

/**
 * Last transmission (issue 35 item 6): an rt record's page and the All Records
 * row show when the server last received its data, in the user's zone, and how
 * long ago; an xt1 record keeps "Last scanned". Screenshots at 1280 and 375 px
 * go to /tmp/shots (not committed).
 */

const run = Date.now().toString(36);
const SHOTS = '/tmp/shots';

/**
 * The record's last transmission as the page must write it: the server's time
 * in the zone, then the age (after `between`: a space on the record page, ` · ` in the list).
 */
async function expectedText(
  api: APIRequestContext,
  recordId: string,
  timeZone: string,
  between: string,
) {
  const record = await getJson<{ last_transmission?: string | null }>(
    api,
    `/api/devices/xt1/record/?record_id=${recordId}`,
  );
  expect(record.last_transmission, 'the server answers a last transmission').toEqual(
    expect.any(String),
  );
  const time = formatDateTime(record.last_transmission, timeZone).replace(/[/.]/g, '\\$&');
  return new RegExp(`^${time}${between}(just now|\\d+m ago)$`);
}

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: false });
}

test.describe('last transmission [FEAT-LAST-TRANSMISSION]', () => {
  let api: APIRequestContext;
  let token: string;
  let timeZone: string;

  test.beforeAll(async ({ playwright }, testInfo) => {
    api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
    await apiSignIn(api);
    token = await deviceToken(api, `e2e last transmission ${run}`);
    const session = JSON.stringify(await getJson<unknown>(api, '/api/auth/session/'));
    timeZone = /"timezone":"([^"]+)"/.exec(session)?.[1] ?? 'UTC';
  });
  test.afterAll(async () => {
    await api.dispose();
  });

  test('an rt record shows its last transmission with its age; an xt1 record its last scan', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const serial = `E2E-LT-${run}`;
    const { recordId } = await runningRecord(api, token, serial);
    const expected = await expectedText(api, recordId, timeZone, ' ');

    await page.goto('/login');
    await signIn(page);
    await page.goto(`/recorddetails/${recordId}`);
    await expect(summaryValue(page, 'Points')).toHaveText('20');
    await expect(summaryValue(page, 'Last transmission')).toHaveText(expected);
    // Never scanned: no "Last scanned: Never" beside it.
    await expect(summaryValue(page, 'Last scanned')).toHaveCount(0);
    await shoot(page, 'last-transmission-1280');

    await page.setViewportSize({ width: 375, height: 812 });
    await summaryValue(page, 'Last transmission').scrollIntoViewIfNeeded();
    await expect(summaryValue(page, 'Last transmission')).toHaveText(expected);
    await shoot(page, 'last-transmission-375');
    await page.setViewportSize({ width: 1280, height: 800 });

    await test.step('the All Records row shows it too', async () => {
      const filter = { field: 'tag_serial_number', operator: 'contains', value: serial };
      const query = new URLSearchParams({ filterItems: JSON.stringify(filter) });
      await page.goto(`/allrecords?${query.toString()}`);
      const row = page.getByRole('grid').locator(`[role="row"][data-id="${recordId}"]`);
      await expect(row).toBeVisible();
      // The columns are drawn as they scroll into view: scroll to the grid's end.
      await page
        .locator('.MuiDataGrid-virtualScroller')
        .evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      await expect(row.locator('[data-field="last_transmission"]')).toHaveText(
        await expectedText(api, recordId, timeZone, ' · '),
      );
      await shoot(page, 'last-transmission-list-1280');
    });

    await test.step('an xt1 record keeps Last scanned', async () => {
      const xt1 = `E2E-LT-XT1-${run}`;
      const start = Math.floor(Date.now() / 1000) - 3600;
      const common = xt1Upload(xt1, start, 60);
      const started = (await post(api, '/api/devices/xt1/start-action/', {
        ...common,
        timestamp: iso(start),
      })) as { record_id: string };
      await post(api, '/api/devices/xt1/scans/', {
        ...common,
        timestamp: iso(start + 600),
        temps: [4, 5, 6],
      });
      const scan = await getJson<{ last_scanned?: string | null }>(
        api,
        `/api/devices/xt1/record/?record_id=${started.record_id}`,
      );
      await page.goto(`/recorddetails/${started.record_id}`);
      await expect(summaryValue(page, 'Last scanned')).toHaveText(
        formatDateTime(scan.last_scanned, timeZone),
      );
      await expect(summaryValue(page, 'Last transmission')).toHaveCount(0);
    });
  });
});
