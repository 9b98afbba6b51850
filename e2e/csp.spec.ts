import { expect, test, type Page } from '@playwright/test';
import { apiSignIn, iso, post, xt1Upload } from './api';
import { E2E_ADMIN, openSettingsItem, signIn } from './fixtures';
import { linkIn, waitForMail } from './mail';

/**
 * The Content-Security-Policy (issue 10) against the real server and the built
 * web app: every screen of spec section 2, the settings dialogs, a record page
 * with its map, the API docs, and the signed-out pages (sign-in, reset with a
 * real mailed link, welcome) raise no CSP violation. Violations are caught as
 * `securitypolicyviolation` events (reported from every document through a
 * binding) and as Chromium's "Refused to ..." console messages.
 */

const run = Date.now().toString(36);
const SERIAL = `E2E-CSP-${run}`;
const ORIGIN = { latitude: 52.3676, longitude: 4.9041 };

/** Starts collecting CSP violations of every document the page loads. */
async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeBinding('__cspViolation', (_source, text: string) => {
    violations.push(text);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __cspViolation: (t: string) => void }).__cspViolation;
      report(
        `${location.pathname}: ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} ` +
          `(${e.sourceFile}:${e.lineNumber}) ${e.sample}`,
      );
    });
  });
  page.on('console', (message) => {
    const text = message.text();
    if (/Refused to|Content Security Policy/i.test(text)) violations.push(`console: ${text}`);
  });
  return violations;
}

/** Opens `path`, waits for the screen to settle (lazy chunks, styles, queries), checks the policy was sent. */
async function visit(page: Page, path: string, ready?: (page: Page) => Promise<void>) {
  const response = await page.goto(path);
  expect(response?.headers()['content-security-policy'], path).toContain("script-src 'self'");
  if (ready) await ready(page);
  await page.waitForLoadState('networkidle').catch(() => undefined);
}

test.describe('Content-Security-Policy: no violation on any screen [FEAT-HTTP-SECURITY]', () => {
  test('the check itself catches a violation (an inline script)', async ({ page }) => {
    const violations = await watchCsp(page);
    await visit(page, '/login');
    const ran = await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true;';
      document.body.append(script);
      return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => violations.length).toBeGreaterThan(0);
    expect(violations.join('\n')).toMatch(/script-src/);
  });

  test('signed out: sign-in, forgotten password, reset and welcome pages', async ({
    page,
    request,
  }) => {
    const violations = await watchCsp(page);
    // A real reset link, mailed to the administrator (the SMTP sink of the e2e server).
    await request.get('/api/auth/csrf/');
    const csrf = (await request.storageState()).cookies.find((c) => c.name === 'csrftoken')!.value;
    const reset = await request.post('/api/auth/password-reset/', {
      data: { email: E2E_ADMIN.email },
      headers: { 'X-CSRFToken': csrf },
    });
    expect(reset.status()).toBe(204);
    const mail = await waitForMail(E2E_ADMIN.email, (m) => /reset/i.test(m.subject));
    const resetLink = linkIn(mail, '/passwordreset/');

    await visit(page, '/login', (p) => expect(p.getByLabel('Email or username')).toBeVisible());
    await visit(page, '/forgotpassword');
    await visit(page, '/forgotpasswordconfirm');
    await visit(page, resetLink, (p) =>
      expect(
        p.getByLabel('New password', { exact: true }).or(p.getByRole('heading')).first(),
      ).toBeVisible(),
    );
    await visit(page, '/passwordresetconfirm');
    await visit(page, '/welcome/00000000-0000-4000-8000-000000000000/not-a-real-token');
    await visit(page, '/welcome/passwordresetconfirm');
    // A protected page sends the visitor to the sign-in page.
    await visit(page, '/allrecords', (p) => expect(p).toHaveURL(/\/login$/));
    expect(violations).toEqual([]);
  });

  test('signed in as the administrator: every screen, the dialogs and the API docs', async ({
    page,
    request,
  }) => {
    // A record with positions, so its page draws the map (tiles from the configured host).
    // It stays inside the thresholds (no alarm, no notification for the other specs) and
    // lies two days back, so it does not push their records off the home list.
    await apiSignIn(request);
    const start = Math.floor(Date.now() / 1000) - 48 * 3600;
    const common = xt1Upload(SERIAL, start, 600);
    const { record_id: recordId } = (await post(request, '/api/devices/xt1/start-action/', {
      ...common,
      timestamp: iso(start),
      ...ORIGIN,
    })) as { record_id: string };
    await post(request, '/api/devices/xt1/scans/', {
      ...common,
      timestamp: iso(start + 6 * 600),
      latitude: 52.16,
      longitude: 4.49,
      temps: [4.5, 5.0, 5.5, 6.1, 6.0, 5.2],
    });

    const violations = await watchCsp(page);
    await page.goto('/');
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

    const screens: [string, ((p: Page) => Promise<void>)?][] = [
      ['/', (p) => expect(p.getByRole('heading', { name: 'Dashboard' })).toBeVisible()],
      ['/serveradmin'],
      ['/organization/admin'],
      ['/organization/apikeys'],
      ['/organization/assign-tags'],
      ['/allrecords', (p) => expect(p.getByRole('grid').first()).toBeVisible()],
      ['/alldevices', (p) => expect(p.getByRole('grid').first()).toBeVisible()],
      ['/configuration'],
      [
        `/recorddetails/${recordId}`,
        (p) => expect(p.locator('.leaflet-container').first()).toBeVisible(),
      ],
      [`/search?searchTerms=${SERIAL}&page=1`],
      ['/no-such-screen'],
      ['/tou-agreement'],
      ['/terms-of-use'],
      ['/privacy-policy'],
      ['/changelog'],
    ];
    for (const [path, ready] of screens) {
      await test.step(path, async () => {
        await visit(page, path, ready);
        expect(violations, path).toEqual([]);
      });
    }

    await test.step('settings dialogs and the notifications menu', async () => {
      await visit(page, '/');
      for (const item of [
        'View Profile',
        'Change Password',
        'Units Settings',
        'Notification Settings',
      ]) {
        await openSettingsItem(page, item);
        await expect(page.getByRole('dialog')).toBeVisible();
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toBeHidden();
      }
      await page
        .getByRole('button', { name: /notification/i })
        .first()
        .click();
      await page.keyboard.press('Escape');
      expect(violations).toEqual([]);
    });

    await test.step('API docs', async () => {
      await visit(page, '/api/docs/', (p) =>
        expect(p.getByText('Coldtrace API').first()).toBeVisible(),
      );
      // Open one operation: its schemas and examples render too.
      await page.locator('.opblock-summary').first().click();
      await expect(page.locator('.opblock-body').first()).toBeVisible();
      await page.waitForLoadState('networkidle').catch(() => undefined);
      expect(violations).toEqual([]);
    });
  });
});
