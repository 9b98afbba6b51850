import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { apiSignIn, iso, post, xt1Upload } from './api';
import { chooseOption, E2E_ADMIN, expectNoAccessibilityViolations, signIn } from './fixtures';

/**
 * The release decision (issue 14 item 2) end to end: a shipment with an
 * excursion cannot be released on the record page while its alarm awaits
 * acknowledgement (the dialog says so in the server's words); once the alarm
 * is acknowledged the user releases it with a signature (password and
 * meaning); the decision shows on the record page, in All Records filtered by
 * RELEASED, and in the PDF report's verdict.
 */

const run = Date.now().toString(36);
const serial = `E2EDSP${run}`.toUpperCase();
const COMMENT = `Excursion within the stability data (${run}): released`;

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: false });
}

test.describe('release decision', () => {
  let recordId: string;
  let alarmIds: string[];

  test.beforeAll(async ({ playwright }, testInfo) => {
    const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL! });
    try {
      await apiSignIn(api);
      const start = Math.floor(Date.now() / 1000) - 3600;
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
    await signIn(page);
    await page.goto(`/recorddetails/${recordId}`);
    const card = page.getByRole('region', { name: 'Release decision' });
    await expect(card.getByText('No release decision yet.', { exact: false })).toBeVisible();

    await test.step('RELEASED is refused with the server message while alarms are open', async () => {
      await card.getByRole('button', { name: 'Decide' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign a release decision' });
      await dialog.getByRole('radio', { name: 'Released' }).check();
      const n = alarmIds.length;
      await expect(dialog.getByRole('alert')).toHaveText(
        `The record cannot be released: ${n === 1 ? '1 alarm is' : `${n} alarms are`} not acknowledged. Acknowledge them first, or quarantine or reject it.`,
      );
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();
    });

    await test.step('acknowledge the alarms (signed)', async () => {
      const res = await page.request.post('/api/devices/xt1/alarm-acknowledge/', {
        data: {
          record_ids: [recordId],
          comment: 'Reviewed',
          client_type: 'WEB',
          password: E2E_ADMIN.password,
          meaning: 'REVIEWED',
        },
        headers: {
          'X-CSRFToken': (await page.context().cookies()).find((c) => c.name === 'csrftoken')!
            .value,
        },
      });
      expect(res.status(), await res.text()).toBe(200);
      await page.reload();
    });

    await test.step('release with a signature; the card shows it', async () => {
      await card.getByRole('button', { name: 'Decide' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign a release decision' });
      await dialog.getByRole('radio', { name: 'Released' }).check();
      await expect(dialog.getByRole('alert')).toHaveCount(0);
      await dialog.getByLabel('Comment').fill(COMMENT);
      await dialog.getByRole('radio', { name: 'Approved' }).check();
      await dialog.getByLabel('Password').fill(E2E_ADMIN.password);
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
});
