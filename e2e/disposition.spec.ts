import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { apiSignIn, csrfToken, iso, post, xt1Upload } from './api';
import { createUserInDb, type E2eUser } from './accounts-db';
import { chooseOption, expectNoAccessibilityViolations, signIn } from './fixtures';

/**
 * The release decision (issue 14 item 2, issue 35) end to end: a shipment with
 * an excursion cannot be released on the record page while its alarm awaits
 * acknowledgement, nor while its trip has not ended (the dialog's Release is
 * disabled, with the server's words); once the alarm is acknowledged and the
 * record stopped the user releases it with a signature (the password; the
 * meaning follows: "Signed as approval"); the decision shows as a chip in the
 * record header beside the alarm status (which no longer reads "Alarm"), in
 * the dashboard's list, in the search suggestions and results, in All Records
 * filtered by RELEASED, and in the PDF report's verdict. Screenshots of the
 * header after release at 1280 and 375 px go to /tmp/shots/.
 */

const SHOTS = '/tmp/shots';

const run = Date.now().toString(36);
const serial = `E2EDSP${run}`.toUpperCase();
const COMMENT = `Excursion within the stability data (${run}): released`;

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: false });
}

test.describe('release decision [RULE-AUDIT-4, FEAT-E-SIGNATURE]', () => {
  /**
   * An administrator of the second demo organization, where no simulator runs: the
   * dashboard's latest records (the 20 with the latest device action) stay this
   * spec's own, which the live demo records of the first organization would push out.
   */
  let admin: E2eUser;
  let recordId: string;
  let alarmIds: string[];
  let start: number;

  test.beforeAll(async ({ playwright }, testInfo) => {
    admin = await createUserInDb({ organization: 'Demo Pharma Logistics', role: 'Administrator' });
    const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL! });
    try {
      await apiSignIn(api, admin);
      start = Math.floor(Date.now() / 1000) - 3600;
      const started = (await post(api, '/api/devices/xt1/start-action/', {
        ...xt1Upload(serial, start, 60),
        timestamp: iso(start),
      })) as { record_id: string };
      recordId = started.record_id;
      await post(api, '/api/devices/xt1/scans/', {
        ...xt1Upload(serial, start, 60),
        timestamp: iso(start + 600),
        temps: [5, 5, 9.5, 10, 5, 5],
      });
      const res = await api.get(`/api/devices/xt1/alarms/?record_id=${recordId}`);
      expect(res.status(), await res.text()).toBe(200);
      alarmIds = ((await res.json()) as { id: string }[]).map((a) => a.id);
    } finally {
      await api.dispose();
    }
    expect(alarmIds.length).toBeGreaterThan(0);
  });

  test('refused while alarms await acknowledgement, then released with a signature: on the page, in All Records and in the PDF', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.goto('/login');
    await signIn(page, admin);
    await page.goto(`/recorddetails/${recordId}`);
    const card = page.getByRole('region', { name: 'Release decision' });
    await expect(card.getByText('No release decision yet.', { exact: false })).toBeVisible();

    const dialog = page.getByRole('dialog', { name: 'Sign a release decision' });
    const release = dialog.getByRole('radio', { name: 'Release' });
    const asUser = async (url: string, data: unknown) => {
      const res = await page.request.post(url, {
        data,
        headers: { 'X-CSRFToken': await csrfToken(page.request) },
      });
      expect(res.status(), await res.text()).toBe(200);
    };

    await test.step('one set of radios; Release disabled with the reason while alarms are open', async () => {
      await card.getByRole('button', { name: 'Decide' }).click();
      await expect(dialog.getByRole('radio')).toHaveCount(3);
      for (const name of ['Release', 'Quarantine', 'Reject']) {
        await expect(dialog.getByRole('radio', { name, exact: true })).toHaveCount(1);
      }
      // The meaning follows from the decision: no second set of radios.
      await expect(dialog.getByRole('radio', { name: 'Approved' })).toHaveCount(0);
      await expect(release).toBeDisabled();
      const n = alarmIds.length;
      await expect(dialog).toContainText(
        `The record cannot be released: ${n === 1 ? '1 alarm is' : `${n} alarms are`} not acknowledged. Acknowledge them first, or quarantine or reject it.`,
      );
      await dialog.getByRole('radio', { name: 'Quarantine' }).check();
      await expect(dialog.getByText('Signed as review')).toBeVisible();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();
    });

    await test.step('acknowledged but still in transit: Release stays disabled, saying why', async () => {
      await asUser('/api/devices/xt1/alarm-acknowledge/', {
        record_ids: [recordId],
        comment: 'Reviewed',
        client_type: 'WEB',
        password: admin.password,
        meaning: 'REVIEWED',
      });
      await page.reload();
      await card.getByRole('button', { name: 'Decide' }).click();
      await expect(release).toBeDisabled();
      await expect(dialog).toContainText('cannot be released while it is in transit');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    });

    await test.step('stopped: release with a signature; the card shows it', async () => {
      await asUser('/api/devices/xt1/stop-action/', {
        ...xt1Upload(serial, start, 60),
        timestamp: iso(start + 1500),
      });
      await page.reload();
      await card.getByRole('button', { name: 'Decide' }).click();
      await release.check();
      await expect(dialog.getByText('Signed as approval')).toBeVisible();
      await dialog.getByLabel('Comment').fill(COMMENT);
      await dialog.getByLabel('Password').fill(admin.password);
      await expectNoAccessibilityViolations(page);
      await shoot(page, 'disposition-dialog-1280');
      await dialog.getByRole('button', { name: 'Sign decision' }).click();
      await expect(dialog).toBeHidden();
      const current = card.getByRole('group', { name: 'Current decision' });
      await expect(current.getByText('Released', { exact: true })).toBeVisible();
      await expect(current).toContainText(/Signed by .+ · Approved/);
      await expect(current).toContainText(COMMENT);
      await card.scrollIntoViewIfNeeded();
      await expectNoAccessibilityViolations(page);
      await shoot(page, 'disposition-record-1280');
    });

    await test.step('the header: the decision beside the alarm status, which is no red Alarm', async () => {
      mkdirSync(SHOTS, { recursive: true });
      const status = page.getByRole('group', { name: 'Status' });
      await expect(status.getByText('Released', { exact: true })).toBeVisible();
      await expect(status.getByText('Alarms acknowledged', { exact: true })).toBeVisible();
      await expect(status.getByText('Alarm', { exact: true })).toHaveCount(0);
      // Beside, not under: the decision chip on the alarm chip's line.
      const alarmBox = (await status.getByText('Alarms acknowledged').boundingBox())!;
      const decisionBox = (await status.getByText('Released', { exact: true }).boundingBox())!;
      expect(Math.abs(alarmBox.y - decisionBox.y)).toBeLessThan(4);
      expect(decisionBox.x).toBeGreaterThan(alarmBox.x);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: `${SHOTS}/record-header-released-1280.png` });
      await page.setViewportSize({ width: 375, height: 800 });
      await page.evaluate(() => window.scrollTo(0, 0));
      await expect(status.getByText('Released', { exact: true })).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/record-header-released-375.png` });
      await page.setViewportSize({ width: 1280, height: 800 });
    });

    await test.step('the dashboard list and the search show the decision', async () => {
      await page.goto('/');
      const latest = page.getByRole('list', { name: 'Latest records' });
      const row = latest.getByRole('link').filter({ hasText: serial });
      await expect(row).toContainText('Released');
      // In alarm, every alarm acknowledged: not the red "Alarm" of work left to do.
      await expect(row.getByText('Alarms acknowledged', { exact: true })).toBeVisible();
      await expect(row.getByText('Alarm', { exact: true })).toHaveCount(0);
      await row.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/dashboard-released-1280.png` });
      const search = page.getByRole('combobox', { name: 'Search' });
      await search.fill(serial);
      const suggestions = page.getByRole('listbox', { name: 'Search suggestions' });
      const option = suggestions.getByRole('option', { name: new RegExp(`^Record ${recordId} `) });
      await expect(option).toContainText('Released');
      await page.screenshot({ path: `${SHOTS}/search-suggestions-released-1280.png` });
      await search.press('Enter');
      await expect(page.getByRole('heading', { name: 'Search Results', level: 1 })).toBeVisible();
      const result = page.getByRole('link').filter({ hasText: `Record ${recordId}` });
      await expect(result).toContainText('Released');
      await expect(result.getByText('Alarms acknowledged', { exact: true })).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/search-results-released-1280.png` });
      await page.goto(`/recorddetails/${recordId}`);
    });

    await test.step('the PDF verdict carries the decision', async () => {
      const reports = page.getByRole('region', { name: 'Reports' });
      const downloading = page.waitForEvent('download');
      await reports.getByRole('button', { name: 'Download PDF' }).click();
      const file = await readFile((await (await downloading).path())!);
      const text = execFileSync('pdftotext', ['-', '-'], { input: file })
        .toString()
        .replace(/\s+/g, ' ');
      const verdict = text.slice(text.lastIndexOf('Verdict'));
      expect(verdict).toContain('Release decision: Released');
      expect(verdict).toContain('Decision signature meaning: Approved');
      expect(verdict).toContain(`Decision comment: ${COMMENT}`);
    });

    await test.step('phone width: the record page', async () => {
      await page.setViewportSize({ width: 375, height: 800 });
      await card.scrollIntoViewIfNeeded();
      await shoot(page, 'disposition-record-375');
    });

    await test.step('All Records filtered by RELEASED lists it, with the column', async () => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto('/allrecords');
      await chooseOption(
        page,
        page.getByRole('combobox', { name: 'Release decision' }),
        'Released',
      );
      await expect(page).toHaveURL(/disposition=RELEASED/);
      const row = page.getByRole('row').filter({ hasText: serial });
      await expect(row).toHaveCount(1);
      // The Release decision column (the Review state column says Released too).
      await expect(row.locator('[role="gridcell"][data-field="disposition"]')).toHaveText(
        'Released',
      );
      await expect(row.locator('[role="gridcell"][data-field="computed_status"]')).toHaveText(
        'Alarms acknowledged',
      );
      await shoot(page, 'disposition-allrecords-1280');
      // No decision yet: not listed.
      await chooseOption(
        page,
        page.getByRole('combobox', { name: 'Release decision' }),
        'No decision yet',
      );
      await expect(page).toHaveURL(/disposition=NONE/);
      await expect(page.getByRole('row').filter({ hasText: serial })).toHaveCount(0);
      await page.setViewportSize({ width: 375, height: 800 });
      await chooseOption(
        page,
        page.getByRole('combobox', { name: 'Release decision' }),
        'Released',
      );
      await expect(page.getByRole('row').filter({ hasText: serial })).toHaveCount(1);
      await shoot(page, 'disposition-allrecords-375');
    });
  });

  test('the organization allows release in transit: switched on in Configuration, a reason asked', async ({
    page,
    playwright,
  }, testInfo) => {
    test.setTimeout(90_000);
    const transitSerial = `E2ETRN${run}`.toUpperCase();
    const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL! });
    let transitRecord: string;
    try {
      await apiSignIn(api, admin);
      const begin = Math.floor(Date.now() / 1000) - 1800;
      // Started, in range, never stopped: the trip has not ended.
      transitRecord = (
        (await post(api, '/api/devices/xt1/start-action/', {
          ...xt1Upload(transitSerial, begin, 60),
          timestamp: iso(begin),
        })) as { record_id: string }
      ).record_id;
      await post(api, '/api/devices/xt1/scans/', {
        ...xt1Upload(transitSerial, begin, 60),
        timestamp: iso(begin + 300),
        temps: [5, 5, 5, 5, 5],
      });
    } finally {
      await api.dispose();
    }
    await page.goto('/login');
    await signIn(page, admin);
    try {
      await test.step('Configuration > Alarms: the switch, saved with a reason', async () => {
        await page.goto('/configuration?tab=alarms');
        const settingCard = page.getByRole('region', { name: 'Release decisions' });
        const toggle = settingCard.getByRole('switch', {
          name: 'Allow release while a shipment is in transit',
        });
        await expect(toggle).not.toBeChecked();
        await toggle.check();
        await expect(settingCard).toContainText('the signer must give a reason');
        await settingCard
          .getByLabel('Reason for change')
          .fill(`E2E (${run}): urgent hospital stock`);
        await expectNoAccessibilityViolations(page);
        await shoot(page, 'release-in-transit-setting-1280');
        await settingCard.getByRole('button', { name: 'Save' }).click();
        await expect(page.getByText('Release setting saved')).toBeVisible();
        await page.reload();
        await expect(toggle).toBeChecked();
        await page.setViewportSize({ width: 375, height: 800 });
        await settingCard.scrollIntoViewIfNeeded();
        await shoot(page, 'release-in-transit-setting-375');
        await page.setViewportSize({ width: 1280, height: 800 });
      });

      await test.step('the record in transit: Release asks for the reason, then shows it', async () => {
        await page.goto(`/recorddetails/${transitRecord}`);
        const card = page.getByRole('region', { name: 'Release decision' });
        await card.getByRole('button', { name: 'Decide' }).click();
        const dialog = page.getByRole('dialog', { name: 'Sign a release decision' });
        const release = dialog.getByRole('radio', { name: 'Release' });
        await expect(release).toBeEnabled();
        await release.check();
        const reason = dialog.getByLabel('Reason for releasing in transit');
        await expect(reason).toBeVisible();
        await dialog.getByLabel('Comment').fill('Released before arrival');
        await dialog.getByLabel('Password').fill(admin.password);
        await dialog.getByRole('button', { name: 'Sign decision' }).click();
        // The reason is required: not sent without it.
        await expect(dialog).toBeVisible();
        await expect(reason).toHaveAttribute('aria-invalid', 'true');
        await reason.fill('Ward out of stock; the receiver checks on arrival');
        await expectNoAccessibilityViolations(page);
        await dialog.getByRole('button', { name: 'Sign decision' }).click();
        await expect(dialog).toBeHidden();
        const current = card.getByRole('group', { name: 'Current decision' });
        await expect(current).toContainText(
          'Released in transit: Ward out of stock; the receiver checks on arrival',
        );
      });
    } finally {
      const res = await page.request.patch('/api/auth/org-settings/', {
        data: { allow_release_in_transit: false, reason: `E2E (${run}): put back` },
        headers: { 'X-CSRFToken': await csrfToken(page.request) },
      });
      expect(res.status(), await res.text()).toBe(200);
    }
  });
});
