import { expect, test, type Page } from '@playwright/test';
import { signIn } from './fixtures';

/**
 * Issue 11: one user signed in on two devices. The organization is the
 * session's: switching on one device leaves the other showing, and working
 * in, its own organization, and choosing an organization there switches it.
 */
test('two devices: a switch on one leaves the other in its own organization [SPEC-2.5, SPEC-1]', async ({
  browser,
}) => {
  const laptop = await (await browser.newContext()).newPage();
  const phone = await (await browser.newContext()).newPage();
  const switcher = (page: Page) => page.getByRole('button', { name: /^Organization: / });
  const choose = async (page: Page, name: string) => {
    await switcher(page).click();
    await page.getByRole('menuitem', { name }).click();
    await expect(page.getByRole('button', { name: `Organization: ${name}` })).toBeVisible();
  };

  for (const page of [laptop, phone]) {
    await page.goto('/');
    await signIn(page);
    await expect(switcher(page)).toBeVisible();
  }
  const first = (await switcher(laptop).getAttribute('aria-label'))!.replace('Organization: ', '');
  const second = first === 'Demo Organization' ? 'Demo Pharma Logistics' : 'Demo Organization';
  await expect(phone.getByRole('button', { name: `Organization: ${first}` })).toBeVisible();

  await choose(phone, second);
  // The laptop, reloaded, still works in and names the first organization.
  await laptop.reload();
  await expect(laptop.getByRole('button', { name: `Organization: ${first}` })).toBeVisible();
  await phone.reload();
  await expect(phone.getByRole('button', { name: `Organization: ${second}` })).toBeVisible();

  // Choosing the second organization on the laptop switches it.
  await choose(laptop, second);
  await laptop.reload();
  await expect(laptop.getByRole('button', { name: `Organization: ${second}` })).toBeVisible();

  // Back to where the other tests start (the last choice is the next sign-in's organization).
  await choose(phone, first);
  await choose(laptop, first);
  await laptop.context().close();
  await phone.context().close();
});
