import { expect, test, type Page } from '@playwright/test';
import { apiSignIn } from './api';
import { expectNoAccessibilityViolations, signIn } from './fixtures';

/**
 * Issue 35: axe (WCAG 2.1 AA) finds nothing on any screen, at desktop and phone
 * width: every route of the app (every Configuration tab), signed out and signed
 * in as the administrator, and the record page's decision dialog.
 */

const SIGNED_OUT = [
  '/login',
  '/forgotpassword',
  '/forgotpasswordconfirm',
  '/welcome/00000000-0000-4000-8000-000000000000/not-a-real-token',
  '/invitation/00000000-0000-4000-8000-000000000000/not-a-real-token',
];

const SIGNED_IN = [
  '/',
  '/allrecords',
  '/alldevices',
  '/kpis',
  '/configuration',
  // Every Configuration tab (each has its own forms and tables).
  ...[
    'carriers',
    'travel-locations',
    'geo-fence',
    'calibration',
    'alarms',
    'notifications',
    'display-rules',
  ].map((tab) => `/configuration?tab=${tab}`),
  '/organization/admin',
  '/organization/apikeys',
  '/organization/assign-tags',
  '/organization/webhooks',
  '/serveradmin',
  '/search?searchTerms=E2E&page=1',
  '/terms-of-use',
  '/privacy-policy',
  '/changelog',
  '/no-such-screen',
];

/** The screen has drawn: a first-level heading, and its data calls have answered. */
async function settled(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

for (const width of [1280, 375]) {
  test.describe(`every screen at ${width} px [FEAT-ACCESSIBILITY]`, () => {
    test.use({ viewport: { width, height: width === 375 ? 740 : 800 } });

    test('signed out', async ({ page }) => {
      for (const path of SIGNED_OUT) {
        await test.step(path, async () => {
          await page.goto(path);
          await settled(page);
          await expectNoAccessibilityViolations(page);
        });
      }
    });

    test('signed in as the administrator, a record page included', async ({ page, request }) => {
      // Sixteen screens and a dialog, each read by axe: about 25 s, 60 s on a busy machine.
      test.setTimeout(180_000);
      await apiSignIn(request);
      const ids = (await (await request.get('/api/devices/xt1/record-ids/')).json()) as unknown[];
      expect(ids.length).toBeGreaterThan(0);
      const first = ids[0] as string | { id?: string; record_id?: string };
      const recordId = typeof first === 'object' ? (first.record_id ?? first.id) : first;
      await page.goto('/');
      await signIn(page);
      for (const path of [...SIGNED_IN, `/recorddetails/${recordId}`]) {
        await test.step(path, async () => {
          await page.goto(path);
          await settled(page);
          await expectNoAccessibilityViolations(page);
        });
      }
      await test.step("the record page's decision dialog", async () => {
        await page.goto(`/recorddetails/${recordId}`);
        await settled(page);
        await page
          .getByRole('region', { name: 'Release decision' })
          .getByRole('button', { name: /^(Decide|New decision)$/ })
          .click();
        await expect(page.getByRole('dialog', { name: 'Sign a release decision' })).toBeVisible();
        await expectNoAccessibilityViolations(page);
      });
    });
  });
}
