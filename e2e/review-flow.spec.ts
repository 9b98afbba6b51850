import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { formatDateTime } from '@coldtrace/domain';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { apiSignIn, csrfToken, getJson, patch, post } from './api';
import { chooseOption, E2E_ADMIN, signIn } from './fixtures';
import {
  bellButton,
  deviceToken,
  packet,
  rt,
  RT_INTERVAL,
  runningRecord,
  summaryValue,
} from './rt';

/**
 * The whole review flow of issue 14 ("Done when"), one shipment as a quality
 * manager meets it: a running real-time shipment with a product and a
 * shipping reference; its record page is open when a packet with an
 * excursion arrives; within 15 s (the page and the bell poll every 10 s, the
 * product's own interval) the page shows the alarm and the bell the entry
 * with its kind and time; the user acknowledges it with a signature; All
 * Records' Review state filter moves the shipment from Awaiting
 * acknowledgement to Awaiting decision; the Stability budget card shows the
 * minutes consumed; the user releases the shipment with a signature; the
 * PDF's verdict names the decision, who and when.
 *
 * Screenshots at 1280 and 375 px of the record page with the decision and of
 * All Records filtered go to /tmp/flow-shots (not committed).
 */

const run = Date.now().toString(36);
const serial = `E2E-FLOW-${run}`;
const PRODUCT = `Flow vaccine ${run}`;
const SHIPPING = `SHIP-FLOW-${run}`;
const REFERENCE = `PO-FLOW-${run}`;
const ACK_COMMENT = `Excursion checked with the carrier (${run})`;
const RELEASE_COMMENT = `Within the stability data (${run}): released`;
/** The budget bands (issue 14 item 3's example, without the 0-minute band: used up, it would alarm). */
const BUDGET = [
  { direction: 'ABOVE', limit: 8, allowed_minutes: 720 },
  { direction: 'ABOVE', limit: 25, allowed_minutes: 60 },
] as const;
/** Points 20-24 of the run: three above 8 °C. */
const EXCURSION = [5, 9.5, 10.5, 9.8, 5.2];
/** The product's promise (issue 14 item 6): new data shows within 15 s. */
const LIVE_WITHIN = { timeout: 15_000 };
const SHOTS = '/tmp/flow-shots';

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: false });
}

/** Scrolls `target` to the top of the view, below the app bar. */
async function showFromTop(page: Page, target: Locator): Promise<void> {
  await target.evaluate((el) => {
    el.scrollIntoView({ block: 'start' });
    window.scrollBy(0, -80);
  });
}

/**
 * The product, with its stability budget when the server keeps one (the
 * budget is being built beside this test): answers whether it does, that is
 * whether the product definition POST accepts `stability_budget` and the GET
 * answers it back.
 */
async function createProduct(api: APIRequestContext): Promise<boolean> {
  const body = { product_name: PRODUCT, high_threshold: 8, low_threshold: 2 };
  const res = await api.post('/api/products/product-definitions/', {
    data: { ...body, stability_budget: BUDGET },
    headers: { 'X-CSRFToken': await csrfToken(api) },
  });
  if (res.status() !== 200) {
    const text = await res.text();
    expect(res.status(), text).toBe(400);
    expect(text).toContain('stability_budget');
    await post(api, '/api/products/product-definitions/', body);
    return false;
  }
  const products = await getJson<{ product_name?: string; stability_budget?: unknown }[]>(
    api,
    '/api/products/product-definitions/',
  );
  const ours = products.find((p) => p.product_name === PRODUCT);
  return Array.isArray(ours?.stability_budget) && ours.stability_budget.length > 0;
}

