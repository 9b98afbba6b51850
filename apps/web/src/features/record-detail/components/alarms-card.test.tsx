import {
  SECOND_FACTOR_CODE_REQUIRED_MESSAGE,
  SECOND_FACTOR_NOT_ENROLLED_MESSAGE,
  authSecondFactorGet,
  xt1AlarmAcknowledge,
  xt1AlarmDismiss,
  xt1Alarms,
  type TAlarmAcknowledgeUpload,
  type TExcursionAlarm,
} from '@coldtrace/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorReply, stubApi, type ApiStub } from '../../../test/api';
import { excursionAlarm, secondFactorStatus } from '../../../test/fixtures';
import { descriptionOf, isDisabled, isInvalid } from '../../../test/queries';
import { fill, renderInApp } from '../../../test/render';
import { useRecordAlarms } from '../api/get-record-alarms';
import { useSecondFactorStatus } from '../../../components/second-factor-field';
import { AlarmsCard } from './alarms-card';

/** The card as the record page wires it: its own alarms query, record 101, °C, UTC. */
function RecordAlarms({ canAct = true }: { canAct?: boolean }) {
  const query = useRecordAlarms('101');
  // Drawn in the same render as the dialog's own use of it: proof that the status has arrived.
  const secondFactor = useSecondFactorStatus();
  return (
    <>
      {secondFactor.isSuccess ? <p>Second factor status loaded</p> : null}
      <AlarmsCard recordId="101" query={query} unit="C" timeZone="UTC" canAct={canAct} />
    </>
  );
}

/**
 * The alarms the server holds (`server.alarms`): the list answers them, an
 * acknowledgement signs them as Dana Quinn and answers the signed ones.
 */
function serveAlarms(api: ApiStub, alarms: TExcursionAlarm[]) {
  const server = { alarms };
  api
    .on(xt1Alarms, () => server.alarms)
    .on(xt1AlarmAcknowledge, ({ body }) => {
      const { alarm_ids: ids = [], comment, meaning } = body;
      const named = (a: TExcursionAlarm) => a.id !== undefined && ids.includes(a.id);
      server.alarms = server.alarms.map((a) =>
        named(a)
          ? excursionAlarm({
              ...a,
              acknowledged: true,
              acknowledged_by: 'dana.quinn',
              acknowledged_at: '2026-11-21T09:15:00Z',
              acknowledge_comment: comment,
              acknowledge_client_type: 'WEB',
              signature: {
                user_id: '7',
                printed_name: 'Dana Quinn',
                signed_at: '2026-11-21T09:15:00Z',
                meaning,
                comment,
                client_type: 'WEB',
                second_factor: null,
              },
            })
          : a,
      );
      return server.alarms.filter(named);
    });
  return server;
}

async function openAcknowledge(user: ReturnType<typeof renderInApp>['user'], index = 0) {
  const buttons = await screen.findAllByRole('button', { name: 'Acknowledge' });
  await user.click(buttons[index]!);
  return screen.findByRole('dialog', { name: /^Acknowledge/ });
}

