import type { TRole, TUserSmall } from '@coldtrace/contract';
import { formatDateTime } from '@coldtrace/domain';
import PersonAddOutlined from '@mui/icons-material/PersonAddOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMemo, useState } from 'react';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { EmptyState } from '../../../components/empty-state';
import { useErrorHandler } from '../../../components/error-handler';
import { LoadError } from '../../../components/load-error';
import { userColumns } from '../../../components/user-columns';
import { Page } from '../../../components/page';
import { SuccessSnackbar, useNotice } from '../../../components/success-snackbar';
import { useAppSettings } from '../../../lib/app-settings';
import { sessionOrganization } from '../../../lib/session';
import { useCurrentUser } from '../../session';
import { useChangeUserRole } from '../api/change-user-role';
import { useUsers } from '../api/list-users';
import { useRoles } from '../api/list-roles';
import { useSuspendUser } from '../api/suspend-user';
import { registrationNotice, suspensionNotice } from '../member-notices';
import { InvitationsSection } from './invitations-section';
import { NoAccess } from './no-access';
import { RegisterUserDialog } from './register-user-dialog';

const fullName = (u: TUserSmall) => `${u.first_name ?? ''} ${u.last_name ?? ''}`.trim();

/**
 * /organization/admin (spec sections 2, 6, 7): the members of the session
 * organization, registering a user (an invitation, issue 34), changing a role,
 * suspending and reactivating a membership, and the pending invitations.
 * A 403 on the list means the user may not view users.
 */
export function ManageUsersPage() {
  const me = useCurrentUser();
  const organization = sessionOrganization(me);
  const { timeZone } = useAppSettings();
  const users = useUsers();
  const roles = useRoles(users.data != null);
  const changeRole = useChangeUserRole();
  const suspend = useSuspendUser();
  const handleError = useErrorHandler();
  const [registering, setRegistering] = useState(false);
  const { notice, say, close } = useNotice();
  const organizationName = organization?.name ?? 'this organization';
  const roleOf = (u: TUserSmall) =>
    u.role_memberships?.find((m) => m.organization_id === organization?.id);

  const columns = useMemo<DataColumn<TUserSmall>[]>(
    () => [
      userColumns.username,
      {
        key: 'name',
        header: 'Name',
        render: (u) => fullName(u) || 'No information on file',
        sortValue: (u) => fullName(u).toLowerCase(),
        minWidth: 140,
      },
      userColumns.email,
      {
        key: 'role',
        header: 'Role',
        minWidth: 160,
        sortValue: (u) => roleOf(u)?.role_name ?? '',
        render: (u) => (
          <RoleSelect
            user={u}
            roles={roles.data ?? []}
            currentRoleId={roleOf(u)?.role_id ?? ''}
            currentRoleName={roleOf(u)?.role_name ?? ''}
            // A suspended member's role changes only once they are reactivated.
            disabled={u.id === me?.id || u.is_suspended === true || changeRole.isPending}
            onChange={(roleId) =>
              changeRole.mutate(
                { user_id: u.id, role_id: roleId },
                {
                  onSuccess: (changed) =>
                    say(
                      `${changed.username} is now ${changed.role_memberships?.[0]?.role_name ?? 'changed'}.`,
                    ),
                  onError: (error) => handleError(error, 'Changing the role failed'),
                },
              )
            }
          />
        ),
      },
      userColumns.status,
      {
        key: 'joined',
        header: 'Joined',
        nowrap: true,
        numeric: true,
        sortValue: (u) => (u.date_joined ? Date.parse(u.date_joined) : null),
        render: (u) => (u.date_joined ? formatDateTime(u.date_joined, timeZone) : ''),
      },
    ],
    // roleOf reads organization only; say is stable.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [roles.data, me?.id, changeRole.isPending, timeZone, organization?.id],
  );

  const suspendButton = (u: TUserSmall) => {
    if (u.id === me?.id) return null;
    const suspended = u.is_suspended === true;
    const verb = suspended ? 'Reactivate' : 'Suspend';
    return (
      <Button
        size="small"
        color={suspended ? 'primary' : 'error'}
        aria-label={`${verb} ${u.username}`}
        disabled={suspend.isPending}
        onClick={() =>
          suspend.mutate(
            { user_id: u.id, is_suspended: !suspended },
            {
              onSuccess: (changed) =>
                say(suspensionNotice(changed.username, !suspended, organizationName)),
              onError: (error) =>
                handleError(error, suspended ? 'Reactivating failed' : 'Suspending failed'),
            },
          )
        }
      >
        {verb}
      </Button>
    );
  };

  const members = () => {
    if (users.data && users.data.length === 0) {
      return <EmptyState>No users yet: register the first one.</EmptyState>;
    }
    return (
      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <DataTable
          label="Users"
          columns={columns}
          rows={users.data ?? []}
          rowKey={(u) => u.id}
          loading={users.isPending}
          minWidth={900}
          actions={suspendButton}
        />
      </Paper>
    );
  };

  const body = () => {
    if (users.isError) {
      return (
        <LoadError
          what="the users"
          error={users.error}
          onRetry={() => void users.refetch()}
          retrying={users.isFetching}
        />
      );
    }
    if (users.data === null) {
      return (
        <NoAccess>
          You may not view the users of this organization. Managing users needs the user
          administration permission; ask one of its administrators if you need it.
        </NoAccess>
      );
    }
    return (
      <Stack spacing={3}>
        {members()}
        <InvitationsSection enabled={users.data != null} onRevoked={say} />
      </Stack>
    );
  };

  const canRegister = users.data != null && roles.data !== undefined && organization;

  return (
    <Page
      title="Manage Users"
      subtitle={organization ? `The users of ${organization.name}` : undefined}
      actions={
        users.data === null ? null : (
          <Button
            variant="contained"
            startIcon={<PersonAddOutlined />}
            disabled={!canRegister}
            onClick={() => setRegistering(true)}
          >
            Register user
          </Button>
        )
      }
    >
      {roles.isError ? (
        <Box sx={{ mb: 2 }}>
          <LoadError
            what="the roles"
            error={roles.error}
            onRetry={() => void roles.refetch()}
            retrying={roles.isFetching}
          />
        </Box>
      ) : null}
      {body()}
      {registering && organization && roles.data ? (
        <RegisterUserDialog
          organization={organization}
          roles={roles.data}
          direct={me?.is_server_admin === true}
          onClose={() => setRegistering(false)}
          onSaved={(registration, email) => {
            setRegistering(false);
            say(registrationNotice(registration, email, organization.name));
          }}
        />
      ) : null}
      <SuccessSnackbar notice={notice} onClose={close} />
    </Page>
  );
}

function RoleSelect({
  user,
  roles,
  currentRoleId,
  currentRoleName,
  disabled,
  onChange,
}: {
  user: TUserSmall;
  roles: readonly TRole[];
  currentRoleId: string;
  currentRoleName: string;
  disabled: boolean;
  onChange: (roleId: string) => void;
}) {
  const known = roles.some((r) => r.id === currentRoleId);
  return (
    <TextField
      select
      size="small"
      value={known ? currentRoleId : ''}
      onChange={(event) => {
        if (event.target.value !== currentRoleId) onChange(event.target.value);
      }}
      disabled={disabled || roles.length === 0}
      slotProps={{ htmlInput: { 'aria-label': `Role of ${user.username}` } }}
      sx={{ minWidth: 150 }}
    >
      {!known ? (
        <MenuItem value="" disabled>
          {currentRoleName || 'No role'}
        </MenuItem>
      ) : null}
      {roles.map((role) => (
        <MenuItem key={role.id} value={role.id}>
          {role.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
