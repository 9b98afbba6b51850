import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import {
  agreeToTermsIfAsked,
  expectNoAccessibilityViolations,
  screenshots,
  signIn,
} from './fixtures';
import { linkIn, waitForMail } from './mail';

/** Administration screens (issue 5): Manage Users, API Keys, Assign Tags, Server Administration. */

const uid = () => randomBytes(4).toString('hex');

async function signInAsAdmin(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await signIn(page);
  await expect(page).toHaveURL(new RegExp(`${path}$`));
}

test('Manage Users: a server administrator adds a user, who follows the welcome link; suspending and reactivating them [RULE-ACCOUNT-1, RULE-ORG-2]', async ({
  page,
  browser,
}) => {
  await signInAsAdmin(page, '/organization/admin');
  await expect(page.getByRole('heading', { name: 'Manage Users' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Users' })).toBeVisible();

  const username = `nina_${uid()}`;
  const email = `${username}@example.test`;
  await page.getByRole('button', { name: 'Register user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Register a user' });
  // All six fields are required: nothing is sent with empty ones.
  await dialog.getByRole('button', { name: 'Register' }).click();
  await expect(dialog.getByText('Username is required')).toBeVisible();
  await dialog.getByLabel('Username').fill(username);
  await dialog.getByLabel('First name').fill('Nina');
  await dialog.getByLabel('Last name').fill('Newcomer');
  await dialog.getByLabel('E-mail address').fill(email);
  await expectNoAccessibilityViolations(page);
  await dialog.getByRole('button', { name: 'Register' }).click();
  await expect(dialog).toBeHidden();
  // A server administrator adds the person directly (issue 34); others send an invitation.
  await expect(page.getByText(new RegExp(`^${username} is added to .+\\.$`))).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(username) });
  await expect(row).toBeVisible();
  await expectNoAccessibilityViolations(page);
  await screenshots(page, 'manage-users');

  // The new user chooses a password from the welcome e-mail and signs in elsewhere.
  const welcome = await waitForMail(email, (m) => m.subject === 'Welcome to Coldtrace');
  const other = await browser.newContext();
  const them = await other.newPage();
  await them.goto(linkIn(welcome, '/welcome/'));
  await them.getByLabel('New password', { exact: true }).fill('welcome aboard 2026');
  await them.getByLabel('Confirm new password').fill('welcome aboard 2026');
  await them.getByRole('button', { name: 'Set Password' }).click();
  await expect(them).toHaveURL(/\/welcome\/passwordresetconfirm$/);
  await them.goto('/login');
  await signIn(them, { email: username, password: 'welcome aboard 2026' });
  await agreeToTermsIfAsked(them);

  // Suspended (issue 34): their membership here only; the role cannot change meanwhile.
  await row.getByRole('button', { name: `Suspend ${username}` }).click();
  await expect(page.getByText(`${username}'s membership is suspended:`)).toBeVisible();
  await expect(row.getByText('Suspended')).toBeVisible();
  await expect(row.getByRole('combobox', { name: `Role of ${username}` })).toBeDisabled();

  // Reactivated: active again, with their role.
  await row.getByRole('button', { name: `Reactivate ${username}` }).click();
  await expect(page.getByText(`${username} is active again in`)).toBeVisible();
  await expect(row.getByText('Active')).toBeVisible();
  await expect(row.getByRole('combobox', { name: `Role of ${username}` })).toBeEnabled();
  await other.close();
});

test('API Keys: generate a key shown once, use it, revoke it [SPEC-7.6]', async ({ page }) => {
  await signInAsAdmin(page, '/organization/apikeys');
  await expect(page.getByRole('heading', { name: 'API Keys' })).toBeVisible();
  const name = `ERP ${uid()}`;
  await page.getByRole('button', { name: 'Generate key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Generate an API key' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Generate' }).click();

  const created = page.getByRole('dialog', { name: 'API key generated' });
  await expect(created.getByText('It is shown only once')).toBeVisible();
  const key = await created.getByRole('textbox').inputValue();
  expect(key).toMatch(/^ct_[a-z0-9]{8}_[A-Za-z0-9_-]{43}$/);
  await expectNoAccessibilityViolations(page);
  await created.getByRole('button', { name: 'Done' }).click();
  const prefix = key.split('_')[1]!;
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row.getByText(prefix)).toBeVisible();
  await expect(page.getByText(key)).toHaveCount(0);
  await screenshots(page, 'api-keys');

  // Use it: both headers authenticate it.
  const both: Record<string, string>[] = [
    { Authorization: `Api-Key ${key}` },
    { 'X-Api-Key': key },
  ];
  for (const headers of both) {
    const res = await page.request.post('/api/keys/authenticate/', { headers });
    expect(res.status()).toBe(200);
    expect(await res.json()).toMatchObject({ kind: 'api-key', prefix });
  }

  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: `Revoke “${name}”?` });
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toHaveCount(0);
  const after = await page.request.post('/api/keys/authenticate/', {
    headers: { Authorization: `Api-Key ${key}` },
  });
  expect(after.status()).toBe(401);
});

