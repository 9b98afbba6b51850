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

/** Holds the screens' API calls (or those `holds` picks) until `release`; counts the calls held. */
async function holdApi(
  page: Page,
  holds = (pathname: string) => pathname.startsWith('/api/') && !SESSION_CALLS.includes(pathname),
) {
  let open = () => {};
  let gate = new Promise<void>((resolve) => (open = resolve));
  let held = 0;
  await page.route(
    (url) => holds(url.pathname),
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
  // 24 screens held and read by axe: about 30 s, 120 s on a busy machine.
  test.setTimeout(240_000);
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

/** The record page's cards that load after the record: chart, map, scans, certificates. */
const RECORD_CARD_CALLS = [
  '/api/devices/aggregate/record-series/',
  '/api/devices/aggregate/locations/',
  '/api/devices/xt1/records/scans/',
  '/api/devices/xt1/calibration/',
];

test("the record page passes axe while its cards' data loads after the record [FEAT-ACCESSIBILITY]", async ({
  page,
}) => {
  // The walk of every screen (a11y-walk.spec.ts) once met the chart still loading: its
  // placeholder then carried a label on a plain span (axe: aria-prohibited-attr).
  await page.goto('/login');
  await signIn(page);
  const res = await page.request.get('/api/devices/xt1/records/?page_size=1');
  const [record] = (await res.json()) as { id: string }[];
  expect(record).toBeDefined();
  const api = await holdApi(page, (pathname) => RECORD_CARD_CALLS.includes(pathname));
  for (const width of [1280, 375]) {
    await test.step(`at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`/recorddetails/${record!.id}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByLabel('Loading the chart')).toBeVisible();
      await expectNoAccessibilityViolations(page);
      api.release();
    });
  }
});
