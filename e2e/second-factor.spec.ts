import { expect, test } from '@playwright/test';
import { generate } from 'otplib';
import { createUserInDb, type E2eUser } from './accounts-db';
import {
  agreeToTermsIfAsked,
  E2E_ADMIN,
  expectNoAccessibilityViolations,
  openSettingsItem,
  screenshots,
  signIn,
} from './fixtures';
import { simulateShipment } from './simulate';

/**
 * A second factor for signers (issue 37 item 7): a new Operator enrols an
 * authenticator app on their own profile (Second Factor in the settings menu:
 * password, QR code and key, a first code computed here from the key shown, the
 * recovery codes shown once), then signs an alarm acknowledgement with the
 * password and a code: the signature says it was given with the authenticator
 * code, and the API records `second_factor: totp`. The demo organization does
 * not require it (other specs sign without): the code is offered, not asked.
 */

const run = Date.now().toString(36);
/** The authenticator app: the code `steps` periods from now (the server accepts one step of drift). */
const codeOf = (secret: string, steps = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

test.describe('second factor for signers [FEAT-SECOND-FACTOR, FEAT-E-SIGNATURE]', () => {
  let signer: E2eUser;
  let recordId: string;

  test.beforeAll(async ({ playwright: _playwright }, testInfo) => {
    test.setTimeout(120_000);
    signer = await createUserInDb({ role: 'Operator', firstName: 'Tessa' });
    ({ recordId } = await simulateShipment(
      testInfo.project.use.baseURL!,
      'pharma-high',
      `E2E2F${run}`,
    ));
  });

  test('enrol an authenticator app, sign an acknowledgement with its code; a server administrator resets it', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    await page.goto('/login');
    await signIn(page, signer);
    await agreeToTermsIfAsked(page);

    let secret = '';
    await test.step('start the enrolment with the password: QR code and key', async () => {
      await openSettingsItem(page, 'Second Factor');
      const dialog = page.getByRole('dialog', { name: 'Second Factor' });
      await expect(dialog.getByText(/Off for now/)).toBeVisible();
      await dialog.getByLabel('Password').fill('not my password');
      await dialog.getByRole('button', { name: 'Start enrolment' }).click();
      await expect(dialog.getByText('The password is not correct.')).toBeVisible();
      await dialog.getByLabel('Password').fill(signer.password);
      await dialog.getByRole('button', { name: 'Start enrolment' }).click();
      await expect(
        dialog.getByRole('img', { name: 'QR code to add Coldtrace to your authenticator app' }),
      ).toBeVisible();
      secret = await dialog.getByLabel('Or enter this key in the app').inputValue();
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      await expectNoAccessibilityViolations(page);
      await screenshots(page, 'second-factor-enrol');
    });

    let recoveryCodes: string[] = [];
    await test.step('confirm with a first code: the recovery codes are shown once', async () => {
      const dialog = page.getByRole('dialog', { name: 'Second Factor' });
      await dialog.getByLabel('Code from the app').fill('000000');
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await expect(dialog.getByText('The code is not correct.')).toBeVisible();
      await dialog.getByLabel('Code from the app').fill(await codeOf(secret));
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      const codes = page.getByRole('dialog', { name: 'Recovery codes' });
      await expect(codes.getByText(/shown only now/)).toBeVisible();
      recoveryCodes = (await codes.getByLabel('Recovery codes').inputValue()).split('\n');
      expect(recoveryCodes).toHaveLength(10);
      await screenshots(page, 'second-factor-recovery-codes');
      await codes.getByRole('button', { name: 'Done' }).click();
      await expect(codes).toBeHidden();

      await openSettingsItem(page, 'Second Factor');
      const on = page.getByRole('dialog', { name: 'Second Factor' });
      await expect(on.getByText(/10 recovery codes left/)).toBeVisible();
      await screenshots(page, 'second-factor-on');
      await page.keyboard.press('Escape');
      await expect(on).toBeHidden();
    });

    await test.step('sign an acknowledgement with the password and a code', async () => {
      await page.goto(`/recorddetails/${recordId}`);
      const alarmsCard = page.getByRole('region', { name: 'Alarms' });
      await expect(alarmsCard.getByRole('listitem').first()).toBeVisible();
      const boxes = await alarmsCard.getByRole('checkbox').all();
      if (boxes.length > 1) {
        for (const box of boxes) await box.check();
        await alarmsCard.getByRole('button', { name: /^Acknowledge selected/ }).click();
      } else {
        await alarmsCard.getByRole('button', { name: 'Acknowledge', exact: true }).click();
      }
      const dialog = page.getByRole('dialog', { name: /^Acknowledge/ });
      await dialog.getByRole('radio', { name: 'Reviewed' }).check();
      await dialog.getByLabel('Comment').fill(`Checked with a second factor (${run})`);
      await dialog.getByLabel('Password').fill(signer.password);
      const code = dialog.getByLabel('Authenticator code');
      await expect(code).toBeVisible();
      // The confirming code's step is spent (no replay): the next step's code.
      await code.fill(await codeOf(secret, 1));
      await expectNoAccessibilityViolations(page);
      await screenshots(page, 'second-factor-sign');
      await dialog.getByRole('button', { name: 'Sign and acknowledge' }).click();
      await expect(dialog).toBeHidden();
      const signature = alarmsCard.getByTestId('alarm-signature').first();
      await expect(signature).toContainText('Reviewed · with authenticator code');
      await screenshots(page, 'second-factor-signed');

      const res = await page.request.get(
        `/api/devices/xt1/alarms/?record_id=${recordId}&include_acknowledged=true`,
      );
      const alarms = (await res.json()) as { signature?: { second_factor?: string | null } }[];
      expect(alarms.some((a) => a.signature?.second_factor === 'totp')).toBe(true);
    });

    await test.step('phone and codes lost: a server administrator resets the factor', async () => {
      const adminContext = await browser.newContext();
      const admin = await adminContext.newPage();
      try {
        await admin.goto('/login');
        await signIn(admin);
        await admin.goto('/serveradmin');
        await admin
          .getByRole('button', { name: `Reset second factor of ${signer.username}` })
          .click();
        const dialog = admin.getByRole('dialog', {
          name: `Reset the second factor of ${signer.username}`,
        });
        await dialog.getByRole('button', { name: 'Reset second factor' }).click();
        await expect(dialog.getByText('Give the reason')).toBeVisible();
        await dialog.getByLabel('Reason').fill(`Phone and recovery codes lost (${run})`);
        await dialog.getByLabel('Your password').fill('not my password');
        await dialog.getByRole('button', { name: 'Reset second factor' }).click();
        await expect(dialog.getByText('The password is not correct.')).toBeVisible();
        await dialog.getByLabel('Your password').fill(E2E_ADMIN.password);
        await expectNoAccessibilityViolations(admin);
        await screenshots(admin, 'second-factor-reset');
        await dialog.getByRole('button', { name: 'Reset second factor' }).click();
        await expect(dialog).toBeHidden();
        await expect(
          admin.getByText(`The second factor of ${signer.username} was removed.`),
        ).toBeVisible();
      } finally {
        await adminContext.close();
      }
      // The signer's own view, next time they open the app: off again, enrolment offered.
      await page.reload();
      await openSettingsItem(page, 'Second Factor');
      const dialog = page.getByRole('dialog', { name: 'Second Factor' });
      await expect(dialog.getByText(/Off for now/)).toBeVisible();
    });
  });

  test("the organization's second-factor settings on Configuration > Alarms", async ({ page }) => {
    await page.goto('/login');
    await signIn(page);
    await page.goto('/configuration?tab=alarms');
    const card = page.getByRole('region', { name: 'Second factor' });
    const signers = card.getByRole('switch', {
      name: 'Require a second factor for every signature',
    });
    await expect(signers).not.toBeChecked();
    await expect(
      card.getByRole('switch', { name: 'Require a second factor at administrators’ sign-in' }),
    ).not.toBeChecked();
    // Turned on, not saved: what it will mean is shown (other specs sign without a code).
    await signers.check();
    await expect(card.getByText(/need the password and a code/)).toBeVisible();
    await expectNoAccessibilityViolations(page);
    await card.scrollIntoViewIfNeeded();
    await screenshots(page, 'second-factor-settings');
  });
});
