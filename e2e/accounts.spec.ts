import { expect, test, type APIRequestContext } from '@playwright/test';
import { createUserInDb, welcomeLinkInDb } from './accounts-db';
import { E2E_ADMIN, expectNoAccessibilityViolations, openSettingsItem, signIn } from './fixtures';
import { linkIn, waitForMail } from './mail';

/** Account flows of issue 5, with mail captured by the SMTP sink of start-server.mjs. */

async function apiSignIn(request: APIRequestContext, email: string, password: string) {
  const csrf = (await (await request.get('/api/auth/csrf/')).json()) as { csrftoken: string };
  const res = await request.post('/api/auth/login/', {
    data: { email_or_username: email, password },
    headers: { 'X-CSRFToken': csrf.csrftoken },
  });
  expect(res.status()).toBe(200);
  return csrf.csrftoken;
}

test('forgot password: e-mail, new password, sign in with it [FEAT-ACCOUNT-SECURITY, SPEC-2.2]', async ({
  page,
}) => {
  const user = await createUserInDb();
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/forgotpassword$/);
  await expectNoAccessibilityViolations(page);
  await page.getByLabel('Email address').fill(user.email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page).toHaveURL(/\/forgotpasswordconfirm$/);
  await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();

  const mail = await waitForMail(user.email, (m) => m.subject === 'Reset your Coldtrace password');
  const link = linkIn(mail, '/passwordreset/');
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Set a New Password' })).toBeVisible();
  await expectNoAccessibilityViolations(page);

  // A mismatch is caught before anything is sent; a common password by the server.
  await page.getByLabel('New password', { exact: true }).fill('a fresh passphrase 11');
  await page.getByLabel('Confirm new password').fill('something else 11');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('password123');
  await page.getByLabel('Confirm new password').fill('password123');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('This password is too common.')).toBeVisible();

  await page.getByLabel('New password', { exact: true }).fill('a fresh passphrase 11');
  await page.getByLabel('Confirm new password').fill('a fresh passphrase 11');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page).toHaveURL(/\/passwordresetconfirm$/);
  await page.getByRole('main').getByRole('link', { name: 'Log In' }).click();
  await signIn(page, { email: user.email, password: 'a fresh passphrase 11' });
  await expect(page).toHaveURL(/\/$/);

  // The link is dead now.
  await page.goto(link);
  await expect(
    page.getByText('This link is invalid, has expired or was already used.'),
  ).toBeVisible();
});

test('welcome link: a new user chooses a password, then agrees to the terms [FEAT-ACCOUNT-SECURITY, SPEC-2.2]', async ({
  page,
}) => {
  const user = await createUserInDb({ agreed: false, firstName: 'Wanda' });
  await page.goto(await welcomeLinkInDb(user.id));
  await expect(page.getByRole('heading', { name: 'Welcome to Coldtrace' })).toBeVisible();
  await expect(
    page.getByText('Choose a password to finish setting up your account.'),
  ).toBeVisible();
  await expectNoAccessibilityViolations(page);
  await page.getByLabel('New password', { exact: true }).fill('welcome aboard 2026');
  await page.getByLabel('Confirm new password').fill('welcome aboard 2026');
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page).toHaveURL(/\/welcome\/passwordresetconfirm$/);
  await expect(page.getByRole('heading', { name: 'Your Password Is Set' })).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: 'Log In' }).click();
  await signIn(page, { email: user.username, password: 'welcome aboard 2026' });
  // Never agreed to the terms: that comes first.
  await expect(page).toHaveURL(/\/tou-agreement$/);
});

