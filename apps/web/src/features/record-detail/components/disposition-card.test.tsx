import {
  DISPOSITION_MEANINGS,
  authOrgSettingsGet,
  authSessionGet,
  inTransitReleaseMessage,
  unacknowledgedReleaseMessage,
  xt1Alarms,
  xt1Record,
  xt1RecordDisposition,
  xt1RecordDispositions,
  type TRecord,
  type TRecordDisposition,
} from '@coldtrace/contract';
import { useQuery } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorReply, stubApi, type ApiStub } from '../../../test/api';
import { dispositionOf, excursionAlarm, recordOf, sessionUser } from '../../../test/fixtures';
import { descriptionOf, isDisabled } from '../../../test/queries';
import { fill, renderInApp } from '../../../test/render';
import { useRecordAlarms } from '../api/get-record-alarms';
import { recordQueryOptions } from '../api/get-record';
import { useCurrentUser } from '../../session';
import { DispositionCard } from './disposition-card';

/** The card as the record page wires it: record 101 and its alarms from their queries. */
function RecordDisposition() {
  const record = useQuery(recordQueryOptions('101'));
  const alarms = useRecordAlarms('101');
  // Drawn in the same render as the card's own use of the session: proof that it has arrived.
  const user = useCurrentUser();
  if (!record.data) return <p>Loading</p>;
  return (
    <>
      {user ? <p>Signed in as {user.username}</p> : null}
      <DispositionCard
        record={{ ...record.data, id: record.data.id ?? '101' }}
        alarms={alarms.data}
        timeZone="UTC"
      />
    </>
  );
}

const IN_TRANSIT: Partial<TRecord> = {
  stop_time: null,
  trip: { begin_time: '2026-11-20T06:00:00Z', end_time: null, trip_status: 'IN_TRANSIT' },
};

/**
 * Record 101 and its decisions as the server holds them; a decision signs as
 * Dana Quinn, becomes the current one and answers the record.
 */
function serveRecord(api: ApiStub, record: TRecord, history: TRecordDisposition[] = []) {
  const server = { record, history };
  api
    .on(xt1Record, () => server.record)
    .on(xt1Alarms, [])
    .on(xt1RecordDispositions, () => server.history)
    .on(xt1RecordDisposition, ({ body }) => {
      const { decision, comment, transit_reason } = body;
      const meaning = DISPOSITION_MEANINGS[decision];
      const signed = dispositionOf({
        id: String(server.history.length + 5),
        decision,
        comment,
        meaning,
        transit_reason: transit_reason ?? null,
      });
      server.history = [signed, ...server.history];
      server.record = { ...server.record, disposition: signed };
      return server.record;
    });
  return server;
}

async function openDecision(user: ReturnType<typeof renderInApp>['user'], name = 'Decide') {
  await user.click(await screen.findByRole('button', { name }));
  return within(await screen.findByRole('dialog', { name: 'Sign a release decision' }));
}

describe('the release decision card [RULE-AUDIT-4, FEAT-E-SIGNATURE]', () => {
  it('says there is no decision yet and how many alarms hold a release back', async () => {
    const api = stubApi();
    serveRecord(api, recordOf());
    api.on(xt1Alarms, [excursionAlarm(), excursionAlarm({ id: '12', acknowledged: true })]);
    renderInApp(<RecordDisposition />);
    expect(
      await screen.findByText(
        'No release decision yet. 1 alarm awaits acknowledgement before the goods can be released.',
      ),
    ).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Decide' })).toBeTruthy();
  });

  it('offers no decision to whoever may not edit reports', async () => {
    const api = stubApi().on(authSessionGet, sessionUser({ permissions: ['sysDataRead'] }));
    serveRecord(api, recordOf({ disposition: dispositionOf() }), [dispositionOf()]);
    renderInApp(<RecordDisposition />);
    const current = await screen.findByRole('group', { name: 'Current decision' });
    expect(within(current).getByText('Quarantined')).toBeTruthy();
    // Once the session has arrived, still no button.
    await screen.findByText('Signed in as dana.quinn');
    expect(screen.queryByRole('button', { name: /decision|Decide/ })).toBeNull();
  });

  it('offers three distinct decisions, each with the meaning it is signed with', async () => {
    serveRecord(stubApi(), recordOf());
    const { user } = renderInApp(<RecordDisposition />);
    const dialog = await openDecision(user);
    const radios = dialog.getAllByRole('radio') as HTMLInputElement[];
    expect(radios.map((r) => r.labels?.[0]?.textContent)).toEqual([
      'Release',
      'Quarantine',
      'Reject',
    ]);
    expect(new Set(radios.map((r) => r.value))).toEqual(
      new Set(['RELEASED', 'QUARANTINED', 'REJECTED']),
    );
    expect(new Set(radios.map((r) => r.name)).size).toBe(1);
    for (const [choice, meaning] of [
      ['Quarantine', 'Signed as review'],
      ['Reject', 'Signed as rejection'],
      ['Release', 'Signed as approval'],
    ] as const) {
      await user.click(dialog.getByRole('radio', { name: choice }));
      expect(radios.filter((r) => r.checked).map((r) => r.labels?.[0]?.textContent)).toEqual([
        choice,
      ]);
      expect(dialog.getByText(meaning)).toBeTruthy();
    }
  });

  it('names every missing input, takes the focus to the first, and signs once they are given', async () => {
    const api = stubApi();
    serveRecord(api, recordOf());
    const { user } = renderInApp(<RecordDisposition />);
    const dialog = await openDecision(user);
    await user.click(dialog.getByRole('button', { name: 'Sign decision' }));

    expect(dialog.getByRole('alert').textContent).toBe('Choose a decision');
    const comment = dialog.getByRole('textbox', { name: /^Comment/ });
    const password = dialog.getByLabelText(/^Password/);
    expect(descriptionOf(comment)).toBe('A comment is required');
    expect(descriptionOf(password)).toBe('Enter your password to sign');
    await waitFor(() => expect(document.activeElement).toBe(comment));

    await user.click(dialog.getByRole('radio', { name: 'Quarantine' }));
    await fill(user, comment, ' Hold for QA ');
    await fill(user, password, 'correct horse');
    await user.click(dialog.getByRole('button', { name: 'Sign decision' }));

    // The chip of the new decision, its signature line and comment; the dialog is gone.
    const current = await screen.findByRole('group', { name: 'Current decision' });
    expect(within(current).getByText('Quarantined')).toBeTruthy();
    expect(
      within(current).getByText('Signed by Dana Quinn, 11/21/2026, 12:00:00 · Reviewed'),
    ).toBeTruthy();
    expect(within(current).getByText('Hold for QA')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'New decision' })).toBeTruthy();
    // The first submit sent nothing: the one request is the complete one.
    expect(api.sent(xt1RecordDisposition).map((r) => r.body)).toEqual([
      {
        record_id: '101',
        client_type: 'WEB',
        decision: 'QUARANTINED',
        comment: 'Hold for QA',
        password: 'correct horse',
      },
    ]);
  });

  it('lists the decision it replaces as superseded', async () => {
    const first = dispositionOf();
    const api = stubApi();
    serveRecord(api, recordOf({ disposition: first }), [first]);
    const { user } = renderInApp(<RecordDisposition />);
    const dialog = await openDecision(user, 'New decision');
    await user.click(dialog.getByRole('radio', { name: 'Release' }));
    await fill(user, dialog.getByRole('textbox', { name: /^Comment/ }), 'QA read the excursion');
    await fill(user, dialog.getByLabelText(/^Password/), 'correct horse');
    await user.click(dialog.getByRole('button', { name: 'Sign decision' }));

    const current = await screen.findByRole('group', { name: 'Current decision' });
    await within(current).findByText('Released');
    const earlier = await screen.findByRole('heading', { name: 'Earlier decisions (superseded)' });
    const list = within(earlier.parentElement!);
    await list.findByText('Hold until QA has read the excursion');
    expect(list.getByText('Quarantined')).toBeTruthy();
  });
});

