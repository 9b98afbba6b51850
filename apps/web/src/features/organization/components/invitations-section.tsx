import type { TInvitation } from '@coldtrace/contract';
import { formatDateTime } from '@coldtrace/domain';
import Button from '@mui/material/Button';
import { useMemo } from 'react';
import type { DataColumn } from '../../../components/data-table';
import { EmailText } from '../../../components/email-text';
import { useErrorHandler } from '../../../components/error-handler';
import { SectionCard } from '../../../components/section-card';
import { SectionList } from '../../../components/section-list';
import { useAppSettings } from '../../../lib/app-settings';
import { useInvitations } from '../api/list-invitations';
import { useRevokeInvitation } from '../api/revoke-invitation';

const invitedName = (i: TInvitation) => `${i.first_name} ${i.last_name}`.trim();

/**
 * Manage Users' pending invitations (issue 34): who was invited, with which role, by
 * whom and until when; revoking one kills its link at once.
 */
export function InvitationsSection({
  enabled,
  onRevoked,
}: {
  /** Loads once the members list answered (who may not see members may not see these). */
  enabled: boolean;
  onRevoked: (text: string) => void;
}) {
  const invitations = useInvitations(enabled);
  const revoke = useRevokeInvitation();
  const handleError = useErrorHandler();
  const { timeZone } = useAppSettings();

  const columns = useMemo<DataColumn<TInvitation>[]>(
    () => [
      {
        key: 'email',
        header: 'Email',
        render: (i) => <EmailText email={i.email} />,
        sortValue: (i) => i.email.toLowerCase(),
        minWidth: 180,
        maxWidth: 240,
      },
      {
        key: 'name',
        header: 'Name',
        render: (i) => invitedName(i),
        sortValue: (i) => invitedName(i).toLowerCase(),
        minWidth: 140,
      },
      { key: 'role', header: 'Role', render: (i) => i.role_name, sortValue: (i) => i.role_name },
      {
        key: 'invited_by',
        header: 'Invited by',
        render: (i) => i.invited_by,
        sortValue: (i) => i.invited_by.toLowerCase(),
        minWidth: 130,
      },
      {
        key: 'created',
        header: 'Sent',
        nowrap: true,
        numeric: true,
        render: (i) => formatDateTime(i.created, timeZone),
        sortValue: (i) => Date.parse(i.created),
      },
      {
        key: 'expires',
        header: 'Expires',
        nowrap: true,
        numeric: true,
        render: (i) => formatDateTime(i.expires, timeZone),
        sortValue: (i) => Date.parse(i.expires),
      },
    ],
    [timeZone],
  );

  return (
    <SectionCard
      title="Invitations"
      description="People you invited who have not answered yet. They become members when they accept the link in their e-mail, before it expires."
    >
      <SectionList
        query={invitations}
        what="the invitations"
        label="Invitations"
        columns={columns}
        rowKey={(i) => i.id}
        empty="No pending invitations."
        minWidth={900}
        actions={(i) => (
          <Button
            size="small"
            color="error"
            aria-label={`Revoke the invitation of ${i.email}`}
            disabled={revoke.isPending}
            onClick={() =>
              revoke.mutate(i.id, {
                onSuccess: () => onRevoked(`The invitation of ${i.email} is revoked.`),
                onError: (error) => handleError(error, 'Revoking the invitation failed'),
              })
            }
          >
            Revoke
          </Button>
        )}
      />
    </SectionCard>
  );
}
