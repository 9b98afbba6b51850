import { expect, test } from '@playwright/test';
import { signIn } from './fixtures';

/**
 * A filter typed on a busy machine is kept. With the browser's CPU slowed
 * down, the URL's update for the new filter lands while the value is being
 * typed: the editor stays open with the typed value, and Done applies it.
 * Before the fix, React dropped the render with the new URL for the typing's
 * render, the old URL then looked like a change from elsewhere, and the
 * filter and its editor were thrown away (the records test failed on it once).
 */
test('the filter editor keeps what was typed while the URL catches up (CPU slowed 6×) [SPEC-2.12]', async ({
  page,
}) => {
  await page.goto('/allrecords');
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'All Records', level: 1 })).toBeVisible();
  await expect(page.getByRole('row').nth(1)).toBeVisible();

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
  try {
    await page.getByRole('button', { name: 'Add filter' }).click();
    const editor = page.getByRole('form', { name: 'Filter' });
    await expect(editor.getByRole('combobox', { name: 'Operator' })).toHaveText('contains');
    await editor.getByRole('textbox', { name: 'Value' }).fill('PO-');
    // Longer than the URL's debounce: its write lands while the editor is open.
    await page.waitForTimeout(1500);
    await expect(editor.getByRole('textbox', { name: 'Value' })).toHaveValue('PO-');
    await editor.getByRole('button', { name: 'Done' }).click();
    await expect(editor).toBeHidden();
    await expect(
      page.getByRole('button', { name: 'Filter: Primary reference contains PO-. Edit' }),
    ).toBeVisible();
    await expect
      .poll(() => new URL(page.url()).searchParams.getAll('filterItems'))
      .toEqual([
        JSON.stringify({ field: 'primary_reference', operator: 'contains', value: 'PO-' }),
      ]);
  } finally {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  }
});
