import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiSignIn, iso, patch, post, xt1Upload } from './api';
import { chooseOption, expectNoAccessibilityViolations, signIn } from './fixtures';

/**
 * Data display rules (docs/decisions/data-display-rules.md): the administrator
 * adds an organization-wide rule on the Display rules tab of /configuration
 * (°F, two decimals, Primary reference not shown); the record page, All
 * Records and the home list follow it. The e2e server is shared by every
 * spec, so the rule is put back to neutral (each user's unit, one decimal,
 * every field) through the API afterwards, whatever happened.
 */

const run = Date.now().toString(36);
const SERIAL = `E2E-DR-${run}`;
const REFERENCE = `E2E-DR-REF-${run}`;
const INTERVAL = 600;

interface RuleView {
  id: string;
  role_id: string | null;
  degrees_unit: 'C' | 'F' | null;
  temperature_decimals: number;
  hidden_fields: string[];
}

async function rules(api: APIRequestContext): Promise<{ rules: RuleView[] }> {
  const res = await api.get('/api/data-display-rules/');
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { rules: RuleView[] };
}

/**
 * A record of 5, 8 and 6.25 °C (highest 8 °C: 46.40 °F with two decimals), scanned
 * now: the newest record, so the home list shows it whatever the specs before made.
 */
async function createRecord(api: APIRequestContext): Promise<string> {
  const start = Math.floor(Date.now() / 1000) - 3 * INTERVAL;
  const common = xt1Upload(SERIAL, start, INTERVAL);
  const started = (await post(api, '/api/devices/xt1/start-action/', {
    ...common,
    timestamp: iso(start),
    primary_reference: REFERENCE,
    carrier: 'E2E Display Rules Express',
  })) as { record_id: string };
  await post(api, '/api/devices/xt1/scans/', {
    ...common,
    timestamp: iso(start + 3 * INTERVAL),
    temps: [5, 8, 6.25],
  });
  return started.record_id;
}

async function signInAt(page: Page, path: string, heading: string): Promise<void> {
  await page.goto(path);
  await signIn(page);
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
}

/** Chooses an option of an MUI select (a combobox named by its label). */
async function choose(page: Page, label: string, option: string): Promise<void> {
  await chooseOption(page, page.getByRole('combobox', { name: label }), option);
}

