import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { expectNoAccessibilityViolations, signIn } from './fixtures';

/**
 * The escalation fields of a notification setting (issue 14,
 * docs/decisions/escalation.md): an Alarm setting can remind after N minutes
 * and escalate to a second list after M; the dialog names each bad field
 * before anything is sent; saved, the values come back when edited.
 * Screenshots of the dialog at 1280 and 375 px go to /tmp/shots.
 */

const run = Date.now().toString(36);
const TO = `qa-${run}@example.test`;
const BOSS = `qp-${run}@example.test`;
const SHOTS = '/tmp/shots';

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

test('an Alarm setting escalates: the fields, their checks, saved and read back [FEAT-ESCALATION]', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto('/configuration?tab=notifications');
  await signIn(page);
  await page.getByRole('button', { name: 'Add setting' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add notification setting' });
  await expect(dialog).toBeVisible();
  const remind = dialog.getByLabel('Remind after (minutes)');
  const escalate = dialog.getByLabel('Escalate after (minutes)');
  const escalateTo = dialog.getByLabel('Escalate to');
  const save = dialog.getByRole('button', { name: 'Save' });

  await test.step('bad values are named, nothing is saved', async () => {
    await dialog.getByLabel('To', { exact: true }).fill(TO);
    await remind.fill('-5');
    await save.click();
    await expect(dialog.getByText('Enter whole minutes from 1 to 10080 (a week)')).toBeVisible();
    await remind.fill('30');
    await escalate.fill('20');
    await save.click();
    await expect(dialog.getByText('Add at least one address to escalate to')).toBeVisible();
    await escalateTo.fill(BOSS);
    await save.click();
    await expect(dialog.getByText('Must be later than the reminder (30 minutes)')).toBeVisible();
    await expectNoAccessibilityViolations(page);
    await shoot(page, 'escalation-dialog-errors-1280');
  });

  await test.step('saved, the setting reads back its escalation', async () => {
    await escalate.fill('120');
    await shoot(page, 'escalation-dialog-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await escalateTo.scrollIntoViewIfNeeded();
    await shoot(page, 'escalation-dialog-375');
    await page.setViewportSize({ width: 1280, height: 800 });
    await save.click();
    await expect(dialog).toBeHidden();
    const row = page
      .getByRole('table', { name: 'E-mail notification settings' })
      .getByRole('row')
      .filter({ hasText: TO });
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: /edit/i }).first().click();
    const edit = page.getByRole('dialog', { name: 'Edit notification setting' });
    await expect(edit.getByLabel('Remind after (minutes)')).toHaveValue('30');
    await expect(edit.getByLabel('Escalate after (minutes)')).toHaveValue('120');
    await expect(edit.getByLabel('Escalate to')).toHaveValue(BOSS);
    // Only Alarm settings escalate: another type hides the fields.
    await edit.getByLabel('Notification type').click();
    await page.getByRole('option', { name: 'Arrival' }).click();
    await expect(edit.getByLabel('Remind after (minutes)')).toBeHidden();
    await edit.getByRole('button', { name: 'Cancel' }).click();
  });
});
