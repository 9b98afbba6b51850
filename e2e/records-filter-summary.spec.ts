import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { chooseOption, signIn } from './fixtures';

/**
 * All Records' filter bar names every filter that applies: the Review state
 * and Release decision selects above the grid too (they are not the grid's
 * own filters), so it never says "None: every row is shown" while one is
 * chosen. Removing a chip or Clear filters clears the select. Screenshots at
 * 1280 and 375 px go to /tmp/flow-shots (not committed).
 */

const SHOTS = '/tmp/flow-shots';

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

test('the Filters bar names the review state and release decision selects [FEAT-REVIEW-QUEUE]', async ({
  page,
}) => {
  await page.goto('/allrecords');
  await signIn(page);
  const bar = page.getByRole('group', { name: 'Filters' });
  const reviewState = page.getByRole('combobox', { name: 'Review state' });
  const decision = page.getByRole('combobox', { name: 'Release decision' });
  await expect(bar).toContainText('None: every row is shown.');

  await chooseOption(page, reviewState, 'Awaiting decision');
  await expect(page).toHaveURL(/review_state=AWAITING_DECISION/);
  await expect(
    bar.getByRole('button', { name: 'Filter: Review state is Awaiting decision' }),
  ).toBeVisible();
  await expect(bar).not.toContainText('None: every row is shown.');

  await chooseOption(page, decision, 'No decision yet');
  await expect(page).toHaveURL(/disposition=NONE/);
  await expect(bar).toContainText('Review state is Awaiting decision');
  await expect(bar.getByText('and', { exact: true })).toBeVisible();
  await expect(bar).toContainText('Release decision is No decision yet');
  await shoot(page, 'records-filter-summary-1280');

  // A chip removed: its select goes back to Any, the other stays.
  await bar
    .getByRole('button', { name: 'Filter: Release decision is No decision yet' })
    .locator('.MuiChip-deleteIcon')
    .click();
  await expect(page).not.toHaveURL(/disposition=/);
  await expect(decision).toContainText('Any');
  await expect(bar).toContainText('Review state is Awaiting decision');

  // Clear filters: the selects and the grid's filters at once.
  await chooseOption(page, decision, 'Released');
  await expect(page).toHaveURL(/disposition=RELEASED/);
  await expect(bar).toContainText('Release decision is Released');
  await page.setViewportSize({ width: 375, height: 740 });
  await shoot(page, 'records-filter-summary-375');
  await bar.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).not.toHaveURL(/disposition=|review_state=/);
  await expect(reviewState).toContainText('Any');
  await expect(decision).toContainText('Any');
  await expect(bar.getByRole('button', { name: /^Filter: / })).toHaveCount(0);
});
