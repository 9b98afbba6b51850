import {
  xt1Alarms,
  xt1UpdateShipmentAction,
  type TExcursionAlarm,
  type TRecord,
} from '@coldtrace/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { errorReply, stubApi, type ApiStub, type Handler } from '../../../test/api';
import { excursionAlarm, recordOf } from '../../../test/fixtures';
import { descriptionOf, isInvalid } from '../../../test/queries';
import { fill, renderInApp } from '../../../test/render';
import { SHIPMENT_FIELD_PERMISSIONS } from '../shipment-form';
import { ShipmentDetailsDialog } from './shipment-details-dialog';

/**
 * The reason for change and the signature step of a regulated change
 * (`ChangeSignatureFields`), in the dialog that uses them most: editing the
 * shipment details of record 101 (thresholds 2-8 °C).
 */

const CLOSES_ONE = 'This change closes 1 alarm: sign it with your password and its meaning';
const REASON = 'The product allows 2-10 °C (specification rev. 4)';
const ALL_FIELDS = Object.values(SHIPMENT_FIELD_PERMISSIONS);

/** The dialog as the record page opens it; closing it says so on the page. */
function OpenDialog({ record }: { record: TRecord }) {
  const [open, setOpen] = useState(true);
  if (!open) return <p>Dialog closed</p>;
  return (
    <ShipmentDetailsDialog
      record={record}
      dropdown={{}}
      dropdownError={false}
      unit="C"
      permissions={ALL_FIELDS}
      onClose={() => setOpen(false)}
    />
  );
}

function serve(
  alarms: TExcursionAlarm[],
  update: Handler<typeof xt1UpdateShipmentAction> = { record_id: '101' },
): ApiStub {
  return stubApi().on(xt1Alarms, alarms).on(xt1UpdateShipmentAction, update);
}

async function openDialog() {
  const view = renderInApp(
    <OpenDialog record={recordOf({ high_threshold: 8, low_threshold: 2 })} />,
  );
  const dialog = within(await screen.findByRole('dialog', { name: 'Edit shipment details' }));
  return { ...view, dialog };
}

/** The server as it answers a change that closes an alarm: signed, or refused naming what lacks. */
function closingOneAlarm(wrongPassword = 'wrong'): Handler<typeof xt1UpdateShipmentAction> {
  return ({ body }) => {
    if (body.password === undefined) {
      return errorReply('SIGNATURE_REQUIRED', CLOSES_ONE, { password: CLOSES_ONE });
    }
    if (body.password === wrongPassword) {
      return errorReply('INVALID_CREDENTIALS', 'The password is not correct.', {
        password: 'The password is not correct.',
      });
    }
    return { record_id: '101' };
  };
}

describe('the reason for change and the change signature [RULE-AUDIT-1, FEAT-E-SIGNATURE]', () => {
  it('asks for a reason before sending a threshold change of a record with alarms', async () => {
    const api = serve([excursionAlarm()]);
    const { user, dialog } = await openDialog();
    const reason = await dialog.findByRole('textbox', { name: /^Reason for change/ });
    expect(descriptionOf(reason)).toBe('Optional: kept in the audit trail');

    await fill(user, dialog.getByRole('textbox', { name: /^High threshold/ }), '10');
    expect(reason.hasAttribute('required')).toBe(true);
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(descriptionOf(reason)).toBe('Enter the reason for this change');
    expect(isInvalid(reason)).toBe(true);
    expect(api.sent(xt1UpdateShipmentAction)).toEqual([]);

    await fill(user, reason, REASON);
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await screen.findByText('Dialog closed');
    expect(api.sent(xt1UpdateShipmentAction)[0]?.body).toMatchObject({
      record_id: '101',
      high_threshold: 10,
      reason: REASON,
    });
  });

  it('shows no reason field for a record without alarms, and sends none', async () => {
    const api = serve([]);
    const { user, dialog } = await openDialog();
    await fill(user, dialog.getByRole('textbox', { name: /^High threshold/ }), '10');
    expect(dialog.queryByRole('textbox', { name: /^Reason for change/ })).toBeNull();
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await screen.findByText('Dialog closed');
    expect(api.sent(xt1UpdateShipmentAction)[0]?.body).not.toHaveProperty('reason');
  });

  it("asks for the signature in the server's words when the change closes an alarm, and signs", async () => {
    const api = serve([excursionAlarm()], closingOneAlarm());
    const { user, dialog } = await openDialog();
    await fill(user, dialog.getByRole('textbox', { name: /^High threshold/ }), '10');
    await fill(user, await dialog.findByRole('textbox', { name: /^Reason for change/ }), REASON);
    await user.click(dialog.getByRole('button', { name: 'Save' }));

    const signature = within(await dialog.findByRole('group', { name: 'Signature' }));
    expect(signature.getByRole('alert').textContent).toBe(CLOSES_ONE);
    expect(signature.getByText(/Signing as/).textContent).toContain(
      'this change and the alarms it closes',
    );
    const sign = dialog.getByRole('button', { name: 'Sign and save' });

    // Meaning and password are both asked for before anything is sent again.
    await user.click(sign);
    const password = signature.getByLabelText(/^Password/);
    expect(descriptionOf(password)).toBe('Enter your password to sign');
    expect(isInvalid(password)).toBe(true);
    expect(signature.getByText('Choose the meaning of your signature')).toBeTruthy();
    expect(api.sent(xt1UpdateShipmentAction)).toHaveLength(1);

    await user.click(signature.getByRole('radio', { name: 'Approved' }));
    await fill(user, password, 'correct horse');
    await user.click(sign);
    await screen.findByText('Dialog closed');
    const [first, second] = api.sent(xt1UpdateShipmentAction).map((r) => r.body);
    expect(first).not.toHaveProperty('password');
    expect(second).toMatchObject({
      high_threshold: 10,
      reason: REASON,
      password: 'correct horse',
      meaning: 'APPROVED',
    });
  });

  it('shows a wrong password under the password and keeps the reason and meaning', async () => {
    const api = serve([excursionAlarm()], closingOneAlarm('wrong'));
    const { user, dialog } = await openDialog();
    await fill(user, dialog.getByRole('textbox', { name: /^High threshold/ }), '10');
    await fill(user, await dialog.findByRole('textbox', { name: /^Reason for change/ }), REASON);
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    const signature = within(await dialog.findByRole('group', { name: 'Signature' }));
    await user.click(signature.getByRole('radio', { name: 'Reviewed' }));
    await fill(user, signature.getByLabelText(/^Password/), 'wrong');
    await user.click(dialog.getByRole('button', { name: 'Sign and save' }));

    const password = signature.getByLabelText(/^Password/);
    await waitFor(() => expect(descriptionOf(password)).toBe('The password is not correct.'));
    expect(isInvalid(password)).toBe(true);
    expect(screen.queryByText('Dialog closed')).toBeNull();
    expect(
      (dialog.getByRole('textbox', { name: /^Reason for change/ }) as HTMLTextAreaElement).value,
    ).toBe(REASON);
    expect((signature.getByRole('radio', { name: 'Reviewed' }) as HTMLInputElement).checked).toBe(
      true,
    );
    expect(api.sent(xt1UpdateShipmentAction)).toHaveLength(2);
  });
});
