import { expect, test } from '@playwright/test';
import { apiSignIn, iso, post, xt1Upload } from './api';
import { expectNoAccessibilityViolations, screenshots, signIn } from './fixtures';

/**
 * The calibration lab's signed PDF of a certificate (issue 35's last gap), in
 * Configuration > Calibration: attach it to a certificate, see it listed with
 * its name and date, download it byte for byte, replace it, and download the
 * newer one. Screenshots at 1280 and 375 px (`screenshots`).
 */

const run = Date.now().toString(36);

/** A minimal literal PDF (one empty page), its text varied so two files differ. */
function labPdf(note: string): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
  ];
  let text = `%PDF-1.4\n% ${note}\n`;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(text, 'latin1'));
    text += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(text, 'latin1');
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  text += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(text, 'latin1');
}

test("attaches the lab's PDF to a certificate, lists it, downloads it, replaces it [FEAT-CALIBRATION]", async ({
  page,
  playwright,
}, testInfo) => {
  const serial = `E2E-LABPDF-${run}`;
  const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  try {
    await apiSignIn(api);
    const now = Math.floor(Date.now() / 1000);
    const configured = (await post(api, '/api/devices/xt1/configure-action/', {
      ...xt1Upload(serial, now, 300),
      start_time_seconds: undefined,
      timestamp: iso(now),
    })) as { tag_id: string };
    await post(api, '/api/devices/xt1/calibration/', {
      model_name: 'XT1 NFC MU rev. B',
      calibrated_devices: [
        {
          device_id: Number(configured.tag_id),
          calibration_timestamp: '2026-01-15T09:00:00Z',
          calibration_due: '2027-01-15T09:00:00Z',
        },
      ],
    });
  } finally {
    await api.dispose();
  }

  await page.goto('/configuration?tab=calibration');
  await signIn(page);
  const list = page.getByRole('table', { name: 'Calibration certificates' });
  const row = list.getByRole('row').filter({ hasText: serial });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('link', { name: /^PDF of the certificate/ })).toBeVisible();

  let sent = 0;
  page.on('request', (r) => {
    if (r.url().includes('/api/devices/xt1/calibration/file/')) sent += 1;
  });
  await row.getByRole('button', { name: /^Attach lab PDF of the certificate of/ }).click();
  const dialog = page.getByRole('dialog', { name: `Attach the lab PDF of ${serial}` });
  const input = dialog.getByLabel('Choose PDF');
  // Nothing chosen, then not a PDF: said in the dialog, nothing sent.
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await expect(dialog.getByText('Choose the PDF to attach')).toBeVisible();
  await input.setInputFiles({
    name: 'photo.png',
    mimeType: 'image/png',
    buffer: Buffer.from('png'),
  });
  await expect(dialog.getByText(/^Choose a PDF file/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Upload' }).click();
  expect(sent).toBe(0);
  // A .pdf that is none: the server says so, naming what is wrong.
  await input.setInputFiles({
    name: 'fake.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('GIF89a not a pdf'),
  });
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await expect(dialog.getByText('Not a PDF file: the body must start with %PDF-')).toBeVisible();

  const first = labPdf(`first ${run}`);
  const firstName = `lab-certificate-${run}.pdf`;
  await input.setInputFiles({ name: firstName, mimeType: 'application/pdf', buffer: first });
  await expect(dialog.getByText(`${firstName} (1 kB)`)).toBeVisible();
  await expectNoAccessibilityViolations(page);
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Lab PDF attached to the certificate of ${serial}`)).toBeVisible();
  const labLink = row.getByRole('link', { name: /^Lab PDF of the certificate of/ });
  await expect(labLink).toHaveText(firstName);
  await expect(row).toContainText(/Lab PDF, attached \d\d\/\d\d\/\d{4}/);

  // The link gives the lab's PDF, byte for byte.
  const download = async () => {
    const res = await page.request.get((await labLink.getAttribute('href'))!);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('application/pdf');
    return { body: await res.body(), disposition: res.headers()['content-disposition'] ?? '' };
  };
  const got = await download();
  expect(Buffer.compare(got.body, first)).toBe(0);
  expect(got.disposition).toContain(firstName);

  // Replaced: the newer file is served (the server keeps the older one).
  await row.getByRole('button', { name: /^Replace lab PDF of the certificate of/ }).click();
  const replace = page.getByRole('dialog', { name: `Replace the lab PDF of ${serial}` });
  await expect(replace).toContainText(`Attached now: ${firstName}`);
  await screenshots(page, 'calibration-lab-pdf-dialog');
  const second = labPdf(`second, corrected ${run}`);
  const secondName = `lab-certificate-${run}-corrected.pdf`;
  await replace
    .getByLabel('Choose PDF')
    .setInputFiles({ name: secondName, mimeType: 'application/pdf', buffer: second });
  await replace.getByRole('button', { name: 'Upload' }).click();
  await expect(replace).toBeHidden();
  await expect(page.getByText(`Lab PDF of ${serial} replaced`)).toBeVisible();
  await expect(labLink).toHaveText(secondName);
  const newer = await download();
  expect(Buffer.compare(newer.body, second)).toBe(0);
  await expectNoAccessibilityViolations(page);

  await page.getByRole('alert').getByRole('button', { name: 'Close' }).click();
  // The closed notice leaves the focus on the page, not on the skip link.
  await row.evaluate((r) => r.scrollIntoView({ block: 'center' }));
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await screenshots(page, 'calibration-lab-pdf');
});
