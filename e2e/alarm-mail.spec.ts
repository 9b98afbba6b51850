import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiSignIn, iso, post, xt1Upload } from './api';
import { expectNoAccessibilityViolations, signIn } from './fixtures';
import { firstMailsAbout, waitForMail } from './mail';

/**
 * Alarm e-mails end to end: a notification setting made on the Configuration
 * page's Notifications tab and a record's alarm recipient are subscribed; a
 * shipment driven into a high excursion through the device API reaches each
 * of their mailboxes (the e2e server's SMTP sink) exactly once within 30
 * seconds, and the notification log on the page shows the e-mails.
 */

const run = Date.now().toString(36);
const SERIAL = `E2E-AM-${run}`;
const SETTING_TO = `qa-${run}@example.test`;
const RECIPIENT = `receiver-${run}@example.test`;
const INTERVAL = 600;
const TEMPS = [5, 5, 9.4, 11.2, 5, 5];

async function alarmingShipment(api: APIRequestContext): Promise<string> {
  await apiSignIn(api);
  const start = Math.floor(Date.now() / 1000) - 3 * 3600;
  const common = xt1Upload(SERIAL, start, INTERVAL);
  const started = (await post(api, '/api/devices/xt1/start-action/', {
    ...common,
    timestamp: iso(start),
  })) as { record_id: string };
  await post(api, '/api/devices/xt1/alarm-recipients/', {
    record_id: started.record_id,
    alarm_recipients: [RECIPIENT],
  });
  await post(api, '/api/devices/xt1/scans/', {
    ...common,
    timestamp: iso(start + TEMPS.length * INTERVAL),
    temps: TEMPS,
  });
  return started.record_id;
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

test('alarm e-mails: a setting made on the page and a recipient each get exactly one [RULE-NOTIFY-2]', async ({
  page,
  playwright,
}, testInfo) => {
  test.setTimeout(120_000);
  await page.goto('/configuration?tab=notifications');
  await signIn(page);
  await expect(page.getByRole('tab', { name: 'Notifications' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByRole('heading', { name: 'Notification log' })).toBeVisible();

  await test.step('add an Alarm setting through the dialog', async () => {
    await page.getByRole('button', { name: 'Add setting' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add notification setting' });
    await expect(dialog).toBeVisible();
    // Nothing typed: the address list is asked for, nothing is sent.
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('Add at least one address')).toBeVisible();
    await dialog.getByLabel('To', { exact: true }).fill(SETTING_TO);
    await dialog.getByLabel('Subject').fill(`[E2E ${run}] Record {record_id}: {highest} °C`);
    await shoot(page, 'setting-dialog-1280');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(
      page.getByRole('table', { name: 'E-mail notification settings' }).getByText(SETTING_TO),
    ).toBeVisible();
  });

  const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const recordId = await alarmingShipment(api).finally(() => api.dispose());
  const about = (subject: string) => subject.includes(recordId);

  await test.step('each subscribed mailbox gets the e-mail within 30 s, exactly once', async () => {
    const mail = await waitForMail(SETTING_TO, (m) => about(m.subject), 30_000);
    expect(mail.subject).toBe(`[E2E ${run}] Record ${recordId}: 11.2 °C`);
    const toRecipient = await waitForMail(RECIPIENT, (m) => about(m.subject), 30_000);
    expect(toRecipient.subject).toBe(`Record ${recordId} has an alarm (tag ${SERIAL})`);
    expect(toRecipient.text).toContain(`/recorddetails/${recordId}`);
    // One each, and the log (where a second would show) agrees.
    for (const to of [SETTING_TO, RECIPIENT]) {
      expect(await firstMailsAbout(page.request, recordId, to, (m) => about(m.subject))).toEqual({
        delivered: 1,
        logged: 1,
      });
    }
  });

  await test.step('the notification log lists them', async () => {
    await page.reload();
    const log = page.getByRole('table', { name: 'Notification log' });
    const ours = `[E2E ${run}] Record ${recordId}:`;
    await expect(log.getByRole('row').filter({ hasText: ours })).toHaveCount(1);
    await expect(log.getByRole('row').filter({ hasText: ours })).toContainText(SETTING_TO);
    await expect(log.getByRole('row').filter({ hasText: RECIPIENT })).toHaveCount(1);
    await expect(
      log.getByRole('row').filter({ hasText: RECIPIENT }).getByRole('link', { name: recordId }),
    ).toBeVisible();
    await expectNoAccessibilityViolations(page);
    await shoot(page, 'notifications-1280');
    // The dialog too.
    await page.getByRole('button', { name: 'Add setting' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add notification setting' });
    await expect(dialog).toBeVisible();
    await expectNoAccessibilityViolations(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(page.getByRole('heading', { name: 'Notification log' })).toBeVisible();
    await expectNoAccessibilityViolations(page);
    await shoot(page, 'notifications-375');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  await test.step('the record page shows and edits the alarm recipients', async () => {
    await page.goto(`/recorddetails/${recordId}`);
    const card = page.getByRole('region', { name: 'Alarm recipients' });
    await expect(card.getByText(RECIPIENT)).toBeVisible();
    await card.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Alarm recipients' });
    const input = dialog.getByLabel('E-mail addresses');
    await input.fill(`${RECIPIENT}\nnot-an-address`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText("'not-an-address' is not an e-mail address")).toBeVisible();
    await input.fill(`${RECIPIENT}\nsecond-${run}@example.test`);
    await expectNoAccessibilityViolations(page);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByText(`second-${run}@example.test`)).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await shoot(page, 'record-recipients-1280');
    await page.goto('/configuration?tab=notifications');
  });

  await test.step('delete the setting (the log keeps its entry)', async () => {
    const settings = page.getByRole('table', { name: 'E-mail notification settings' });
    await settings
      .getByRole('row')
      .filter({ hasText: SETTING_TO })
      .getByRole('button', { name: /^Delete / })
      .click();
    const confirm = page.getByRole('dialog', { name: /^Delete Alarm setting/ });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toBeHidden();
    await expect(settings.getByText(SETTING_TO)).toHaveCount(0);
    await expect(
      page
        .getByRole('table', { name: 'Notification log' })
        .getByRole('row')
        .filter({ hasText: `[E2E ${run}] Record ${recordId}:` }),
    ).toHaveCount(1);
  });
});