describe('the alarms card [RULE-AUDIT-1, RULE-ALARM-6]', () => {
  it('lists each alarm with its figures and the counts of the record', async () => {
    const api = stubApi();
    serveAlarms(api, [
      excursionAlarm(),
      excursionAlarm({
        id: '12',
        above_or_below: 'BELOW',
        start_time: '2026-11-20T12:00:00Z',
        end_time: '2026-11-20T12:10:00Z',
        duration: 600,
        lowest_recorded_temperature: 1.2,
        dismissed: true,
        dismissed_by: 'sam.ortiz',
        dismiss_reason: 'Probe out of the box',
      }),
    ]);
    renderInApp(<RecordAlarms />);

    const items = await screen.findAllByTestId('alarm-item');
    expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual([
      'High excursion',
      'Low excursion',
    ]);
    const high = within(items[0]!);
    expect(high.getByText('11/20/2026, 08:00:00 – 11/20/2026, 08:30:00')).toBeTruthy();
    expect(high.getByText('30m')).toBeTruthy();
    expect(high.getByText('9.4 °C')).toBeTruthy();
    expect(within(items[1]!).getByTestId('alarm-dismissed').textContent).toBe(
      'Dismissed by sam.ortiz: Probe out of the box',
    );
    expect(screen.getByText('2 alarms · 0 acknowledged · 1 dismissed')).toBeTruthy();
    // The API was asked for every alarm of the record, acknowledged, dismissed and closed too.
    expect(api.sent(xt1Alarms)[0]?.query).toEqual({
      record_id: '101',
      include_acknowledged: 'true',
      include_dismissed: 'true',
      include_closed: 'true',
    });
  });

  it('says so when the record has no alarm', async () => {
    serveAlarms(stubApi(), []);
    renderInApp(<RecordAlarms />);
    expect(
      await screen.findByText(
        'No alarms for this record: no excursion beyond its thresholds so far.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('0 alarms · 0 acknowledged · 0 dismissed')).toBeTruthy();
  });

  it('offers no action to whoever may not act on alarms', async () => {
    serveAlarms(stubApi(), [excursionAlarm()]);
    renderInApp(<RecordAlarms canAct={false} />);
    await screen.findByTestId('alarm-item');
    expect(screen.queryByRole('button', { name: 'Acknowledge' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Dismiss' })).toBeNull();
  });
});

describe('the acknowledge signature dialog [FEAT-E-SIGNATURE, RULE-AUDIT-1]', () => {
  it('signs only with a meaning, a comment and the password', async () => {
    const api = stubApi();
    serveAlarms(api, [excursionAlarm()]);
    const { user } = renderInApp(<RecordAlarms />);
    const dialog = within(await openAcknowledge(user));
    const sign = dialog.getByRole('button', { name: 'Sign and acknowledge' });
    const comment = dialog.getByRole('textbox', { name: /^Comment/ });
    const password = dialog.getByLabelText(/^Password/);

    expect(dialog.getByText('High excursion from 11/20/2026, 08:00:00')).toBeTruthy();
    expect(isDisabled(sign)).toBe(true);
    expect(descriptionOf(comment)).toBe('A comment is required');

    // Comment and password, but no meaning: refused, and Enter sends nothing.
    await fill(user, comment, 'Door left open at the dock');
    await fill(user, password, 'correct horse');
    expect(descriptionOf(comment)).toBe('26 / 2,000 characters');
    expect(isDisabled(sign)).toBe(true);
    await user.type(password, '{Enter}');
    await user.click(dialog.getByRole('radio', { name: 'Reviewed' }));
    expect(isDisabled(sign)).toBe(false);

    // A comment of spaces is no comment: named again, refused again.
    await fill(user, comment, '   ');
    expect(descriptionOf(comment)).toBe('A comment is required');
    expect(isDisabled(sign)).toBe(true);
    await fill(user, comment, 'Door left open at the dock');

    // No password: refused.
    await user.clear(password);
    expect(isDisabled(sign)).toBe(true);
    await fill(user, password, 'correct horse');
    await user.click(sign);

    await screen.findByTestId('alarm-signature');
    expect(screen.queryByRole('dialog')).toBeNull();
    // The Enter above sent nothing: the one acknowledgement is this one.
    expect(api.sent(xt1AlarmAcknowledge)).toHaveLength(1);
  });

  it('sends the alarm, the comment, the password, the meaning and client type WEB, then shows the signature', async () => {
    const api = stubApi();
    serveAlarms(api, [excursionAlarm()]);
    const { user } = renderInApp(<RecordAlarms />);
    const dialog = within(await openAcknowledge(user));
    await user.click(dialog.getByRole('radio', { name: 'Approved' }));
    await fill(user, dialog.getByRole('textbox', { name: /^Comment/ }), '  Checked the logger  ');
    await fill(user, dialog.getByLabelText(/^Password/), 'correct horse');
    await user.click(dialog.getByRole('button', { name: 'Sign and acknowledge' }));

    const signature = await screen.findByTestId('alarm-signature');
    expect(signature.textContent).toBe(
      'Signed by Dana Quinn on 11/21/2026, 09:15:00 — Approved: Checked the logger',
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    const [sent, ...more] = api.sent(xt1AlarmAcknowledge);
    expect(more).toEqual([]);
    expect(sent?.headers['x-csrftoken']).toBe('test-csrf-token');
    expect(sent?.body).toEqual({
      record_ids: ['101'],
      alarm_ids: ['11'],
      comment: 'Checked the logger',
      timestamp: expect.any(String),
      client_type: 'WEB',
      password: 'correct horse',
      meaning: 'APPROVED',
    });
    // The reply shows at once (no button to sign again), and the alarms are asked for again.
    await waitFor(() => expect(api.sent(xt1Alarms)).toHaveLength(2));
    expect(screen.queryByRole('button', { name: 'Acknowledge' })).toBeNull();
    expect(screen.getByText('1 alarm · 1 acknowledged · 0 dismissed')).toBeTruthy();
  });

  it('acknowledges the selected alarms in one signature', async () => {
    const api = stubApi();
    serveAlarms(api, [
      excursionAlarm(),
      excursionAlarm({ id: '12', start_time: '2026-11-20T14:00:00Z' }),
      excursionAlarm({ id: '13', start_time: '2026-11-20T18:00:00Z' }),
    ]);
    const { user } = renderInApp(<RecordAlarms />);
    const selected = await screen.findByRole('button', { name: 'Acknowledge selected' });
    expect(isDisabled(selected)).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: /from 11\/20\/2026, 08:00:00$/ }));
    await user.click(screen.getByRole('checkbox', { name: /from 11\/20\/2026, 18:00:00$/ }));
    await user.click(screen.getByRole('button', { name: 'Acknowledge selected (2)' }));

    const dialog = within(await screen.findByRole('dialog', { name: 'Acknowledge 2 alarms' }));
    expect(dialog.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'High excursion from 11/20/2026, 08:00:00',
      'High excursion from 11/20/2026, 18:00:00',
    ]);
    await user.click(dialog.getByRole('radio', { name: 'Reviewed' }));
    await fill(user, dialog.getByRole('textbox', { name: /^Comment/ }), 'Same door event');
    await fill(user, dialog.getByLabelText(/^Password/), 'correct horse');
    await user.click(dialog.getByRole('button', { name: 'Sign and acknowledge' }));

    await waitFor(() => expect(screen.getAllByTestId('alarm-signature')).toHaveLength(2));
    expect(
      api.sent(xt1AlarmAcknowledge).map((r) => (r.body as TAlarmAcknowledgeUpload).alarm_ids),
    ).toEqual([['11', '13']]);
  });

  it("shows the server's wrong-password answer under the password, and asks for it again", async () => {
    const api = stubApi();
    serveAlarms(api, [excursionAlarm()]);
    api.on(
      xt1AlarmAcknowledge,
      errorReply('INVALID_CREDENTIALS', 'The password is not correct.', {
        password: 'The password is not correct.',
      }),
    );
    const { user } = renderInApp(<RecordAlarms />);
    const dialog = within(await openAcknowledge(user));
    await user.click(dialog.getByRole('radio', { name: 'Reviewed' }));
    await fill(user, dialog.getByRole('textbox', { name: /^Comment/ }), 'Checked');
    await fill(user, dialog.getByLabelText(/^Password/), 'wrong');
    await user.click(dialog.getByRole('button', { name: 'Sign and acknowledge' }));

    const password = dialog.getByLabelText(/^Password/);
    await waitFor(() => expect(isInvalid(password)).toBe(true));
    expect(descriptionOf(password)).toBe('The password is not correct.');
    expect((password as HTMLInputElement).value).toBe('');
    // Under the field, not as a message for the whole form; the comment is kept.
    expect(dialog.queryByRole('alert')).toBeNull();
    expect(isInvalid(dialog.getByRole('textbox', { name: /^Comment/ }))).toBe(false);
    expect((dialog.getByRole('textbox', { name: /^Comment/ }) as HTMLTextAreaElement).value).toBe(
      'Checked',
    );
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it("shows any other refusal as the dialog's message", async () => {
    const api = stubApi();
    serveAlarms(api, [excursionAlarm()]);
    api.on(
      xt1AlarmAcknowledge,
      errorReply('FORBIDDEN', 'You do not have permission to perform this action.'),
    );
    const { user } = renderInApp(<RecordAlarms />);
    const dialog = within(await openAcknowledge(user));
    await user.click(dialog.getByRole('radio', { name: 'Reviewed' }));
    await fill(user, dialog.getByRole('textbox', { name: /^Comment/ }), 'Checked');
    await fill(user, dialog.getByLabelText(/^Password/), 'correct horse');
    await user.click(dialog.getByRole('button', { name: 'Sign and acknowledge' }));

    expect((await dialog.findByRole('alert')).textContent).toBe(
      'Could not acknowledge: You do not have permission to perform this action.',
    );
  });
});

describe('the second factor of the acknowledge signature [FEAT-SECOND-FACTOR, FEAT-E-SIGNATURE]', () => {
  it('asks for the authenticator code when the organization requires it, and sends it', async () => {
    const api = stubApi().on(
      authSecondFactorGet,
      secondFactorStatus({ enabled: true, required_for_signing: true, recovery_codes_left: 10 }),
    );
    serveAlarms(api, [excursionAlarm()]);
    const { user } = renderInApp(<RecordAlarms />);
    const dialog = within(await openAcknowledge(user));
    const code = await dialog.findByRole('textbox', { name: /^Authenticator code/ });
    expect((code as HTMLInputElement).required).toBe(true);
    expect(descriptionOf(code)).toBe(
      'Required by your organization: the 6-digit code from your authenticator app, or a recovery code',
    );

    await user.click(dialog.getByRole('radio', { name: 'Reviewed' }));
    await fill(user, dialog.getByRole('textbox', { name: /^Comment/ }), 'Checked');
    await fill(user, dialog.getByLabelText(/^Password/), 'correct horse');
    await fill(user, code, ' 123456 ');
    await user.click(dialog.getByRole('button', { name: 'Sign and acknowledge' }));

    await screen.findByTestId('alarm-signature');
    expect(api.sent(xt1AlarmAcknowledge)[0]?.body).toMatchObject({ second_factor_code: '123456' });
  });

  it("shows the server's answer about a missing code under the code field", async () => {
    const api = stubApi().on(
      authSecondFactorGet,
      secondFactorStatus({ enabled: true, required_for_signing: true }),
    );
    serveAlarms(api, [excursionAlarm()]);
    api.on(
      xt1AlarmAcknowledge,
      errorReply('SECOND_FACTOR_REQUIRED', SECOND_FACTOR_CODE_REQUIRED_MESSAGE, {
        second_factor_code: SECOND_FACTOR_CODE_REQUIRED_MESSAGE,
      }),
    );
    const { user } = renderInApp(<RecordAlarms />);
    const dialog = within(await openAcknowledge(user));
    await dialog.findByRole('textbox', { name: /^Authenticator code/ });
    await user.click(dialog.getByRole('radio', { name: 'Reviewed' }));
    await fill(user, dialog.getByRole('textbox', { name: /^Comment/ }), 'Checked');
    await fill(user, dialog.getByLabelText(/^Password/), 'correct horse');
    await user.click(dialog.getByRole('button', { name: 'Sign and acknowledge' }));

    const code = dialog.getByRole('textbox', { name: /^Authenticator code/ });
    await waitFor(() => expect(isInvalid(code)).toBe(true));
    expect(descriptionOf(code)).toBe(SECOND_FACTOR_CODE_REQUIRED_MESSAGE);
    expect(isInvalid(dialog.getByLabelText(/^Password/))).toBe(false);
    expect(api.sent(xt1AlarmAcknowledge)[0]?.body).not.toHaveProperty('second_factor_code');
  });

  it('tells a signer who must give a code but has not enrolled where to enrol', async () => {
    const api = stubApi().on(
      authSecondFactorGet,
      secondFactorStatus({ required_for_signing: true }),
    );
    serveAlarms(api, [excursionAlarm()]);
    const { user } = renderInApp(<RecordAlarms />);
    const dialog = within(await openAcknowledge(user));
    expect((await dialog.findByRole('alert')).textContent).toBe(SECOND_FACTOR_NOT_ENROLLED_MESSAGE);
    expect(dialog.queryByRole('textbox', { name: /^Authenticator code/ })).toBeNull();
  });

  it('shows no code field when the signer has none and the organization asks for none', async () => {
    serveAlarms(stubApi(), [excursionAlarm()]);
    const { user } = renderInApp(<RecordAlarms />);
    const dialog = within(await openAcknowledge(user));
    // Once the status has arrived, there is still no code field.
    await screen.findByText('Second factor status loaded');
    expect(dialog.queryByRole('textbox', { name: /^Authenticator code/ })).toBeNull();
  });
});

describe('the dismiss dialog [RULE-AUDIT-1, RULE-ALARM-6]', () => {
  it('needs a reason, shows the server refusal under it, and sends the alarm and the reason', async () => {
    const api = stubApi();
    const server = serveAlarms(api, [excursionAlarm()]);
    api.on(xt1AlarmDismiss, ({ body }) => {
      const reason = body.reason ?? '';
      // The first try is refused: a 400 naming the reason, whatever its words, shows on the field.
      if (api.sent(xt1AlarmDismiss).length === 1) {
        return errorReply('VALIDATION_ERROR', 'Invalid body', {
          reason: 'Write what happened, not a placeholder',
        });
      }
      server.alarms = [
        excursionAlarm({ dismissed: true, dismissed_by: 'dana.quinn', dismiss_reason: reason }),
      ];
      return server.alarms;
    });
    const { user } = renderInApp(<RecordAlarms />);
    await user.click(await screen.findByRole('button', { name: 'Dismiss' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Dismiss alarm?' }));
    const reason = dialog.getByRole('textbox', { name: /^Reason/ });
    const dismiss = dialog.getByRole('button', { name: 'Dismiss' });
    expect(isDisabled(dismiss)).toBe(true);
    expect(descriptionOf(reason)).toBe('Why is this alarm dismissed? A reason is required');

    await fill(user, reason, 'n/a');
    await user.click(dismiss);
    await waitFor(() => expect(isInvalid(reason)).toBe(true));
    expect(descriptionOf(reason)).toBe('Write what happened, not a placeholder');

    await fill(user, reason, 'Logger tested in the lab');
    expect(isInvalid(reason)).toBe(false);
    await user.click(dismiss);
    expect((await screen.findByTestId('alarm-dismissed')).textContent).toBe(
      'Dismissed by dana.quinn: Logger tested in the lab',
    );
    expect(api.sent(xt1AlarmDismiss).map((r) => r.body)).toEqual([
      { record_ids: ['101'], alarm_ids: ['11'], reason: 'n/a', client_type: 'WEB' },
      {
        record_ids: ['101'],
        alarm_ids: ['11'],
        reason: 'Logger tested in the lab',
        client_type: 'WEB',
      },
    ]);
  });
});
