import { expect, type Locator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { E2E_ADMIN } from '../playwright.config';

const require = createRequire(import.meta.url);

export { E2E_ADMIN };

/** Signs in through the login form and, unless told otherwise, waits until the app leaves /login. */
export async function signIn(page: Page, who = E2E_ADMIN, expectSuccess = true): Promise<void> {
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email or username').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  if (expectSuccess) await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/**
 * Full-page screenshots at desktop and phone width (ui.md: works at 375 px), into
 * `E2E_SCREENSHOTS_DIR` (default `test-results/screens`) as `{name}-{width}.png`.
 */
/**
 * The top bar's notifications bell. Its name is its count ('No notifications',
 * '1 notification', 'More than 99 notifications'), which depends on the specs run before.
 */
export const bellButton = (page: Page): Locator =>
  page.getByRole('banner').getByRole('button', { name: /notification/i });

export async function screenshots(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS_DIR ?? 'test-results/screens';
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * After signing in as a new person: agrees to the terms of use when the app asks (terms
 * an earlier spec published), then waits for All Records. The URL right after signing in
 * does not tell yet: the app decides once it has read the session.
 */
export async function agreeToTermsIfAsked(page: Page): Promise<void> {
  await page.goto('/allrecords');
  const agree = page.getByRole('button', { name: 'I Agree' });
  const allRecords = page.getByRole('heading', { name: 'All Records', level: 1 });
  await expect(agree.or(allRecords)).toBeVisible();
  if (await agree.isVisible()) {
    await page.getByRole('checkbox', { name: 'I have read and agree to the Terms of Use' }).check();
    await agree.click();
    await page.goto('/allrecords');
  }
  await expect(allRecords).toBeVisible();
  await expect(page).toHaveURL(/\/allrecords$/);
}

/** Opens the settings menu and clicks an entry. */
export async function openSettingsItem(page: Page, item: string): Promise<void> {
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

/**
 * Chooses an option of a select (MUI's menu of options) as a user does: the
 * menu open, the option clicked, the menu gone and the select showing the
 * choice. A second select is only opened once the first one's menu has
 * closed: while it fades out, its backdrop still takes the clicks.
 */
export async function chooseOption(page: Page, select: Locator, option: string): Promise<void> {
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await select.click();
  await expect(page.getByRole('listbox')).toBeVisible();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await expect(select).toHaveText(option);
}

/**
 * Loads axe-core into the page. Evaluated through the DevTools protocol: the
 * app's Content-Security-Policy (script-src 'self') refuses an inline
 * <script>, which is what `page.addScriptTag` would add.
 */
export async function injectAxe(page: Page): Promise<void> {
  await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * Runs axe-core (WCAG 2 A and AA rules) on the current page and fails with the
 * list of violations. Checks the screen as a keyboard or screen-reader user meets it.
 */
export async function expectNoAccessibilityViolations(page: Page): Promise<void> {
  // Colours are judged once transitions (a dialog fading in) have finished;
  // endless ones (a spinner) are not waited for.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  await injectAxe(page);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: unknown[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations;
  });
  const summary = (violations as AxeViolation[]).map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`,
  );
  expect(summary).toEqual([]);
}
