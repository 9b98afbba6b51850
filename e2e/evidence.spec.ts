import { expect, test, type Page } from '@playwright/test';
import { createUserInDb, withDatabaseSuperuser } from './accounts-db';
import { expectNoAccessibilityViolations, screenshots, signIn } from './fixtures';

/**
 * Configuration > Evidence (issue 37; docs/decisions/evidence-chain.md): an
 * administrator verifies the organization's evidence chain; a record's highest
 * temperature changed behind the server's back (as the database owner, the
 * triggers off) is named as the first break, and verifies again once put back.
 */

async function openEvidence(page: Page): Promise<void> {
  await page.goto('/configuration?tab=evidence');
  await signIn(page);
  await expect(page).toHaveURL(/tab=evidence/);
  await expect(page.getByRole('heading', { name: 'Evidence chain' })).toBeVisible();
}

/** The session organization's record with the most points, and its highest temperature. */
async function aRecordOf(page: Page): Promise<{ id: number; highest: number | null }> {
  const session = (await (await page.request.get('/api/auth/session/')).json()) as {
    last_session_org_id: string;
  };
  return withDatabaseSuperuser(async (db) => {
    const { rows } = await db.query<{ id: string; highest: number | null }>(
      `SELECT id, highest_recorded_temperature AS highest FROM records
        WHERE organization_id = $1 ORDER BY number_of_points DESC, id LIMIT 1`,
      [session.last_session_org_id],
    );
    return { id: Number(rows[0]!.id), highest: rows[0]!.highest };
  });
}

/** As the owner could: set the column with the table's triggers off (no chain entry). */
async function setHighestUntracked(id: number, value: number | null): Promise<void> {
  await withDatabaseSuperuser(async (db) => {
    await db.query('BEGIN');
    await db.query('ALTER TABLE records DISABLE TRIGGER USER');
    await db.query('UPDATE records SET highest_recorded_temperature = $2 WHERE id = $1', [
      id,
      value,
    ]);
    await db.query('ALTER TABLE records ENABLE TRIGGER USER');
    await db.query('COMMIT');
  });
}

test('the evidence verifies, a change behind the server is named, and verifies once undone [FEAT-EVIDENCE-CHAIN]', async ({
  page,
}) => {
  await openEvidence(page);
  const section = page.getByRole('region', { name: 'Evidence chain' });
  await expect(section).toContainText(/Server signing key \(Ed25519\): [0-9a-f]{16}/);
  await section.getByRole('button', { name: 'Verify now' }).click();
  await expect(section.getByRole('alert')).toContainText('Verified');
  await expect(section).toContainText('Chains walked');
  await expect(section).toContainText('Rows compared');
  await expectNoAccessibilityViolations(page);
  await screenshots(page, 'evidence-verified');

  const record = await aRecordOf(page);
  await setHighestUntracked(record.id, 99);
  try {
    await section.getByRole('button', { name: 'Verify now' }).click();
    const alert = section.getByRole('alert');
    await expect(alert).toContainText('The evidence does not verify');
    await expect(alert).toContainText(
      `First break: records ${record.id} differs from its version in entry`,
    );
    await screenshots(page, 'evidence-broken');
  } finally {
    await setHighestUntracked(record.id, record.highest);
  }
  await section.getByRole('button', { name: 'Verify now' }).click();
  await expect(section.getByRole('alert')).toContainText('Verified');
});

test('a Manager (locations, no user administration) sees no Evidence tab [SPEC-6.1, FEAT-EVIDENCE-CHAIN]', async ({
  page,
}) => {
  const manager = await createUserInDb({ role: 'Manager' });
  await page.goto('/configuration?tab=evidence');
  await signIn(page, { email: manager.email, password: manager.password });
  await expect(page.getByRole('heading', { name: 'Configuration', level: 1 })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Products' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByRole('tab', { name: 'Evidence' })).toHaveCount(0);
  expect((await page.request.get('/api/audit/verify/')).status()).toBe(403);
});
