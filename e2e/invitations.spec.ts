import { randomBytes } from 'node:crypto';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { createUserInDb } from './accounts-db';
import {
  agreeToTermsIfAsked,
  expectNoAccessibilityViolations,
  screenshots,
  signIn,
} from './fixtures';
import { linkIn, waitForMail } from './mail';

/**
 * Issue 34, "Accounts belong to their owners": an organization's administrator invites,
 * the person accepts (creating their account, or signing in to the one they have); an
 * administrator suspends a membership of their organization only; the platform-wide
 * lock is the server administrators'.
 */

const ORG = 'Demo Pharma Logistics';
const DEAD_LINK =
  "This invitation link is invalid, has expired, was revoked or was already used. Ask the organization's administrator for a new one.";
const uid = () => randomBytes(4).toString('hex');

/**
 * Manage Users, signed in as a new Administrator of the second demo organization who is
 * not a server administrator (Olga Tester); answers its Invitations table.
 */
async function manageUsersAsOrgAdmin(page: Page): Promise<Locator> {
  const admin = await createUserInDb({
    organization: ORG,
    role: 'Administrator',
    firstName: 'Olga',
  });
  await page.goto('/organization/admin');
  await signIn(page, admin);
  await expect(page).toHaveURL(/\/organization\/admin$/);
  await expect(page.getByRole('table', { name: 'Users' })).toBeVisible();
  return page.getByRole('table', { name: 'Invitations' });
}

/** Registers `email` through the form; an organization's administrator sends an invitation. */
async function invite(page: Page, email: string, username: string): Promise<void> {
  await page.getByRole('button', { name: 'Register user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Register a user' });
  await dialog.getByLabel('Username').fill(username);
  await dialog.getByLabel('First name').fill('Ivy');
  await dialog.getByLabel('Last name').fill('Invitee');
  await dialog.getByLabel('E-mail address').fill(email);
  await dialog.getByRole('button', { name: 'Register' }).click();
  await expect(dialog).toBeHidden();
  await expect(
    page.getByText(`Invitation sent to ${email}. They become a member when they accept it.`),
  ).toBeVisible();
}

/** The invitation link of the newest invitation e-mail to `email`. */
async function invitationLink(email: string): Promise<string> {
  const mail = await waitForMail(
    email,
    (m) => m.subject === `Invitation to join ${ORG} on Coldtrace`,
  );
  return linkIn(mail, '/invitation/');
}

