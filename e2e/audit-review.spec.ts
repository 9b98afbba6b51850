import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiSignIn, getJson, iso, patch, post, xt1Upload } from './api';
import { createUserInDb, withDatabaseSuperuser, type E2eUser } from './accounts-db';
import { expectNoAccessibilityViolations, openSettingsItem, screenshots, signIn } from './fixtures';

/**
 * The audit-trail review page (issue 37 item 6; docs/decisions/audit-review.md),
 * as an administrator of the second demo organization (no simulator runs there):
 * a threshold changed on a shipment still in transit is ranked high with its
 * reason; it is marked reviewed with a comment and the mark shows; the current
 * month cannot be closed (the server's refusal shows in words). A past month
 * with entries cannot be made through the app (the database stamps every audit
 * entry with now()), so two are written into last month as the database owner
 * with only that stamp trigger off (the evidence chain still records them);
 * that month is refused while its high-risk entry is unmarked, then marked and
 * closed with a signature. Someone without user administration sees no link
 * and the page says so.
 */

const run = Date.now().toString(36);
const serial = `E2EAR${run}`.toUpperCase();
/** The reviewer's zone, so the times shown can be told from UTC. */
const ZONE = 'Asia/Tokyo';

const monthName = (period: string) => {
  const [y, m] = period.split('-').map(Number) as [number, number];
  return new Intl.DateTimeFormat('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(y, m - 1, 1)));
};

interface PeriodSummary {
  period: string;
  state: string;
}

test.describe('audit-trail review page [FEAT-AUDIT-REVIEW]', () => {
  let admin: E2eUser;
  let recordId: string;
  let thisMonth: string;
  let pastMonth: string;
  let orgId: string;

  test.beforeAll(async ({ playwright }, testInfo) => {
    admin = await createUserInDb({ organization: 'Demo Pharma Logistics', role: 'Administrator' });
    const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL! });
    try {
      await apiSignIn(api, admin);
      await patch(api, '/api/auth/user-settings/', { timezone: ZONE });
      // A shipment in transit whose high threshold is then raised: ranked high.
      const start = Math.floor(Date.now() / 1000) - 1800;
      const started = (await post(api, '/api/devices/xt1/start-action/', {
        ...xt1Upload(serial, start, 60),
        timestamp: iso(start),
      })) as { record_id: string };
      recordId = started.record_id;
      await post(api, '/api/devices/xt1/scans/', {
        ...xt1Upload(serial, start, 60),
        timestamp: iso(start + 600),
        temps: [5, 5, 5, 5, 5],
      });
      await post(api, '/api/devices/xt1/update-shipment-action/', {
        record_id: recordId,
        high_threshold: 9.5,
      });

      orgId = (await getJson<{ last_session_org_id: string }>(api, '/api/auth/session/'))
        .last_session_org_id;
      // No month before the organization existed is due: as if it was created 3 months ago.
      await withDatabaseSuperuser((db) =>
        db.query(`UPDATE organizations SET created = now() - interval '3 months' WHERE id = $1`, [
          orgId,
        ]),
      );
      const periods = await getJson<PeriodSummary[]>(api, '/api/audit/reviews/');
      thisMonth = periods[0]!.period;
      pastMonth = periods.find((p) => p.state === 'due' || p.state === 'overdue')!.period;
    } finally {
      await api.dispose();
    }
  });

  /**
   * Two entries of last month, as the database owner: the trail's stamp (now()) off
   * inside this one transaction; the evidence trigger still chains them.
   */
  async function entriesOfLastMonth(): Promise<void> {
    await withDatabaseSuperuser(async (db) => {
      await db.query('BEGIN');
      await db.query('ALTER TABLE audit_events DISABLE TRIGGER audit_events_stamp');
      await db.query(
        `INSERT INTO audit_events (organization_id, occurred_at, actor_user_id, actor_name,
           actor_email, client_type, action, entity_type, entity_id, field, old_value,
           new_value, reason)
         VALUES ($1, $2, $3::uuid, 'Erin Tester', $4, 'WEB', 'signature.failure', 'user', $3::text,
                 NULL, NULL, NULL, $7),
                ($1, $5, $3::uuid, 'Erin Tester', $4, 'WEB', 'product.update', 'product', $6,
                 'high_threshold', '8', '9', NULL)`,
        [
          orgId,
          `${pastMonth}-15T10:00:00Z`,
          admin.id,
          admin.email,
          `${pastMonth}-14T09:00:00Z`,
          `e2e-${run}`,
          `The password is not correct. (${run})`,
        ],
      );
      await db.query('ALTER TABLE audit_events ENABLE TRIGGER audit_events_stamp');
      await db.query('COMMIT');
    });
  }

  async function openReview(page: Page): Promise<void> {
    await page.goto('/login');
    await signIn(page, admin);
    await openSettingsItem(page, 'Audit Trail Review');
    await expect(page).toHaveURL(/\/audit-review(\?period=\d{4}-\d\d)?$/);
    await expect(page.getByRole('heading', { name: 'Audit Trail Review', level: 1 })).toBeVisible();
  }

  const months = (page: Page) => page.getByRole('navigation', { name: 'Months' });
  const monthButton = (page: Page, period: string) =>
    months(page).getByRole('button', { name: new RegExp(`^${monthName(period)}`) });
  const entriesOf = (page: Page, period: string) =>
    page.getByRole('list', { name: `Entries of ${monthName(period)}` });

  async function fillSignature(dialog: Locator, comment: string, password: string) {
    await dialog.getByRole('textbox', { name: 'Comment' }).fill(comment);
    await dialog.getByLabel('Password', { exact: false }).fill(password);
  }

  test('this month: entries ranked by risk with the reason, one marked with a comment; closing refused until the month ends', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await openReview(page);
    // The page opens on the month waiting for its review (last month), marked as such in words.
    await expect(monthButton(page, pastMonth)).toHaveAttribute('aria-current', 'page');
    await expect(monthButton(page, pastMonth)).toContainText(/Due|Overdue/);
    await expect(monthButton(page, thisMonth)).toContainText(
      'In progress: the month has not ended',
    );
    await expect(page.getByTestId('time-zone-note')).toContainText('Times in Asia/Tokyo');

    await monthButton(page, thisMonth).click();
    await expect(page).toHaveURL(new RegExp(`period=${thisMonth}`));
    const review = page.getByRole('region', { name: `Review of ${monthName(thisMonth)}` });
    await expect(review.getByRole('heading', { name: monthName(thisMonth) })).toBeVisible();
    const entries = entriesOf(page, thisMonth);
    const limitChange = entries
      .getByRole('listitem')
      .filter({ hasText: `Record ${recordId}` })
      .filter({ hasText: 'High threshold' });
    await expect(limitChange).toContainText('High risk');
    await expect(limitChange).toContainText(
      'Why high risk: Threshold or budget changed while the shipment was active',
    );
    await expect(limitChange).toContainText('Erin Tester');
    // Ranked: the high-risk entries come first.
    await expect(entries.getByRole('listitem').first()).toContainText('High risk');

    // The filter by risk: only high-risk entries, in the URL.
    await review.getByRole('button', { name: /^High \(\d+\)$/ }).click();
    await expect(page).toHaveURL(/risk=high/);
    await expect(limitChange).toBeVisible();
    await expect(entries.getByRole('listitem').filter({ hasText: 'Low risk' })).toHaveCount(0);
    await review.getByRole('button', { name: /^Low \(\d+\)$/ }).click();
    await expect(page).toHaveURL(/risk=low/);
    await expect(limitChange).toHaveCount(0);
    await review.getByRole('button', { name: /^All \(\d+\)$/ }).click();
    await expect(limitChange).toBeVisible();
    await expectNoAccessibilityViolations(page);
    await screenshots(page, 'audit-review-month');

    // Mark the entry reviewed with a comment.
    await limitChange.getByRole('button', { name: /^Mark reviewed/ }).click();
    const markDialog = page.getByRole('dialog', { name: 'Mark entry reviewed' });
    await expect(markDialog).toContainText('High risk: Shipment details changed by Erin Tester');
    const mark = markDialog.getByRole('button', { name: 'Mark reviewed' });
    await expect(mark).toBeDisabled();
    const comment = `Raised with the shipper's agreement (${run})`;
    await markDialog.getByRole('textbox', { name: 'Comment' }).fill(comment);
    await expectNoAccessibilityViolations(page);
    await screenshots(page, 'audit-review-mark-dialog');
    await mark.click();
    await expect(markDialog).toHaveCount(0);
    await expect(limitChange).toContainText(/Reviewed by Erin Tester on \d\d\/\d\d\/\d{4}/);
    await expect(limitChange).toContainText(comment);
    await expect(limitChange.getByRole('button', { name: /^Mark reviewed/ })).toHaveCount(0);

    // Closing: the month has not ended; the server refuses, in words.
    await review.getByRole('button', { name: 'Close review' }).click();
    const closeDialog = page.getByRole('dialog', {
      name: `Close the review of ${monthName(thisMonth)}`,
    });
    await expect(closeDialog).toContainText(`${monthName(thisMonth)} has not ended`);
    await fillSignature(closeDialog, 'Too early', admin.password);
    await expectNoAccessibilityViolations(page);
    await closeDialog.getByRole('button', { name: 'Sign and close' }).click();
    await expect(closeDialog.getByRole('alert')).toHaveText(
      `Could not close the review: ${thisMonth} has not ended yet; review it once it has. (Month: not ended)`,
    );
    await closeDialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(review.getByRole('button', { name: 'Close review' })).toBeVisible();
  });

  test('last month: refused while its high-risk entry is unmarked, then marked and closed with a signature', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await entriesOfLastMonth();
    await openReview(page);
    const name = monthName(pastMonth);
    const review = page.getByRole('region', { name: `Review of ${name}` });
    const entries = entriesOf(page, pastMonth);
    const failure = entries.getByRole('listitem').filter({ hasText: `(${run})` });
    await expect(failure).toContainText('High risk');
    await expect(failure).toContainText('Why high risk: Failed signature or second factor');
    // Written at 10:00 UTC: 19:00 in Tokyo, the reviewer's zone.
    const [y, m] = pastMonth.split('-');
    await expect(failure).toContainText(`Erin Tester · ${m}/15/${y}, 19:00:00`);
    const limits = entries.getByRole('listitem').filter({ hasText: 'High threshold' }).first();
    await expect(limits).toContainText('Medium risk');
    await expect(limits).toContainText("A product's limits or budget changed");
    await expect(entries.getByRole('listitem').first()).toContainText('Signature failure');

    // Refused: the high-risk entry is not reviewed.
    await review.getByRole('button', { name: 'Close review' }).click();
    const closeDialog = page.getByRole('dialog', { name: `Close the review of ${name}` });
    await expect(closeDialog).toContainText('1 high-risk entry is not reviewed yet');
    await fillSignature(closeDialog, 'Month reviewed', admin.password);
    await closeDialog.getByRole('button', { name: 'Sign and close' }).click();
    await expect(closeDialog.getByRole('alert')).toHaveText(
      `Could not close the review: 1 high-risk entries of ${pastMonth} are not reviewed yet. (Month: high-risk entries not reviewed)`,
    );
    await closeDialog.getByRole('button', { name: 'Cancel' }).click();

    // Every entry shown marked at once.
    await review.getByRole('button', { name: /^Mark all \d+ shown reviewed$/ }).click();
    const markDialog = page.getByRole('dialog', { name: /^Mark \d+ entries reviewed$/ });
    await markDialog.getByRole('textbox', { name: 'Comment' }).fill('Checked with Erin');
    await markDialog.getByRole('button', { name: 'Mark reviewed' }).click();
    await expect(markDialog).toHaveCount(0);
    await expect(failure).toContainText('Reviewed by Erin Tester');
    await expect(limits).toContainText('Checked with Erin');

    // A wrong password shows on its field; the right one closes the month.
    await review.getByRole('button', { name: 'Close review' }).click();
    await expect(closeDialog).not.toContainText('not reviewed yet');
    await fillSignature(closeDialog, 'Month reviewed', 'not my password');
    await closeDialog.getByRole('button', { name: 'Sign and close' }).click();
    await expect(closeDialog.getByText('The password is not correct.')).toBeVisible();
    await expect(closeDialog.getByRole('alert')).toHaveCount(0);
    await closeDialog.getByLabel('Password', { exact: false }).fill(admin.password);
    await expect(closeDialog.getByText('The password is not correct.')).toHaveCount(0);
    await expectNoAccessibilityViolations(page);
    await screenshots(page, 'audit-review-close-dialog');
    await closeDialog.getByRole('button', { name: 'Sign and close' }).click();
    await expect(closeDialog).toHaveCount(0);
    await expect(review).toContainText(/Closed by Erin Tester on \d\d\/\d\d\/\d{4}/);
    await expect(review).toContainText('Signed as Reviewed: Month reviewed.');
    await expect(review.getByRole('button', { name: 'Close review' })).toHaveCount(0);
    await expect(failure.getByRole('button', { name: /^Mark reviewed/ })).toHaveCount(0);
    await expect(monthButton(page, pastMonth)).toContainText('Closed by Erin Tester');
    await expectNoAccessibilityViolations(page);
    await screenshots(page, 'audit-review-closed');
  });

  test('someone without user administration sees no link, and the page says it is not theirs [SPEC-6.1]', async ({
    page,
  }) => {
    const viewer = await createUserInDb();
    await page.goto('/login');
    await signIn(page, viewer);
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(page.getByRole('menuitem', { name: 'View Profile' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Audit Trail Review' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await page.goto('/audit-review');
    await expect(page.getByRole('heading', { name: 'Audit Trail Review', level: 1 })).toBeVisible();
    await expect(
      page.getByText(
        'The audit trail is reviewed by the user administrators of this organization.',
      ),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to the dashboard' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Months' })).toHaveCount(0);
    await expectNoAccessibilityViolations(page);
  });
});
