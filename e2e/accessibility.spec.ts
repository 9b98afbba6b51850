import { expect, test } from '@playwright/test';
import { expectNoAccessibilityViolations, openSettingsItem, signIn } from './fixtures';

test.describe('accessibility (axe-core, WCAG 2.1 AA) [FEAT-ACCESSIBILITY]', () => {
  test('login page', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByLabel('Email or username')).toBeVisible();
    await expectNoAccessibilityViolations(page);
  });

  test('dashboard with top bar, side navigation and footer', async ({ page }) => {
    await page.goto('/');
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await expectNoAccessibilityViolations(page);
  });

  test('units settings dialog', async ({ page }) => {
    await page.goto('/');
    await signIn(page);
    await openSettingsItem(page, 'Units Settings');
    await expect(page.getByRole('dialog', { name: 'Units Settings' })).toBeVisible();
    await expectNoAccessibilityViolations(page);
  });

  test('profile and notification settings dialogs', async ({ page }) => {
    await page.goto('/');
    await signIn(page);
    await openSettingsItem(page, 'View Profile');
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoAccessibilityViolations(page);
    await page.keyboard.press('Escape');
    await openSettingsItem(page, 'Notification Settings');
    const dialog = page.getByRole('dialog');
    await expect(
      dialog.getByRole('switch', {
        name: 'Send an email notification when one of my scans triggers an alarm',
      }),
    ).toBeVisible();
    await expectNoAccessibilityViolations(page);
  });
});