/** `MM/DD/YYYY, HH:MM:SS` in `timeZone`: how the PDF writes a time. */
function pdfTime(iso: string, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.month}/${parts.day}/${parts.year}, ${parts.hour}:${parts.minute}:${parts.second}`;
}

interface AlarmReply {
  id: string;
  start_time?: string;
}
interface BandUsage {
  direction: string;
  limit: number;
  allowed_minutes: number;
  consumed_minutes: number;
  remaining_minutes: number;
}
interface RecordReply {
  disposition?: { decision: string; signed_by: string; signed_at: string } | null;
  /** The bands summed across the legs (docs/decisions/stability-budget.md). */
  stability_budget?:
    | { shipping_reference?: string | null; legs?: { record_id: string }[]; bands: BandUsage[] }
    | BandUsage[]
    | null;
}

/** The record reply's bands, whichever shape the budget answers (an object with bands, or the list). */
function budgetBands(record: RecordReply): BandUsage[] {
  const budget = record.stability_budget;
  if (!budget) return [];
  return Array.isArray(budget) ? budget : budget.bands;
}

test.describe('the review flow [FEAT-REVIEW-QUEUE, RULE-AUDIT-4]', () => {
  let api: APIRequestContext;
  let token: string;
  let budgetKept = false;
  let timeZone = 'UTC';

  test.beforeAll(async ({ playwright }, testInfo) => {
    api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
    await apiSignIn(api);
    // The bell lists the alarms of any scan of the organization (the admin's own uploads too).
    await patch(api, '/api/auth/user-org-settings/', {
      alarm_notify_my_scans: true,
      alarm_notify_any_scans: true,
    });
    token = await deviceToken(api, `e2e flow ${run}`);
    budgetKept = await createProduct(api);
    const session = JSON.stringify(await getJson<unknown>(api, '/api/auth/session/'));
    timeZone = /"timezone":"([^"]+)"/.exec(session)?.[1] ?? 'UTC';
  });
  test.afterAll(async () => {
    await api.dispose();
  });

  test('an excursion arrives while the page is open, is acknowledged, reviewed, budgeted, released and reported', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const { start, recordId } = await runningRecord(api, token, serial);
    await post(api, '/api/devices/xt1/update-shipment-action/', {
      record_id: recordId,
      primary_reference: REFERENCE,
      shipping_reference: SHIPPING,
      product_designation: PRODUCT,
    });

    await page.goto('/login');
    await signIn(page);
    await page.goto(`/recorddetails/${recordId}`);
    await expect(summaryValue(page, 'Points')).toHaveText('20');
    const alarms = page.getByRole('region', { name: 'Alarms' });
    const decision = page.getByRole('region', { name: 'Release decision' });
    const menu = page.getByRole('dialog', { name: 'Notifications' });
    const entry = menu.getByRole('link', { name: `Record ${recordId} has an alarm` });

    await test.step('an excursion arrives while the page is open: the page and the bell show it within 15 s', async () => {
      const bellBefore = (await bellButton(page).getAttribute('aria-label')) ?? '';
      const sent = Date.now();
      await packet(api, token, serial, start, 20, EXCURSION);
      await expect(summaryValue(page, 'Highest')).toHaveText('10.5 °C', LIVE_WITHIN);
      await expect(alarms.getByRole('button', { name: 'Acknowledge', exact: true })).toBeVisible(
        LIVE_WITHIN,
      );
      const pageShown = Date.now() - sent;
      await expect(bellButton(page)).not.toHaveAccessibleName(bellBefore, {
        timeout: Math.max(1_000, 15_000 - (Date.now() - sent)),
      });
      const bellShown = Date.now() - sent;
      test.info().annotations.push({
        type: 'measured',
        description: `after the packet: the page showed the alarm in ${pageShown} ms, the bell in ${bellShown} ms`,
      });

      // The bell: its kind and direction, its time (the user's zone) and the reference.
      const [alarm] = await getJson<AlarmReply[]>(
        api,
        `/api/devices/xt1/alarms/?record_id=${recordId}`,
      );
      expect(alarm?.start_time).toBeTruthy();
      // The first point above 8 °C: point 21 of the run.
      expect(Date.parse(alarm!.start_time!) / 1000).toBe(start + 21 * RT_INTERVAL);
      await bellButton(page).click();
      await expect(entry).toContainText('High temperature: above 8.0 °C');
      await expect(entry).toContainText(formatDateTime(alarm!.start_time!, timeZone));
      await expect(entry).toContainText(`Reference ${REFERENCE}`);
      await page.waitForTimeout(300); // the menu fades in
      await shoot(page, 'flow-bell-1280');
      await page.keyboard.press('Escape');
    });

    await test.step('All Records, Needs review: the shipment awaits acknowledgement', async () => {
      await page.goto('/allrecords?review_state=NEEDS_REVIEW');
      const row = page.getByRole('row').filter({ hasText: serial });
      await expect(row).toHaveCount(1);
      await expect(row.locator('[role="gridcell"][data-field="review_state"]')).toHaveText(
        'Awaiting acknowledgement',
      );
      await shoot(page, 'flow-queue-awaiting-ack-1280');
    });

    await test.step('acknowledge in the record page with a signature (meaning and password)', async () => {
      await page.goto(`/recorddetails/${recordId}`);
      await alarms.getByRole('button', { name: 'Acknowledge', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Acknowledge alarm' });
      const sign = dialog.getByRole('button', { name: 'Sign and acknowledge' });
      await expect(sign).toBeDisabled();
      await dialog.getByRole('radio', { name: 'Reviewed' }).check();
      await dialog.getByLabel('Comment').fill(ACK_COMMENT);
      await dialog.getByLabel('Password').fill(E2E_ADMIN.password);
      await sign.click();
      await expect(dialog).toBeHidden();
      const signature = alarms.getByTestId('alarm-signature');
      await expect(signature).toHaveCount(1);
      await expect(signature).toContainText(/^Signed by .+ on .+ — Reviewed: /);
      await expect(signature).toContainText(ACK_COMMENT);
      // Acknowledged: out of the bell.
      await page.reload();
      await bellButton(page).click();
      await expect(menu).toBeVisible();
      await expect(entry).toHaveCount(0);
      await page.keyboard.press('Escape');
    });

    await test.step('the review filter: no longer awaiting acknowledgement, now awaiting a decision', async () => {
      await page.goto('/allrecords');
      const reviewState = page.getByRole('combobox', { name: 'Review state' });
      const row = page.getByRole('row').filter({ hasText: serial });
      await chooseOption(page, reviewState, 'Awaiting acknowledgement');
      await expect(page).toHaveURL(/review_state=AWAITING_ACKNOWLEDGEMENT/);
      await expect(page.getByRole('group', { name: 'Filters' })).toContainText(
        'Review state is Awaiting acknowledgement',
      );
      await expect(row).toHaveCount(0);
      await chooseOption(page, reviewState, 'Awaiting decision');
      await expect(page).toHaveURL(/review_state=AWAITING_DECISION/);
      await expect(row).toHaveCount(1);
      await expect(row.locator('[role="gridcell"][data-field="review_state"]')).toHaveText(
        'Awaiting decision',
      );
      // Still in the Needs review queue (a decision is due).
      await chooseOption(page, reviewState, 'Needs review (acknowledgement or decision)');
      await expect(row).toHaveCount(1);
      await shoot(page, 'flow-queue-awaiting-decision-1280');
    });

    // The stability budget (issue 14 item 3) is being built beside this test:
    // skipped only while the server does not keep a product's stability_budget.
    await test.step('budget bar: the consumed minutes of each band', async (step) => {
      step.skip(
        !budgetKept,
        'the server does not keep stability_budget on a product definition yet',
      );
      const record = await getJson<RecordReply>(
        api,
        `/api/devices/xt1/record/?record_id=${recordId}`,
      );
      const bands = budgetBands(record);
      const band = (limit: number) =>
        bands.find((b) => b.direction === 'ABOVE' && b.limit === limit);
      expect(bands).toHaveLength(BUDGET.length);
      if (!Array.isArray(record.stability_budget) && record.stability_budget?.legs) {
        // One leg so far: this record, under its shipping reference.
        expect(record.stability_budget.shipping_reference).toBe(SHIPPING);
        expect(record.stability_budget.legs.map((l) => l.record_id)).toEqual([recordId]);
      }
      const above8 = band(8)!;
      expect(above8.allowed_minutes).toBe(720);
      // Three points above 8 °C, a minute apart: a few minutes consumed, far from the 720 allowed.
      expect(above8.consumed_minutes).toBeGreaterThan(0);
      expect(above8.consumed_minutes).toBeLessThan(10);
      expect(above8.remaining_minutes).toBe(above8.allowed_minutes - above8.consumed_minutes);
      expect(band(25)!.consumed_minutes).toBe(0);
      await page.goto(`/recorddetails/${recordId}`);
      const card = page.getByRole('region', { name: 'Stability budget' });
      await expect(card).toBeVisible();
      await card.scrollIntoViewIfNeeded();
      await expect(card).toContainText(`${PRODUCT} · shipment ${SHIPPING} · 1 leg`);
      // A bar per band, named by what it shows: the consumed minutes of the allowance.
      await expect(card.getByRole('progressbar')).toHaveCount(BUDGET.length);
      await expect(
        card.getByRole('progressbar', {
          name: `Above 8.0 °C: ${above8.consumed_minutes} min of 12h used`,
        }),
      ).toBeVisible();
      await expect(
        card.getByRole('progressbar', { name: 'Above 25.0 °C: 0 min of 1h used' }),
      ).toBeVisible();
      await shoot(page, 'flow-budget-1280');
      await page.setViewportSize({ width: 375, height: 812 });
      await card.scrollIntoViewIfNeeded();
      await shoot(page, 'flow-budget-375');
      await page.setViewportSize({ width: 1280, height: 800 });
    });

    await test.step('release the shipment on the record page with a signature', async () => {
      // The shipment is stopped first: a trip that has not ended is not released (issue 35).
      await rt(api, token, 'stop-action/', {
        tag_id: serial,
        start_time_seconds: start,
        stop_time_seconds: Math.floor(Date.now() / 1000),
      });
      await page.goto(`/recorddetails/${recordId}`);
      await decision.getByRole('button', { name: 'Decide' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign a release decision' });
      // Every alarm is acknowledged and the trip has ended: Release may be chosen.
      await dialog.getByRole('radio', { name: 'Release' }).check();
      await expect(dialog.getByText('Signed as approval')).toBeVisible();
      await dialog.getByLabel('Comment').fill(RELEASE_COMMENT);
      await dialog.getByLabel('Password').fill(E2E_ADMIN.password);
      await dialog.getByRole('button', { name: 'Sign decision' }).click();
      await expect(dialog).toBeHidden();
      const current = decision.getByRole('group', { name: 'Current decision' });
      await expect(current.getByText('Released', { exact: true })).toBeVisible();
      await expect(current).toContainText(/Signed by .+ · Approved/);
      await expect(current).toContainText(RELEASE_COMMENT);
      // The decision at the top of the view, the budget card under it.
      await showFromTop(page, decision);
      await shoot(page, 'flow-record-decision-1280');
      await page.setViewportSize({ width: 375, height: 812 });
      await showFromTop(page, decision);
      await shoot(page, 'flow-record-decision-375');
      await page.setViewportSize({ width: 1280, height: 800 });
    });

    await test.step('the PDF verdict names the decision, who and when', async () => {
      const record = await getJson<RecordReply>(
        api,
        `/api/devices/xt1/record/?record_id=${recordId}`,
      );
      const signed = record.disposition;
      expect(signed?.decision).toBe('RELEASED');
      const reports = page.getByRole('region', { name: 'Reports' });
      await reports.scrollIntoViewIfNeeded();
      const downloading = page.waitForEvent('download');
      await reports.getByRole('button', { name: 'Download PDF' }).click();
      const file = await readFile((await (await downloading).path())!);
      const text = execFileSync('pdftotext', ['-', '-'], { input: file })
        .toString()
        .replace(/\s+/g, ' ');
      const verdict = text.slice(text.lastIndexOf('Verdict'));
      expect(verdict).toContain('Release decision: Released');
      expect(verdict).toContain(`Decision signed by: ${signed!.signed_by}`);
      expect(verdict).toContain(`Decision signed at: ${pdfTime(signed!.signed_at, timeZone)}`);
      expect(verdict).toContain('Decision signature meaning: Approved');
      expect(verdict).toContain(`Decision comment: ${RELEASE_COMMENT}`);
    });

    await test.step('All Records, Released: the shipment, at 1280 and 375 px', async () => {
      await page.goto('/allrecords?review_state=RELEASED');
      const row = page.getByRole('row').filter({ hasText: serial });
      await expect(row).toHaveCount(1);
      await expect(row.locator('[role="gridcell"][data-field="review_state"]')).toHaveText(
        'Released',
      );
      await expect(page.getByRole('group', { name: 'Filters' })).toContainText(
        'Review state is Released',
      );
      await shoot(page, 'flow-queue-released-1280');
      await page.setViewportSize({ width: 375, height: 812 });
      await expect(row).toHaveCount(1);
      await shoot(page, 'flow-queue-released-375');
    });
  });
});
