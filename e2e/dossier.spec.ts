import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './fixtures';

/**
 * The signed dossier (issue 37 item 2): downloaded from the record page as a
 * user does, checked by the offline verifier (a plain Node script, run here
 * as a user would, with the key the server publishes), then altered byte by
 * byte in the series, the signature and the PDF: refused each time, naming
 * the file.
 */

const VERIFIER = path.resolve('tools/verify-dossier/verify-dossier.mjs');

interface Verdict {
  ok: boolean;
  problems: { file: string; message: string }[];
}

async function verify(
  bytes: Buffer,
  ...args: string[]
): Promise<{ status: number; verdict: Verdict }> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'dossier-e2e-')), 'dossier.zip');
  await writeFile(file, bytes);
  const run = spawnSync(process.execPath, [VERIFIER, file, '--json', ...args]);
  expect([0, 1], run.stderr.toString()).toContain(run.status);
  return { status: run.status!, verdict: JSON.parse(run.stdout.toString()) as Verdict };
}

/** Where a zip member's stored bytes lie: after its local header (`PK\x03\x04`, 30 bytes, name, extra). */
function memberData(zip: Buffer, name: string): { start: number; end: number } {
  let at = 0;
  for (;;) {
    at = zip.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]), at);
    if (at < 0) throw new Error(`${name} is not in the zip`);
    const nameLength = zip.readUInt16LE(at + 26);
    if (zip.toString('utf8', at + 30, at + 30 + nameLength) === name) {
      const start = at + 30 + nameLength + zip.readUInt16LE(at + 28);
      return { start, end: start + zip.readUInt32LE(at + 18) };
    }
    at += 4;
  }
}

async function firstSeededRecord(page: Page): Promise<string> {
  const res = await page.request.get('/api/devices/xt1/records/?page_size=1&page_number=1');
  expect(res.ok(), await res.text()).toBe(true);
  const records = (await res.json()) as { id: string }[];
  return records[0]!.id;
}

test('a dossier downloaded from the record page verifies offline, and a changed byte is refused [FEAT-DOSSIER]', async ({
  page,
}) => {
  await page.goto('/');
  await signIn(page);
  const recordId = await firstSeededRecord(page);
  await page.goto(`/recorddetails/${recordId}`);
  const reports = page.getByRole('region', { name: 'Reports' });
  const button = reports.getByRole('button', { name: 'Signed dossier (ZIP)' });
  await expect(button).toBeVisible();
  await expect(button).toHaveAccessibleDescription(/anyone can check it without Coldtrace/);

  const downloading = page.waitForEvent('download');
  await button.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(new RegExp(`^record-${recordId}-.*-dossier\\.zip$`));
  await expect(reports.getByRole('status')).toHaveText(`Saved ${download.suggestedFilename()}`);
  const zip = await readFile((await download.path())!);

  // The organization's key, as published; the dossier names its organization.
  const manifest = memberData(zip, 'manifest.json');
  const manifestText = inflateRawSync(zip.subarray(manifest.start, manifest.end)).toString('utf8');
  const { organization } = JSON.parse(manifestText) as {
    organization: { id: string };
  };
  const key = await page.request.get(`/api/evidence/key/?organization_id=${organization.id}`);
  const { public_key } = (await key.json()) as { public_key: string };
  const untouched = await verify(zip, '--key', public_key);
  expect(untouched.verdict.problems).toEqual([]);
  expect(untouched.status).toBe(0);

  for (const name of ['series.csv', 'manifest.sig', 'report.pdf']) {
    const { start, end } = memberData(zip, name);
    const altered = Buffer.from(zip);
    const at = Math.floor((start + end) / 2);
    altered[at] = altered[at]! ^ 0x20;
    const { status, verdict } = await verify(altered, '--key', public_key);
    expect(status, name).toBe(1);
    expect(verdict.problems.map((p) => p.file)).toContain(name);
  }

  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await reports.scrollIntoViewIfNeeded();
    await reports.screenshot({ path: `test-results/screens/dossier-reports-card-${width}.png` });
  }
});