test('API Keys: a read-only key reads the records, cannot upload, and its last use shows [FEAT-API-KEYS-ON-API]', async ({
  page,
}) => {
  await signInAsAdmin(page, '/organization/apikeys');
  const name = `Dashboard ${uid()}`;
  await page.getByRole('button', { name: 'Generate key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Generate an API key' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('checkbox', { name: 'Read only' }).check();
  await dialog.getByRole('button', { name: 'Generate' }).click();
  const created = page.getByRole('dialog', { name: 'API key generated' });
  const key = await created.getByRole('textbox').inputValue();
  await created.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row.getByRole('cell', { name: 'Read only' })).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Never' })).toBeVisible();

  const headers = { Authorization: `Api-Key ${key}` };
  const records = await page.request.get('/api/devices/xt1/records/', { headers });
  expect(records.status()).toBe(200);
  const upload = await page.request.post('/api/devices/xt1/scans/', {
    headers,
    data: { tag_id: 'E2E-RO', tag_serial_number: 'E2E-RO', temps: [5] },
  });
  expect(upload.status()).toBe(403);
  expect((await upload.json()).message).toBe('This API key is read-only.');

  await page.reload();
  await expect(row.getByRole('cell', { name: 'Never' })).toHaveCount(0);
  await expect(row.getByRole('cell', { name: /\d{4}|\d{1,2}:\d{2}/ }).last()).toBeVisible();
  await screenshots(page, 'api-keys-read-only');
});

test('Assign Tags: good and malformed IDs, the exact messages, the failed IDs back in the box [SPEC-2.8, SPEC-5.4]', async ({
  page,
}) => {
  await signInAsAdmin(page, '/organization/assign-tags');
  const box = page.getByRole('textbox', { name: 'Tag IDs and serial numbers' });
  const button = page.getByRole('button', { name: /^Assign Tags to / });
  await expect(page.getByRole('combobox', { name: 'Assign to Organization' })).toBeVisible();
  await expect(button).toBeDisabled();

  const good = [`E2E-${uid()}`, `E2E-${uid()}`];
  await box.fill(`${good[0]}, ###,\n${good[1]}  bad!id`);
  await expect(button).toBeEnabled();
  await button.click();
  await expect(
    page.getByText(
      'The following tag IDs could not be created or assigned. Please check the formatting and value of your entries',
    ),
  ).toBeVisible();
  await expect(box).toHaveValue('###\nbad!id');
  await expectNoAccessibilityViolations(page);
  await screenshots(page, 'assign-tags-failed');

  // Editing clears the message.
  await box.fill(`E2E-${uid()}`);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await button.click();
  await expect(page.getByText('All tags IDs successfully created and/or assigned')).toBeVisible();
  await expect(box).toHaveValue('');
  await box.fill('x');
  await expect(page.getByText('All tags IDs successfully created and/or assigned')).toHaveCount(0);
});

test('Server Administration: a server administrator creates an organization [RULE-ORG-2]', async ({
  page,
}) => {
  await signInAsAdmin(page, '/serveradmin');
  await expect(page.getByRole('heading', { name: 'Server Administration' })).toBeVisible();
  const organizations = page.getByRole('table', { name: 'Organizations' });
  await expect(organizations.getByRole('row').nth(1)).toBeVisible();
  const name = `Northwind Cold Chain ${uid()}`;
  await page.getByRole('button', { name: 'Create organization' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create an organization' });
  await dialog.getByLabel('Organization name').fill(name);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(organizations.getByRole('row', { name: new RegExp(name) })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Users of every organization' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Terms of use' })).not.toHaveValue('');
  await expectNoAccessibilityViolations(page);
  await screenshots(page, 'server-admin');
});