test('change password: mismatched confirmation sends nothing; a wrong current password shows under it [SPEC-5.2, FEAT-ACCOUNT-SECURITY]', async ({
  page,
}) => {
  const user = await createUserInDb();
  await page.goto('/login');
  await signIn(page, user);
  await openSettingsItem(page, 'Change Password');
  const dialog = page.getByRole('dialog', { name: 'Change Password' });
  await expect(dialog).toBeVisible();
  await expectNoAccessibilityViolations(page);

  let sent = 0;
  page.on('request', (r) => {
    if (r.url().includes('/api/auth/password-change/')) sent += 1;
  });
  await dialog.getByLabel(/^Current password/).fill(user.password);
  await dialog.getByLabel(/^New password/).fill('a changed passphrase 5');
  await dialog.getByLabel(/^Confirm new password/).fill('a different passphrase 5');
  await dialog.getByRole('button', { name: 'Change Password' }).click();
  await expect(dialog.getByText('Passwords do not match')).toBeVisible();
  expect(sent).toBe(0);
  await page.screenshot({ path: '/tmp/ct-accounts-shots/accounts-change-password.png' });

  await dialog.getByLabel(/^Current password/).fill('not my password at all');
  await dialog.getByLabel(/^Confirm new password/).fill('a changed passphrase 5');
  await dialog.getByRole('button', { name: 'Change Password' }).click();
  await expect(
    dialog.getByText('Your old password was entered incorrectly. Please enter it again.'),
  ).toBeVisible();
  expect(sent).toBe(1);

  await dialog.getByLabel(/^Current password/).fill(user.password);
  await dialog.getByRole('button', { name: 'Change Password' }).click();
  await expect(dialog).toBeHidden();
  // Still signed in here; the new password works elsewhere.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Settings' })).toBeVisible();
});

test('new terms: a user is taken to /tou-agreement and can use the app after agreeing [SPEC-2.2, SPEC-4]', async ({
  page,
  playwright,
  baseURL,
}) => {
  const user = await createUserInDb();
  const admin = await playwright.request.newContext({ baseURL });
  try {
    const csrftoken = await apiSignIn(admin, E2E_ADMIN.email, E2E_ADMIN.password);
    const content = `Terms of use, e2e edition ${Date.now()}.\n\nBe kind to the cold chain.`;
    const published = await admin.post('/api/auth/tos/', {
      data: { content },
      headers: { 'X-CSRFToken': csrftoken },
    });
    expect(published.status()).toBe(200);
    const terms = (await published.json()) as { id: string; version: number };
    // The administrator agrees at once, so the other browser tests are not held up.
    expect(
      (
        await admin.post('/api/auth/tos-agreement/', {
          data: { id: terms.id },
          headers: { 'X-CSRFToken': csrftoken },
        })
      ).status(),
    ).toBe(200);

    await page.goto('/allrecords');
    await signIn(page, user);
    await expect(page).toHaveURL(/\/tou-agreement$/);
    await expect(page.getByText(`Version ${terms.version}`)).toBeVisible();
    await expect(page.getByText('Be kind to the cold chain.')).toBeVisible();
    await expectNoAccessibilityViolations(page);
    await page.screenshot({
      path: '/tmp/ct-accounts-shots/accounts-tou-agreement.png',
      fullPage: true,
    });
    // Nothing else until agreeing.
    await page.goto('/allrecords');
    await expect(page).toHaveURL(/\/tou-agreement$/);

    await page.getByRole('button', { name: 'I Agree' }).click();
    await expect(page.getByText('Tick the box to agree to the terms of use.')).toBeVisible();
    await page.getByLabel('I have read and agree to the Terms of Use').check();
    await page.getByRole('button', { name: 'I Agree' }).click();
    await expect(page).toHaveURL(/\/allrecords$/);
  } finally {
    await admin.dispose();
  }
});

test('password pages work at 375 px [SPEC-2.2, SPEC-9.5]', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/forgotpassword');
  await expect(page.getByRole('button', { name: 'Send Reset Link' })).toBeVisible();
  await page.screenshot({ path: '/tmp/ct-accounts-shots/accounts-forgot-375.png', fullPage: true });
  await page.goto('/passwordreset/00000000-0000-4000-8000-000000000000/nope');
  await expect(
    page.getByText('This link is invalid, has expired or was already used.'),
  ).toBeVisible();
  await page.screenshot({
    path: '/tmp/ct-accounts-shots/accounts-dead-link-375.png',
    fullPage: true,
  });
});
