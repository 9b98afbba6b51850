import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { apiSignIn, patch } from './api';
import { E2E_ADMIN, bellButton, expectNoAccessibilityViolations, signIn } from './fixtures';
import { firstMailsAbout, waitForMail } from './mail';
import { simulateShipment } from './simulate';

/**
 * The alarm loop end to end (alarm workflow issue): the simulator drives a
 * shipment into a high excursion through the public device API; within 30
 * seconds, without a reload, the bell shows the record's notifications (the
 * alarm.raised job made them) and the subscribed user (the administrator,
 * "any alarm in this organization") gets exactly one e-mail; notifications
 * are dismissed one and all (a second simulated shipment leaves some of
 * another record for 'Dismiss All'); on the record page the user signs the
 * acknowledgement of every alarm at once (password and meaning); the
 * signature and the audit entries show; the PDF report, turned into text,
 * carries the signature, the excursion and the mean kinetic temperature.
 */

const run = Date.now().toString(36);
const COMMENT = `Reviewed the excursions (${run}): product released`;

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: false });
}

interface Alarm {
  id: string;
  above_or_below: 'ABOVE' | 'BELOW';
  highest_recorded_temperature?: number | null;
}

test.describe('alarm workflow [RULE-AUDIT-1, FEAT-E-SIGNATURE, SPEC-2.6]', () => {
  let recordId: string;
  let serial: string;
  let alarms: Alarm[];

  test.beforeAll(async ({ playwright }, testInfo) => {
    test.setTimeout(120_000);
    const baseURL = testInfo.project.use.baseURL!;
    const api = await playwright.request.newContext({ baseURL });
    try {
      await apiSignIn(api);
      await patch(api, '/api/auth/user-org-settings/', {
        alarm_notify_my_scans: false,
        alarm_notify_any_scans: true,
      });
      const simulated = await simulateShipment(baseURL, 'pharma-high', `E2EAW${run}`);
      recordId = simulated.recordId;
      serial = simulated.plan.serial;
      // A second one, so that notifications of another record are left for 'Dismiss All'.
      await simulateShipment(baseURL, 'pharma-high', `E2EAW${run}`, { nth: 1 });
      const res = await api.get(
        `/api/devices/xt1/alarms/?record_id=${recordId}&include_acknowledged=true&include_dismissed=true`,
      );
      expect(res.status(), await res.text()).toBe(200);
      alarms = (await res.json()) as Alarm[];
    } finally {
      await api.dispose();
    }
    // The warm dock of the high-excursion profile breaks the high threshold.
    expect(alarms.some((a) => a.above_or_below === 'ABOVE')).toBe(true);
  });

  test('bell, e-mail, dismissal, signed acknowledgement, audit trail and PDF report', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.goto('/login');
    await signIn(page);
    const items = page.getByRole('link', { name: `Record ${recordId} has an alarm` });

    await test.step('the bell shows the new alarms within 30 s, without a reload', async () => {
      await expect(bellButton(page)).not.toHaveAccessibleName('No notifications', {
        timeout: 30_000,
      });
      await bellButton(page).click();
      const menu = page.getByRole('dialog', { name: 'Notifications' });
      await expect(menu).toBeVisible();
      await expect(items).toHaveCount(alarms.length, { timeout: 30_000 });
      await expect(menu.getByRole('button', { name: 'Dismiss All' })).toBeVisible();
      await expectNoAccessibilityViolations(page);
      await shoot(page, 'bell-1280');
    });

    await test.step('the subscribed user gets exactly one e-mail about it', async () => {
      const about = (subject: string) => subject.includes(`Record ${recordId} `);
      const mail = await waitForMail(E2E_ADMIN.email, (m) => about(m.subject), 30_000);
      expect(mail.subject).toBe(`Record ${recordId} has an alarm (tag ${serial})`);
      expect(mail.text).toContain(`/recorddetails/${recordId}`);
      // One, and the log (where a second would show) agrees.
      const counted = await firstMailsAbout(page.request, recordId, E2E_ADMIN.email, (m) =>
        about(m.subject),
      );
      expect(counted).toEqual({ delivered: 1, logged: 1 });
    });

    await test.step('dismiss one: it goes once the server has dismissed it', async () => {
      const menu = page.getByRole('dialog', { name: 'Notifications' });
      await menu
        .getByRole('button', { name: `Dismiss: Record ${recordId} has an alarm` })
        .first()
        .click();
      await expect(items).toHaveCount(alarms.length - 1);
    });

    await test.step('Dismiss All empties the list', async () => {
      const menu = page.getByRole('dialog', { name: 'Notifications' });
      await menu.getByRole('button', { name: 'Dismiss All' }).click();
      // It asks first, naming how many (issue 14).
      const confirm = page.getByRole('dialog', { name: /^Dismiss \d+ notifications?\?$/ });
      await confirm.getByRole('button', { name: /^Dismiss \d+$/ }).click();
      await expect(menu.getByText('No new notifications')).toBeVisible();
      await expect(menu.getByRole('button', { name: 'Dismiss All' })).toBeHidden();
      // Focus is back in the menu once the confirmation has gone, so Escape closes it.
      await expect(menu.getByRole('heading', { name: 'Notifications' })).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
      await expect(bellButton(page)).toHaveAccessibleName('No notifications');
    });

    await test.step('the record link leads to the record page', async () => {
      await page.goto(`/recorddetails/${recordId}`);
      await expect(
        page.getByRole('heading', { name: `Record ${recordId}`, level: 1 }),
      ).toBeVisible();
    });

    const alarmsCard = page.getByRole('region', { name: 'Alarms' });
    await test.step('sign the acknowledgement of every alarm at once', async () => {
      await expect(alarmsCard.getByRole('listitem')).toHaveCount(alarms.length);
      if (alarms.length === 1) {
        await alarmsCard.getByRole('button', { name: 'Acknowledge', exact: true }).click();
      } else {
        for (const box of await alarmsCard.getByRole('checkbox').all()) await box.check();
        await alarmsCard
          .getByRole('button', { name: `Acknowledge selected (${alarms.length})` })
          .click();
      }
      const dialog = page.getByRole('dialog', {
        name: alarms.length === 1 ? 'Acknowledge alarm' : `Acknowledge ${alarms.length} alarms`,
      });
      await expect(dialog).toBeVisible();
      const sign = dialog.getByRole('button', { name: 'Sign and acknowledge' });
      await expect(sign).toBeDisabled();
      await dialog.getByRole('radio', { name: 'Approved' }).check();
      await dialog.getByLabel('Comment').fill(COMMENT);
      await dialog.getByLabel('Password').fill('not my password');
      await expectNoAccessibilityViolations(page);
      await shoot(page, 'sign-dialog-1280');
      await sign.click();
      // A wrong password is refused and shown on the field; nothing is signed.
      await expect(dialog.getByText('The password is not correct.')).toBeVisible();
      await expect(dialog.getByLabel('Password')).toHaveValue('');
      await dialog.getByLabel('Password').fill(E2E_ADMIN.password);
      await sign.click();
      await expect(dialog).toBeHidden();
      const signatures = alarmsCard.getByTestId('alarm-signature');
      await expect(signatures).toHaveCount(alarms.length);
      await expect(signatures.first()).toContainText(/^Signed by .+ on .+ — Approved: /);
      await expect(signatures.first()).toContainText(COMMENT);
    });

    await test.step('the audit trail shows the signed acknowledgements', async () => {
      const audit = page.getByRole('region', { name: 'Audit trail' });
      await expect(audit.getByText(/^Alarm acknowledged \d+$/)).toHaveCount(alarms.length);
      await expect(audit.getByText(`Reason: Approved: ${COMMENT}`)).toHaveCount(alarms.length);
      await expect(audit.getByText('Acknowledged: No → Yes').first()).toBeVisible();
      const csv = audit.getByRole('link', { name: 'Export CSV' });
      await expect(csv).toHaveAttribute('href', `/api/audit/csv/?record_id=${recordId}`);
      const download = await page.request.get(`/api/audit/csv/?record_id=${recordId}`);
      expect(download.status()).toBe(200);
      expect(await download.text()).toContain(`Approved: ${COMMENT}`);
      await audit.scrollIntoViewIfNeeded();
      await expectNoAccessibilityViolations(page);
      await shoot(page, 'record-audit-1280');
    });

    await test.step('the PDF report carries the signature, the excursion and the MKT', async () => {
      const summaryMkt = await page
        .getByText('Mean kinetic temperature', { exact: true })
        .first()
        .locator('xpath=following-sibling::*[1]')
        .innerText();
      const reports = page.getByRole('region', { name: 'Reports' });
      const downloading = page.waitForEvent('download');
      await reports.getByRole('button', { name: 'Download PDF' }).click();
      const download = await downloading;
      const file = await readFile((await download.path())!);
      await writeFile(test.info().outputPath('report.pdf'), file);
      const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: file }).toString();
      await test.info().attach('report.txt', { body: text, contentType: 'text/plain' });
      expect(text).toContain(`Temperature report: record ${recordId}`);
      // The signature: printed name, meaning and comment.
      expect(text).toMatch(/Approved/);
      // Read in reading order (not the page layout): a comment wrapped in its table cell reads whole.
      const flow = execFileSync('pdftotext', ['-', '-'], { input: file }).toString();
      expect(flow.replace(/\s+/g, ' ')).toContain(COMMENT);
      // The excursion above the high threshold, and the mean kinetic temperature of the summary.
      expect(text).toContain('High excursion');
      const mkt = /-?\d+\.\d/.exec(summaryMkt)![0];
      expect(text).toMatch(new RegExp(`Mean kinetic\\s+${mkt.replace('.', '\\.')}\\b`));
    });

    await test.step('phone width', async () => {
      await page.setViewportSize({ width: 375, height: 800 });
      await alarmsCard.scrollIntoViewIfNeeded();
      await shoot(page, 'record-alarms-375');
      await page.getByRole('region', { name: 'Audit trail' }).scrollIntoViewIfNeeded();
      await shoot(page, 'record-audit-375');
      await bellButton(page).click();
      await expect(page.getByRole('dialog', { name: 'Notifications' })).toBeVisible();
      await shoot(page, 'bell-375');
      await expectNoAccessibilityViolations(page);
    });
  });
});
