import { expect, type Page } from '@playwright/test';
import { E2E_ADMIN } from '../playwright.config';

export { E2E_ADMIN };

/** Signs in through the login form and, unless told otherwise, waits until the app leaves /login. */
export async function signIn(page: Page, who = E2E_ADMIN, expectSuccess = true): Promise<void> {
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email or username').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  if (expectSuccess) await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** Opens the settings menu and clicks an entry. */
export async function openSettingsItem(page: Page, item: string): Promise<void> {
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('menuitem', { name: item }).click();
}
