import { expect, test, type Response } from '@playwright/test';

/**
 * Issue 13: the built web app's files travel precompressed. Chromium asks for
 * br; the page, its scripts and its styles come back br-encoded (the `.br`
 * copies the build wrote), and the app still loads from them.
 */
test('the sign-in page and its assets arrive br-encoded, and the app loads [FEAT-COMPRESSION]', async ({
  page,
}) => {
  const responses: Response[] = [];
  page.on('response', (response) => responses.push(response));
  const html = await page.goto('/login');
  expect(html?.headers()['content-encoding']).toBe('br');
  expect(html?.headers()['vary']).toMatch(/accept-encoding/i);
  await expect(page.getByRole('button', { name: 'Log In' }).first()).toBeVisible();
  const assets = responses.filter((r) =>
    /\/assets\/[^/]+\.(js|css)$/.test(new URL(r.url()).pathname),
  );
  expect(assets.length).toBeGreaterThan(0);
  for (const asset of assets) {
    expect(asset.status(), asset.url()).toBe(200);
    expect(asset.headers()['content-encoding'], asset.url()).toBe('br');
    expect(asset.headers()['cache-control'], asset.url()).toBe(
      'public, max-age=31536000, immutable',
    );
  }
});
