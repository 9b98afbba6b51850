import {
  auditReviewClose,
  authSecondFactorGet,
  type TAuditReview,
  type TAuditReviewClosure,
} from '@coldtrace/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { errorReply, stubApi, type ApiStub } from '../../../test/api';
import { secondFactorStatus } from '../../../test/fixtures';
import { descriptionOf, isDisabled, isInvalid } from '../../../test/queries';
import { fill, renderInApp } from '../../../test/render';
import { CloseReviewDialog } from './close-review-dialog';

/** October 2026's review: ended, due, 7 entries by people, 3 of them high risk, all marked. */
function reviewOf(over: Partial<TAuditReview> = {}): TAuditReview {
  return {
    period: '2026-10',
    start: '2026-10-01T00:00:00Z',
    end: '2026-11-01T00:00:00Z',
    due: '2026-11-15T00:00:00Z',
    state: 'due',
    counts: { high: 3, medium: 2, low: 2, reviewed: 3, unreviewed_high: 0, system: 40 },
    entries: [],
    closure: null,
    ...over,
  };
}

const CLOSURE: TAuditReviewClosure = {
  signed_by: 'dana',
  signed_at: '2026-11-03T09:00:00Z',
  meaning: 'REVIEWED',
  comment: 'October reviewed',
  second_factor: null,
  entries: 7,
  reviewed: 3,
};

/** The dialog as the review page opens it; closing it says so on the page. */
function OpenDialog({ review }: { review: TAuditReview }) {
  const [open, setOpen] = useState(true);
  if (!open) return <p>Dialog closed</p>;
  return <CloseReviewDialog review={review} timeZone="UTC" onClose={() => setOpen(false)} />;
}

function serveClose(api: ApiStub): ApiStub {
  return api.on(auditReviewClose, ({ body }) =>
    reviewOf({ state: 'closed', closure: { ...CLOSURE, comment: body.comment } }),
  );
}

async function openDialog(review = reviewOf()) {
  const view = renderInApp(<OpenDialog review={review} />);
  const dialog = await screen.findByRole('dialog', { name: 'Close the review of October 2026' });
  return { ...view, dialog: within(dialog) };
}

describe('the close-review signature dialog [FEAT-E-SIGNATURE, RULE-AUDIT-1]', () => {
  it('says what the signature means and signs only with a comment and the password', async () => {
    const api = serveClose(stubApi());
    const { user, dialog } = await openDialog();
    const sign = dialog.getByRole('button', { name: 'Sign and close' });
    const comment = dialog.getByRole('textbox', { name: /^Comment/ });
    const password = dialog.getByLabelText(/^Password/);

    expect(dialog.getByText(/Your signature means/).textContent).toContain('means Reviewed');
    expect(dialog.getByText(/Signing as/).textContent).toContain('the review of October 2026');
    expect(dialog.queryByRole('note')).toBeNull();
    expect(isDisabled(sign)).toBe(true);

    // A comment of spaces is no comment; no password is no signature; Enter sends nothing.
    await fill(user, comment, '   ');
    await fill(user, password, 'correct horse');
    expect(isDisabled(sign)).toBe(true);
    await user.type(password, '{Enter}');
    await fill(user, comment, ' October reviewed ');
    await user.clear(password);
    expect(isDisabled(sign)).toBe(true);
    await fill(user, password, 'correct horse');
    expect(isDisabled(sign)).toBe(false);
    await user.click(sign);

    await screen.findByText('Dialog closed');
    // The Enter above sent nothing: the one closing is this one, the comment trimmed.
    expect(api.sent(auditReviewClose).map((r) => r.body)).toEqual([
      {
        period: '2026-10',
        comment: 'October reviewed',
        password: 'correct horse',
        client_type: 'WEB',
      },
    ]);
  });

  it('says before signing what stands in the way: a month not ended, high-risk entries unmarked', async () => {
    stubApi();
    const { dialog } = await openDialog(
      reviewOf({
        state: 'open',
        end: '2026-12-01T00:00:00Z',
        counts: { high: 4, medium: 0, low: 1, reviewed: 1, unreviewed_high: 3, system: 0 },
      }),
    );
    const notes = dialog.getAllByRole('note').map((n) => n.textContent);
    expect(notes).toEqual([
      'October 2026 has not ended: its review can be closed from 12/01/2026, 00:00:00.',
      '3 high-risk entries are not reviewed yet: mark them before closing.',
    ]);
    expect(dialog.getByText(/Your signature means/).textContent).toMatch(
      /^5 entries by people, 1 marked reviewed\./,
    );
  });

  it('shows a wrong password under the password, clears it and keeps the comment', async () => {
    const api = stubApi().on(
      auditReviewClose,
      errorReply('INVALID_CREDENTIALS', 'The password is not correct.', {
        password: 'The password is not correct.',
      }),
    );
    const { user, dialog } = await openDialog();
    await fill(user, dialog.getByRole('textbox', { name: /^Comment/ }), 'October reviewed');
    await fill(user, dialog.getByLabelText(/^Password/), 'wrong');
    await user.click(dialog.getByRole('button', { name: 'Sign and close' }));

    const password = dialog.getByLabelText(/^Password/);
    await waitFor(() => expect(isInvalid(password)).toBe(true));
    expect(descriptionOf(password)).toBe('The password is not correct.');
    expect((password as HTMLInputElement).value).toBe('');
    expect(dialog.queryByRole('alert')).toBeNull();
    expect((dialog.getByRole('textbox', { name: /^Comment/ }) as HTMLTextAreaElement).value).toBe(
      'October reviewed',
    );
    // Typing the password again takes the message away.
    await fill(user, password, 'correct horse');
    expect(isInvalid(password)).toBe(false);
    expect(api.sent(auditReviewClose)).toHaveLength(1);
  });

  it("shows the server's refusal in words when the month cannot be closed", async () => {
    stubApi().on(
      auditReviewClose,
      errorReply('CONFLICT', '2 high-risk entries of 2026-10 are not reviewed yet.'),
    );
    const { user, dialog } = await openDialog();
    await fill(user, dialog.getByRole('textbox', { name: /^Comment/ }), 'October reviewed');
    await fill(user, dialog.getByLabelText(/^Password/), 'correct horse');
    await user.click(dialog.getByRole('button', { name: 'Sign and close' }));

    expect((await dialog.findByRole('alert')).textContent).toBe(
      'Could not close the review: 2 high-risk entries of 2026-10 are not reviewed yet.',
    );
    expect(screen.queryByText('Dialog closed')).toBeNull();
  });

  it('asks for the authenticator code where the organization requires it, and sends it', async () => {
    const api = serveClose(
      stubApi().on(
        authSecondFactorGet,
        secondFactorStatus({ enabled: true, required_for_signing: true, recovery_codes_left: 10 }),
      ),
    );
    const { user, dialog } = await openDialog();
    const code = await dialog.findByRole('textbox', { name: /^Authenticator code/ });
    expect((code as HTMLInputElement).required).toBe(true);
    await fill(user, dialog.getByRole('textbox', { name: /^Comment/ }), 'October reviewed');
    await fill(user, dialog.getByLabelText(/^Password/), 'correct horse');
    await fill(user, code, ' 123456 ');
    await user.click(dialog.getByRole('button', { name: 'Sign and close' }));

    await screen.findByText('Dialog closed');
    expect(api.sent(auditReviewClose)[0]?.body).toMatchObject({ second_factor_code: '123456' });
  });
});