test.describe('data display rules [FEAT-DISPLAY-RULES]', () => {
  let recordId: string;

  test.beforeAll(async ({ playwright }, testInfo) => {
    const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
    try {
      await apiSignIn(api);
      recordId = await createRecord(api);
    } finally {
      await api.dispose();
    }
  });

  // Whatever the test did or where it failed: the organization-wide rule goes back to neutral.
  test.afterAll(async ({ playwright }, testInfo) => {
    const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
    try {
      await apiSignIn(api);
      const everyone = (await rules(api)).rules.find((r) => r.role_id === null);
      if (everyone) {
        const neutral = (await patch(api, '/api/data-display-rules/', {
          rule_id: everyone.id,
          degrees_unit: null,
          temperature_decimals: 1,
          hidden_fields: [],
        })) as RuleView;
        expect(neutral).toMatchObject({
          degrees_unit: null,
          temperature_decimals: 1,
          hidden_fields: [],
        });
      }
    } finally {
      await api.dispose();
    }
  });

  test('an organization-wide rule set on the Display rules tab applies to the screens', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 800 });

    await test.step('before: the admin’s own unit, one decimal, the reference shown', async () => {
      await signInAt(page, `/recorddetails/${recordId}`, `Record ${recordId}`);
      await expect(page.getByText('8.0 °C').first()).toBeVisible();
      await expect(page.getByText(REFERENCE).first()).toBeVisible();
    });

    await test.step('the tab lists the rules; add the rule for everyone', async () => {
      await page.goto('/configuration?tab=display-rules');
      const tab = page.getByRole('tab', { name: 'Display rules' });
      await expect(tab).toHaveAttribute('aria-selected', 'true');
      const section = page.getByRole('region', { name: 'Display rules', exact: true });
      await expect(section).toBeVisible();
      await expect(section.getByText(/No display rules|Everyone/).first()).toBeVisible();
      await expectNoAccessibilityViolations(page);

      // A rerun against the same server finds the rule there already: it is edited instead.
      const existing = section.getByRole('button', { name: 'Edit display rule of Everyone' });
      const editing = (await existing.count()) > 0;
      if (editing) await existing.click();
      else await section.getByRole('button', { name: 'Add rule' }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('combobox', { name: 'Applies to' })).toHaveText('Everyone');
      await choose(page, 'Temperature unit', '°F');
      await choose(page, 'Decimals', '2');
      await expect(dialog.getByText('Temperatures like 4.55 °C')).toBeVisible();
      await dialog.getByRole('checkbox', { name: 'Primary reference' }).check();
      await expectNoAccessibilityViolations(page);

      await page.setViewportSize({ width: 375, height: 740 });
      await expect(dialog.getByRole('checkbox', { name: 'Primary reference' })).toBeChecked();
      await expectNoAccessibilityViolations(page);

      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByText('Display rule of Everyone saved')).toBeVisible();
      const row = section.getByRole('row').filter({ hasText: 'Everyone' });
      await expect(row).toContainText('°F');
      await expect(row).toContainText('Primary reference');
      await expect(row.getByRole('cell', { name: '2', exact: true })).toBeVisible();
      await expectNoAccessibilityViolations(page);
      await page.setViewportSize({ width: 1280, height: 800 });
    });

    await test.step('the server holds it', async () => {
      const reply = (await (await page.request.get('/api/data-display-rules/')).json()) as {
        effective: RuleView | null;
      };
      expect(reply.effective).toMatchObject({
        role_id: null,
        degrees_unit: 'F',
        temperature_decimals: 2,
        hidden_fields: ['primary_reference'],
      });
    });

    await test.step('the record page follows it', async () => {
      await page.goto(`/recorddetails/${recordId}`);
      const summary = page.getByRole('definition').filter({ hasText: '46.40 °F' });
      await expect(summary.first()).toBeVisible();
      await expect(page.getByText('41.00 °F').first()).toBeVisible();
      await expect(page.getByText('35.60 °F to 46.40 °F')).toBeVisible();
      await expect(page.getByText('8.0 °C')).toHaveCount(0);
      const details = page.getByRole('region', { name: 'Shipment details' });
      await expect(details.getByText('E2E Display Rules Express')).toBeVisible();
      await expect(details.getByText('Primary reference')).toHaveCount(0);
      await expect(page.getByText(REFERENCE)).toHaveCount(0);
    });

    await test.step('All Records follows it', async () => {
      const filter = { field: 'tag_serial_number', operator: 'contains', value: SERIAL };
      await page.goto(`/allrecords?filterItems=${encodeURIComponent(JSON.stringify(filter))}`);
      await expect(page.getByRole('heading', { name: 'All Records', level: 1 })).toBeVisible();
      const row = page.getByRole('grid').locator('[role="row"][data-id]');
      await expect(row).toHaveCount(1);
      await expect(row).toContainText('46.40 °F');
      await expect(row).toContainText('41.00 °F');
      await expect(page.getByRole('columnheader', { name: 'Tag serial' })).toBeVisible();
      await expect(page.getByRole('columnheader', { name: 'Primary ref.' })).toHaveCount(0);
      await expect(page.getByText(REFERENCE)).toHaveCount(0);
    });

    await test.step('the home list follows it', async () => {
      await page.goto('/');
      const list = page.getByRole('list', { name: 'Latest records' });
      const item = list.getByRole('link').filter({ hasText: SERIAL });
      await expect(item).toBeVisible();
      await expect(item).not.toContainText(REFERENCE);
      await expect(item).not.toContainText('No primary reference');
      // The last temperature, 6.25 °C.
      await expect(item).toContainText('43.25 °F');
    });
  });
});