describe('releasing before the trip has ended [RULE-AUDIT-4]', () => {
  it('cannot choose Release while alarms await acknowledgement, and says why', async () => {
    const api = stubApi();
    serveRecord(api, recordOf());
    api.on(xt1Alarms, [excursionAlarm()]);
    const { user } = renderInApp(<RecordDisposition />);
    await screen.findByText(/1 alarm awaits acknowledgement/);
    const dialog = await openDecision(user);
    expect(isDisabled(dialog.getByRole('radio', { name: 'Release' }))).toBe(true);
    expect(isDisabled(dialog.getByRole('radio', { name: 'Quarantine' }))).toBe(false);
    expect(dialog.getByText(unacknowledgedReleaseMessage(1))).toBeTruthy();
  });

  it('cannot choose Release for a record in transit unless the organization allows it', async () => {
    serveRecord(stubApi(), recordOf(IN_TRANSIT));
    const { user } = renderInApp(<RecordDisposition />);
    const dialog = await openDecision(user);
    expect(isDisabled(dialog.getByRole('radio', { name: 'Release' }))).toBe(true);
    expect(dialog.getByText(inTransitReleaseMessage(false))).toBeTruthy();
  });

  it("asks for the transit reason where allowed, sends it, and shows the server's refusal", async () => {
    const api = stubApi().on(authOrgSettingsGet, { allow_release_in_transit: true });
    serveRecord(api, recordOf(IN_TRANSIT));
    // Meanwhile an administrator turned the setting off: the server refuses (409, naming decision).
    api.on(
      xt1RecordDisposition,
      errorReply('CONFLICT', inTransitReleaseMessage(false), {
        decision: inTransitReleaseMessage(false),
      }),
    );
    const { user } = renderInApp(<RecordDisposition />);
    const dialog = await openDecision(user);
    const release = dialog.getByRole('radio', { name: 'Release' });
    await waitFor(() => expect(isDisabled(release)).toBe(false));
    await user.click(release);
    const reason = dialog.getByRole('textbox', { name: /^Reason for releasing in transit/ });
    await user.click(dialog.getByRole('button', { name: 'Sign decision' }));
    expect(descriptionOf(reason)).toBe('Give the reason for releasing before the trip has ended');

    await fill(user, reason, 'Consignee accepted at the border');
    await fill(user, dialog.getByRole('textbox', { name: /^Comment/ }), 'Within budget');
    await fill(user, dialog.getByLabelText(/^Password/), 'correct horse');
    await user.click(dialog.getByRole('button', { name: 'Sign decision' }));

    expect((await dialog.findByRole('alert')).textContent).toBe(inTransitReleaseMessage(false));
    expect((dialog.getByLabelText(/^Password/) as HTMLInputElement).value).toBe('');
    expect(screen.getByText('No release decision yet.')).toBeTruthy();
    expect(api.sent(xt1RecordDisposition).map((r) => r.body)).toEqual([
      {
        record_id: '101',
        client_type: 'WEB',
        decision: 'RELEASED',
        comment: 'Within budget',
        password: 'correct horse',
        transit_reason: 'Consignee accepted at the border',
      },
    ]);
  });
});
