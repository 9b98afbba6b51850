import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { injectAxe, signIn } from './fixtures';

/**
 * axe-core (WCAG 2 A and AA) on the reports card only: the whole page is
 * e2e/record-detail.spec.ts's to check.
 */
async function expectCardAccessible(page: Page): Promise<void> {
  await injectAxe(page);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Element, opts: unknown) => Promise<{ violations: { id: string }[] }> };
      }
    ).axe;
    const section = Array.from(document.querySelectorAll('section')).find(
      (s) => s.querySelector('h2')?.textContent === 'Reports',
    );
    if (!section) throw new Error('no Reports section');
    const result = await axe.run(section, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations.map((v) => v.id);
  });
  expect(violations).toEqual([]);
}

/**
 * Reports on the record page: on a record of the seeded demo data, Download
 * PDF shows a spinner, then the browser saves a PDF named after the record
 * whose text names the record; the reports card passes axe and fits 375 px.
 */

async function firstSeededRecord(page: Page): Promise<string> {
  const res = await page.request.get('/api/devices/xt1/records/?page_size=1&page_number=1');
  expect(res.ok(), await res.text()).toBe(true);
  const records = (await res.json()) as { id: string }[];
  expect(records.length).toBeGreaterThan(0);
  return records[0]!.id;
}

test('Download PDF on a seeded record saves the PDF report [RULE-REPORT-1]', async ({ page }) => {
  await page.goto('/');
  await signIn(page);
  const recordId = await firstSeededRecord(page);
  await page.goto(`/recorddetails/${recordId}`);
  const reports = page.getByRole('region', { name: 'Reports' });
  await expect(reports).toBeVisible();
  const button = reports.getByRole('button', { name: 'Download PDF' });

  const downloading = page.waitForEvent('download');
  await button.click();
  await expect(reports.getByRole('status')).toContainText(/Generating the PDF report|Saved/);
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(new RegExp(`^record-${recordId}-.*\\.pdf$`));
  const file = await readFile((await download.path())!);
  expect(file.subarray(0, 5).toString()).toBe('%PDF-');
  const text = execFileSync('pdftotext', ['-', '-'], { input: file }).toString();
  expect(text).toContain(`Temperature report: record ${recordId}`);
  expect(text).toContain('Mean kinetic');
  await expect(reports.getByRole('status')).toHaveText(`Saved ${download.suggestedFilename()}`);
  await expect(button).toBeEnabled();
  await expect(reports.getByText(/calibration certificate/i).first()).toBeVisible();

  await expectCardAccessible(page);
});

test('the reports card fits a 375 px phone screen [RULE-REPORT-1]', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/');
  await signIn(page);
  const recordId = await firstSeededRecord(page);
  await page.goto(`/recorddetails/${recordId}`);
  const reports = page.getByRole('region', { name: 'Reports' });
  await reports.scrollIntoViewIfNeeded();
  await expect(reports.getByRole('button', { name: 'Download XLSX' })).toBeVisible();
  await expect(reports.getByText(/calibration certificate/i).first()).toBeVisible();
  const box = await reports.boundingBox();
  expect(box!.width).toBeLessThanOrEqual(375);
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(375);
  await page.waitForTimeout(300);
  const shot = await page.screenshot({ path: test.info().outputPath('reports-card-375.png') });
  await test.info().attach('reports card at 375 px', { body: shot, contentType: 'image/png' });
  if (process.env.REPORTS_SCREENSHOT) await writeFile(process.env.REPORTS_SCREENSHOT, shot);
});
