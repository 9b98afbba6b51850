import { expect, test, type Page } from '@playwright/test';
import { expectNoAccessibilityViolations, openSettingsItem, signIn } from './fixtures';
import { simulateShipment } from './simulate';

/**
 * Screens found walking every screen (issue 11): the footer's Warranty link,
 * the searchable time zone list, the skip link, the named mobile drawer, the
 * focus ring and the Acknowledge dialog's first focus.
 */
const SHOTS = process.env.E2E_SCREENSHOTS;

/** Waits for running transitions (a drawer sliding in) so a screenshot shows the end state. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))),
  );
}

test.describe('screens walked by a quality manager [FEAT-ACCESSIBILITY]', () => {
  test('the footer Warranty link opens the warranty section of the terms [SPEC-2.13]', async ({
    page,
  }) => {
    await page.goto('/');
    await signIn(page);
    await page
      .getByRole('navigation', { name: 'Legal' })
      .getByRole('link', { name: 'Warranty' })
      .click();
    await expect(page).toHaveURL(/\/terms-of-use#warranty$/);
    const heading = page.getByRole('heading', { name: 'Warranty' });
    await expect(heading).toBeVisible();
    await expect(heading).toHaveAttribute('id', 'warranty');
    await expect(heading).toBeInViewport();
    await expect(page.getByText(/The service operator warrants that Coldtrace/)).toBeVisible();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/warranty-1280.png` });
  });

  test('the time zone list is searchable by name, alias and offset, and saves [SPEC-2.11, SPEC-5.7]', async ({
    page,
  }) => {
    await page.goto('/');
    await signIn(page);
    await openSettingsItem(page, 'Units Settings');
    const dialog = page.getByRole('dialog', { name: 'Units Settings' });
    const input = dialog.getByRole('combobox', { name: 'Time zone' });
    await expect(input).toHaveValue('UTC');

    await input.click();
    const listbox = page.getByRole('listbox');
    await expect(listbox).toBeVisible();
    // UTC first; the separator is no option.
    await expect(listbox.getByRole('option').first()).toHaveText(/^UTC\s*UTC\+00:00$/);
    const names = await listbox.getByRole('option').allTextContents();
    expect(names.length).toBeGreaterThan(400);
    expect(names.filter((name) => name.trim() === '')).toEqual([]);
    await expect(listbox.getByRole('group', { name: 'Other time zones' })).toBeVisible();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/time-zone-open-1280.png` });
    await expectNoAccessibilityViolations(page);

    // By UTC offset.
    await input.fill('+05:30');
    await expect(listbox.getByRole('option', { name: /Asia\/Calcutta/ })).toBeVisible();
    await expect(listbox.getByRole('option', { name: /Europe\/Paris/ })).toHaveCount(0);
    // By another name of the zone (Asia/Kolkata is an alias of Asia/Calcutta).
    await input.fill('kolk');
    await expect(listbox.getByRole('option')).toHaveText([/Asia\/Calcutta/]);
    // By name, underscores shown as spaces; choosing saves and reloads.
    await input.fill('new yo');
    await expect(listbox.getByRole('option')).toHaveText([/^America\/New York/]);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/time-zone-search-1280.png` });
    const saved = page.waitForResponse(
      (res) => res.url().includes('/api/auth/user-settings/') && res.request().method() === 'PATCH',
    );
    await listbox.getByRole('option', { name: /America\/New York/ }).click();
    expect((await saved).status()).toBe(200);
    await page.waitForLoadState('load');

    await openSettingsItem(page, 'Units Settings');
    const again = page.getByRole('dialog', { name: 'Units Settings' });
    await expect(again.getByRole('combobox', { name: 'Time zone' })).toHaveValue(
      'America/New York',
    );
    // Back to UTC for the other tests.
    const reset = page.waitForResponse(
      (res) => res.url().includes('/api/auth/user-settings/') && res.request().method() === 'PATCH',
    );
    await again.getByRole('combobox', { name: 'Time zone' }).fill('UTC');
    await page.getByRole('option', { name: /^UTC/ }).first().click();
    expect((await reset).status()).toBe(200);
  });

  test('a skip link is the first stop of the keyboard and moves focus to main', async ({
    page,
  }) => {
    await page.goto('/');
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/skip-link-1280.png` });
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    // The next Tab goes into the page, not back to the top bar.
    await page.keyboard.press('Tab');
    const inMain = await page.evaluate(
      () => document.querySelector('main')?.contains(document.activeElement) ?? false,
    );
    expect(inMain).toBe(true);
    // A focused button shows a 2 px ring, not only a tint.
    await page.keyboard.press('Tab');
    const button = page.getByRole('main').getByRole('button', { name: 'Search' });
    await expect(button).toBeFocused();
    await expect(button).toHaveCSS('outline-width', '2px');
    await expect(button).toHaveCSS('outline-style', 'solid');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/focus-ring-1280.png` });
  });

  test('the mobile navigation drawer has a name', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/');
    await signIn(page);
    await page.getByRole('button', { name: /open navigation/i }).click();
    const drawer = page.getByRole('dialog', { name: 'Navigation' });
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    if (SHOTS) {
      await settled(page);
      await page.screenshot({ path: `${SHOTS}/drawer-375.png` });
    }
    await expectNoAccessibilityViolations(page);
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    if (SHOTS) {
      await page.getByRole('link', { name: 'Warranty' }).click();
      await expect(page.getByRole('heading', { name: 'Warranty' })).toBeInViewport();
      await page.screenshot({ path: `${SHOTS}/warranty-375.png` });
      await openSettingsItem(page, 'Units Settings');
      await expect(page.getByRole('dialog', { name: 'Units Settings' })).toBeVisible();
      await page.getByRole('combobox', { name: 'Time zone' }).fill('+05:30');
      await settled(page);
      await page.screenshot({ path: `${SHOTS}/time-zone-search-375.png` });
    }
  });

  test('the Acknowledge dialog opens with focus on the meaning', async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    const { recordId } = await simulateShipment(
      baseURL!,
      'pharma-high',
      `E2ESA${Date.now() % 100000}`,
    );
    await page.goto('/');
    await signIn(page);
    await page.goto(`/recorddetails/${recordId}`);
    const alarmsCard = page.getByRole('region', { name: 'Alarms' });
    const single = alarmsCard.getByRole('button', { name: 'Acknowledge', exact: true });
    if ((await alarmsCard.getByRole('listitem').count()) > 1) {
      await alarmsCard.getByRole('checkbox').first().check();
      await alarmsCard.getByRole('button', { name: /^Acknowledge selected/ }).click();
    } else {
      await single.click();
    }
    const dialog = page.getByRole('dialog', { name: /^Acknowledge/ });
    await expect(dialog).toBeVisible();
    const group = dialog.getByRole('radiogroup', { name: 'Meaning of your signature' });
    await expect(group.getByRole('radio').first()).toBeFocused();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/acknowledge-1280.png` });
  });
});