/** A page in a browser context of its own (another person, another device). */
async function newPerson(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

test('a new address: invited, creates the account from the link, and is a member [RULE-ACCOUNT-1]', async ({
  page,
  browser,
}) => {
  const invitations = await manageUsersAsOrgAdmin(page);
  const username = `ivy_${uid()}`;
  const email = `${username}@example.test`;
  await invite(page, email, username);
  const pending = invitations.getByRole('row', { name: new RegExp(email) });
  await expect(pending).toBeVisible();
  await expect(pending.getByRole('cell', { name: 'Viewer', exact: true })).toBeVisible();
  await expect(pending.getByRole('cell', { name: 'Olga Tester' })).toBeVisible();
  await expectNoAccessibilityViolations(page);
  await screenshots(page, 'manage-users-invitations');

  const them = await newPerson(browser);
  await them.goto(await invitationLink(email));
  await expect(them.getByRole('heading', { name: `Join ${ORG}` })).toBeVisible();
  await expect(them.getByText(`Olga Tester invited you to join ${ORG} as Viewer.`)).toBeVisible();
  // The suggestion prefills the form; the password is theirs to choose.
  await expect(them.getByLabel('Username')).toHaveValue(username);
  await expect(them.getByLabel('First name')).toHaveValue('Ivy');
  await expect(them.getByLabel('Last name')).toHaveValue('Invitee');
  await expectNoAccessibilityViolations(them);
  await screenshots(them, 'invitation-new-account');

  const create = them.getByRole('button', { name: 'Create account and join' });
  await them.getByLabel('New password', { exact: true }).fill('an invited passphrase 7');
  await them.getByLabel('Confirm new password').fill('another passphrase 7');
  await create.click();
  await expect(them.getByText('Passwords do not match')).toBeVisible();
  // The welcome page's strength rules, said under the field by the server.
  await them.getByLabel('New password', { exact: true }).fill('password123');
  await them.getByLabel('Confirm new password').fill('password123');
  await create.click();
  await expect(them.getByText('This password is too common.')).toBeVisible();

  const chosen = `ivy_own_${uid()}`;
  await them.getByLabel('Username').fill(chosen);
  await them.getByLabel('New password', { exact: true }).fill('an invited passphrase 7');
  await them.getByLabel('Confirm new password').fill('an invited passphrase 7');
  await create.click();
  await expect(them).toHaveURL(/\/login$/);
  await expect(
    them.getByText('Your account is ready: sign in with your new password.'),
  ).toBeVisible();
  await signIn(them, { email: chosen, password: 'an invited passphrase 7' });
  await agreeToTermsIfAsked(them);
  await expect(them.getByRole('button', { name: `Organization: ${ORG}` })).toBeVisible();

  // The administrator sees the new member, and the invitation is no longer pending.
  await page.reload();
  await expect(
    page.getByRole('table', { name: 'Users' }).getByRole('row', { name: new RegExp(chosen) }),
  ).toBeVisible();
  await expect(invitations.getByRole('row', { name: new RegExp(email) })).toHaveCount(0);
  // The link is used up.
  await them.goto(await invitationLink(email));
  await expect(them.getByText(DEAD_LINK)).toBeVisible();
  await them.context().close();
});

test("another organization's user: signs in to accept, accepts, and works in the new organization [RULE-ACCOUNT-1]", async ({
  page,
  browser,
}) => {
  const existing = await createUserInDb();
  const invitations = await manageUsersAsOrgAdmin(page);
  // The administrator learns nothing of the account: the same invitation as for a new address.
  await invite(page, existing.email, `suggested_${uid()}`);
  const link = await invitationLink(existing.email);

  // Someone else signed in cannot accept it for them.
  const stranger = await newPerson(browser);
  await stranger.goto('/login');
  await signIn(stranger, await createUserInDb());
  await stranger.goto(link);
  await stranger.getByRole('button', { name: 'Accept' }).click();
  await expect(
    stranger.getByText(
      'This invitation was sent to another e-mail address. Sign out and sign in as the invited person.',
    ),
  ).toBeVisible();
  await stranger.context().close();

  const them = await newPerson(browser);
  await them.goto(link);
  await expect(them.getByText(`invited you to join ${ORG} as Viewer.`)).toBeVisible();
  await expect(them.getByRole('button', { name: 'Decline' })).toBeVisible();
  await expect(them.getByLabel('Username')).toHaveCount(0);
  await expectNoAccessibilityViolations(them);
  await screenshots(them, 'invitation-sign-in');
  await them.getByRole('button', { name: 'Sign in to accept' }).click();
  await signIn(them, existing);
  // Back on the invitation, signed in.
  await expect(them).toHaveURL(new RegExp(`${link}$`));
  await expect(them.getByText(`You are signed in as ${existing.username}.`)).toBeVisible();
  await screenshots(them, 'invitation-accept');
  await them.getByRole('button', { name: 'Accept' }).click();
  await expect(them).toHaveURL(/\/$/);
  await expect(them.getByRole('button', { name: `Organization: ${ORG}` })).toBeVisible();

  await page.reload();
  await expect(
    page
      .getByRole('table', { name: 'Users' })
      .getByRole('row', { name: new RegExp(existing.username) }),
  ).toBeVisible();
  await expect(invitations.getByRole('row', { name: new RegExp(existing.email) })).toHaveCount(0);
  await them.context().close();
});

test('suspend and reactivate a member of the organization [RULE-ACCOUNT-1]', async ({
  page,
  browser,
}) => {
  const member = await createUserInDb({ organization: ORG });
  const them = await newPerson(browser);
  await them.goto('/login');
  await signIn(them, member);
  // The organizations their session may act in.
  const theirOrganizations = async () => {
    const reply = await them.request.get('/api/auth/session/');
    expect(reply.status()).toBe(200);
    return ((await reply.json()) as { organizations: { name: string }[] }).organizations.map(
      (o) => o.name,
    );
  };
  expect(await theirOrganizations()).toContain(ORG);

  await manageUsersAsOrgAdmin(page);
  const row = page.getByRole('row', { name: new RegExp(member.username) });
  const role = row.getByRole('combobox', { name: `Role of ${member.username}` });
  await expect(role).toBeEnabled();
  await row.getByRole('button', { name: `Suspend ${member.username}` }).click();
  await expect(
    page.getByText(
      `${member.username}'s membership is suspended: they can no longer act in ${ORG}.`,
    ),
  ).toBeVisible();
  await expect(row.getByText('Suspended')).toBeVisible();
  await expect(role).toBeDisabled();
  await expectNoAccessibilityViolations(page);
  await screenshots(page, 'manage-users-suspended');
  // Their account stays; their session can no longer act here.
  expect(await theirOrganizations()).not.toContain(ORG);

  await row.getByRole('button', { name: `Reactivate ${member.username}` }).click();
  await expect(page.getByText(`${member.username} is active again in ${ORG}.`)).toBeVisible();
  await expect(row.getByText('Active')).toBeVisible();
  await expect(role).toBeEnabled();
  expect(await theirOrganizations()).toContain(ORG);
  await them.context().close();
});

test('a revoked invitation: its link is dead; a declined one leaves the list [RULE-ACCOUNT-1]', async ({
  page,
  browser,
}) => {
  const invitations = await manageUsersAsOrgAdmin(page);
  const revoked = `rex_${uid()}@example.test`;
  await invite(page, revoked, `rex_${uid()}`);
  // The e-mail reached them (a revoked invitation's link is taken out of mail not yet sent).
  const revokedLink = await invitationLink(revoked);
  await invitations.getByRole('button', { name: `Revoke the invitation of ${revoked}` }).click();
  await expect(page.getByText(`The invitation of ${revoked} is revoked.`)).toBeVisible();
  await expect(invitations.getByRole('row', { name: new RegExp(revoked) })).toHaveCount(0);

  const them = await newPerson(browser);
  await them.goto(revokedLink);
  await expect(them.getByText(DEAD_LINK)).toBeVisible();
  await expect(them.getByRole('button', { name: 'Create account and join' })).toHaveCount(0);
  await expect(them.getByRole('button', { name: 'Decline' })).toHaveCount(0);
  await expectNoAccessibilityViolations(them);
  await screenshots(them, 'invitation-dead-link');

  const declined = `dee_${uid()}@example.test`;
  await invite(page, declined, `dee_${uid()}`);
  await expect(invitations.getByRole('row', { name: new RegExp(declined) })).toBeVisible();
  await them.goto(await invitationLink(declined));
  await them.getByRole('button', { name: 'Decline' }).click();
  await expect(them.getByText('You declined the invitation.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('table', { name: 'Users' })).toBeVisible();
  await expect(invitations.getByRole('row', { name: new RegExp(declined) })).toHaveCount(0);
  await them.context().close();
});

test('the server administrator locks an account platform-wide, then unlocks it [RULE-ACCOUNT-1]', async ({
  page,
  browser,
}) => {
  const user = await createUserInDb();
  const them = await newPerson(browser);
  await them.goto('/login');
  await signIn(them, user);

  await page.goto('/serveradmin');
  await signIn(page);
  const users = page.getByRole('table', { name: 'Users of every organization' });
  const row = users.getByRole('row', { name: new RegExp(user.username) });
  await row.getByRole('button', { name: `Lock ${user.username}` }).click();
  await expect(
    page.getByText(`${user.username} is locked and signed out everywhere.`),
  ).toBeVisible();
  await expect(row.getByText('Locked')).toBeVisible();
  await screenshots(page, 'server-admin-locked');
  // Signed out at once, and cannot sign in again.
  await them.reload();
  await expect(them).toHaveURL(/\/login$/);
  await signIn(them, user, false);
  await expect(them.getByText(/locked/i)).toBeVisible();
  await expect(them).toHaveURL(/\/login$/);

  await row.getByRole('button', { name: `Unlock ${user.username}` }).click();
  await expect(page.getByText(`${user.username} is unlocked.`)).toBeVisible();
  await expect(row.getByText('Active')).toBeVisible();
  await them.goto('/login');
  await signIn(them, user);
  await them.context().close();
});
