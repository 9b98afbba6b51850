import { expect, test, type Page } from '@playwright/test';
import { E2E_ADMIN, bellButton, openSettingsItem, signIn } from './fixtures';

test.describe('sign-in, organizations, units, sign-out [SPEC-2.5, SPEC-1]', () => {
  test('sign in and land on the dashboard with top bar and side navigation', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Log In' }).first()).toBeVisible();
    await signIn(page);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(nav.getByRole('link', { name: 'All Records' })).toBeVisible();
    // The administrator holds sysAdminUser: All Devices and Configuration are shown.
    await expect(nav.getByRole('link', { name: 'All Devices' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Configuration' })).toBeVisible();
    await expect(bellButton(page)).toBeVisible();
    await expect(page.getByRole('button', { name: /^Organization: / })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toContainText('2025');
  });

  test('wrong password shows the server message and stays on /login', async ({ page }) => {
    await page.goto('/login');
    await signIn(page, { email: E2E_ADMIN.email, password: 'not-the-password' }, false);
    await expect(page.getByRole('alert')).toContainText(
      'Unable to log in with provided credentials.',
    );
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a guarded URL visited signed out comes back after sign-in', async ({ page }) => {
    await page.goto('/allrecords?pageNumber=0');
    await expect(page).toHaveURL(/\/login$/);
    await signIn(page);
    await expect(page).toHaveURL(/\/allrecords\?pageNumber=0$/);
    await expect(page.getByRole('heading', { name: 'All Records' })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'All Records' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  test('switch organization: saves, goes to / and keeps it after a reload', async ({ page }) => {
    await page.goto('/allrecords');
    await signIn(page);
    const switcher = page.getByRole('button', { name: /^Organization: / });
    await expect(switcher).toBeVisible();
    const before = (await switcher.getAttribute('aria-label'))!.replace('Organization: ', '');
    const target = before === 'Demo Organization' ? 'Demo Pharma Logistics' : 'Demo Organization';
    await switcher.click();
    await page.getByRole('menuitem', { name: target }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('button', { name: `Organization: ${target}` })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('button', { name: `Organization: ${target}` })).toBeVisible();
    // Switch back so other tests start from the same place.
    await page.getByRole('button', { name: `Organization: ${target}` }).click();
    await page.getByRole('menuitem', { name: before }).click();
    await expect(page.getByRole('button', { name: `Organization: ${before}` })).toBeVisible();
  });

  test('units settings: choosing Fahrenheit saves and reloads the page', async ({ page }) => {
    await page.goto('/');
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await openSettingsItem(page, 'Units Settings');
    const dialog = page.getByRole('dialog', { name: 'Units Settings' });
    await expect(dialog.getByRole('button', { name: 'Celsius' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await page.evaluate(
      () => ((window as unknown as { __beforeReload: boolean }).__beforeReload = true),
    );
    const reloaded = page.waitForEvent('load');
    await dialog.getByRole('button', { name: 'Fahrenheit' }).click();
    await reloaded;
    // A full reload drops every window property set before it.
    expect(
      await page.evaluate(() => (window as unknown as { __beforeReload?: boolean }).__beforeReload),
    ).toBeUndefined();
    await openSettingsItem(page, 'Units Settings');
    const again = page.getByRole('dialog', { name: 'Units Settings' });
    await expect(again.getByRole('button', { name: 'Fahrenheit' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    const back = page.waitForEvent('load');
    await again.getByRole('button', { name: 'Celsius' }).click();
    await back;
  });

  test('sign out goes to /login and the app is guarded again', async ({ page }) => {
    await page.goto('/');
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await openSettingsItem(page, 'Log Out');
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/configuration');
    await expect(page).toHaveURL(/\/login$/);
    const session = await page.request.get('/api/auth/session/');
    expect(session.status()).toBe(401);
  });
});

test.describe('pages without a session [SPEC-2.3, SPEC-2.2]', () => {
  test('an unknown path inside the app shows the not-found page', async ({ page }) => {
    await page.goto('/');
    await signIn(page);
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: /not found/i })).toBeVisible();
  });

  test('the changelog page shows CHANGELOG.md in a box of at most 350 px', async ({ page }) => {
    await page.goto('/');
    await signIn(page);
    await page.goto('/changelog');
    const box = page.getByTestId('changelog-text');
    await expect(box).toContainText('Changelog');
    const height = await box.evaluate((el) => el.getBoundingClientRect().height);
    expect(height).toBeLessThanOrEqual(350);
  });
});

test.describe('phone width [SPEC-9.5]', () => {
  test.use({ viewport: { width: 375, height: 740 } });
  test('side navigation folds into a drawer', async ({ page }) => {
    await page.goto('/');
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'All Records' }).click();
    await expect(page).toHaveURL(/\/allrecords/);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth > window.innerWidth,
    );
    expect(overflow).toBe(false);
  });
});

test.describe('motion [FEAT-REDUCED-MOTION]', () => {
  /** The CSS transition time of the open settings menu's surface. */
  async function menuTransition(page: Page): Promise<string> {
    await page.goto('/');
    await signIn(page);
    await page.getByRole('button', { name: 'Settings' }).click();
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem', { name: 'Log Out' })).toBeVisible();
    return menu.evaluate((list) => getComputedStyle(list.parentElement!).transitionDuration);
  }

  test('a user who asks for reduced motion gets menus without movement', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect((await menuTransition(page)).split(',').every((d) => d.trim() === '0s')).toBe(true);
  });

  test('other users see the menu grow', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    expect((await menuTransition(page)).split(',').some((d) => d.trim() !== '0s')).toBe(true);
  });
});
