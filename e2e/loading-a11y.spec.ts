import { expect, test, type Page } from '@playwright/test';
import { expectNoAccessibilityViolations, signIn } from './fixtures';

/**
 * Every screen passes axe while its data is still loading, not only once it
 * has loaded. The screens' API calls (all but the session's; a screen whose
 * data came meanwhile changed under axe) are held until
 * axe has run, so the skeletons, spinners and disabled fields are what it
 * reads. A loading skeleton that carried a label on a plain span failed the
 * dashboard's axe check whenever the check ran before the statistics came.
 */

/** What the app needs before any screen: who is signed in (all else is held). */
const SESSION_CALLS = ['/api/auth/session/', '/api/auth/csrf/'];

/** Holds the screens' API calls until `release`; counts the calls held. */
async function holdApi(page: Page) {
  let open = () => {};
  let gate = new Promise<void>((resolve) => (open = resolve));
  let held = 0;
  await page.route(
    (url) => url.pathname.startsWith('/api/') && !SESSION_CALLS.includes(url.pathname),
    async (route) => {
      held += 1;
      await gate;
      // The page may have gone on meanwhile: its request is then abandoned.
      await route.continue().catch(() => undefined);
    },
  );
  return {
    held: () => held,
    release() {
      open();
      held = 0;
      gate = new Promise<void>((resolve) => (open = resolve));
    },
  };
}

test('every screen passes axe while its data loads, at 1280 and 375 px [FEAT-ACCESSIBILITY]', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('/login');
  await signIn(page);
  const res = await page.request.get('/api/devices/xt1/records/?page_size=1');
  expect(res.status()).toBe(200);
  const [record] = (await res.json()) as { id: string }[];
  expect(record).toBeDefined();

  const api = await holdApi(page);
  const screens = [
    '/',
    '/allrecords',
    '/alldevices',
    `/recorddetails/${record!.id}`,
    '/configuration',
    '/kpis',
    '/search?q=a',
    '/organization/admin',
    '/organization/apikeys',
    '/organization/assign-tags',
    '/organization/webhooks',
    '/serveradmin',
  ];
  for (const [screen, width] of screens.flatMap((s) => [1280, 375].map((w) => [s, w] as const))) {
    await test.step(`${screen} at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(screen);
      // The screen has asked for its data and is showing that it waits.
      await expect.poll(api.held).toBeGreaterThan(0);
      await expect(page.getByRole('main')).toBeVisible();
      await expectNoAccessibilityViolations(page);
      api.release();
    });
  }
});
