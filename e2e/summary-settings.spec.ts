import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { chooseOption, signIn } from './fixtures';

/**
 * A Summary notification setting (issue 15 item 3,
 * docs/decisions/scheduled-reports.md): the dialog offers the type, asks for
 * its schedule before anything is sent, hides the custom templates (a summary
 * has its own), and reads the schedule back when edited. Screenshots at 1280
 * and 375 px go to /tmp/shots.
 */

const run = Date.now().toString(36);
const TO = `summary-${run}@example.test`;
const SHOTS = '/tmp/shots';

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

test('a Summary setting: its schedule asked for, saved and read back [FEAT-SUMMARY-MAIL]', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto('/configuration?tab=notifications');
  await signIn(page);
  await page.getByRole('button', { name: 'Add setting' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add notification setting' });
  await expect(dialog).toBeVisible();
  await chooseOption(page, dialog.getByLabel('Notification type'), 'Summary');
  await expect(dialog.getByLabel('Subject')).toBeHidden();
  await expect(dialog.getByLabel('Remind after (minutes)')).toBeHidden();
  await dialog.getByLabel('To', { exact: true }).fill(TO);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Choose daily or weekly')).toBeVisible();

  await chooseOption(page, dialog.getByLabel('Schedule'), 'Weekly');
  await expect(page.getByRole('listbox')).toBeHidden();
  await expect(dialog.getByText(/^The week before \(Monday to Sunday\)/)).toBeVisible();
  await shoot(page, 'summary-dialog-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await shoot(page, 'summary-dialog-375');
  await page.setViewportSize({ width: 1280, height: 800 });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  const row = page
    .getByRole('table', { name: 'E-mail notification settings' })
    .getByRole('row')
    .filter({ hasText: TO });
  await expect(row).toBeVisible();
  await expect(row).toContainText('Summary');
  await row.getByRole('button', { name: /edit/i }).first().click();
  const edit = page.getByRole('dialog', { name: 'Edit notification setting' });
  await expect(edit.getByLabel('Schedule')).toContainText('Weekly');
  await edit.getByRole('button', { name: 'Cancel' }).click();
});
