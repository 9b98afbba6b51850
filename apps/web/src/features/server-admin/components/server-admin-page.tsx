import type { TOrgLevelRecord, TUserSmall } from '@coldtrace/contract';
import { formatDateTime } from '@coldtrace/domain';
import Add from '@mui/icons-material/Add';
import LockOutlined from '@mui/icons-material/LockOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { EmptyState } from '../../../components/empty-state';
import { errorMessage, useErrorHandler } from '../../../components/error-handler';
import { FormDialog } from '../../../components/form-dialog';
import { LoadError } from '../../../components/load-error';
import { userColumns } from '../../../components/user-columns';
import { Page } from '../../../components/page';
import { SuccessSnackbar, useNotice } from '../../../components/success-snackbar';
import { isApiError } from '../../../lib/api-error';
import { useAppSettings } from '../../../lib/app-settings';
import { usePrivacyPolicy, useTermsOfUse } from '../../legal';
import { useCurrentUser } from '../../session';
import { useCreateOrg } from '../api/create-org';
import { useAllUsers } from '../api/list-all-users';
import { useLockUser } from '../api/lock-user';
import { useServerOrgs } from '../api/list-server-orgs';
import { usePublishPrivacyPolicy } from '../api/publish-privacy-policy';
import { usePublishTerms } from '../api/publish-terms';
import { lockNotice } from '../lock-notice';
import { ContentEditor } from './content-editor';
import { ResetSecondFactorDialog } from './reset-second-factor-dialog';
import { SectionCard } from '../../../components/section-card';

const pad = { px: { xs: 2, sm: 3 }, pb: 2.5 };

/**
 * /serveradmin: organizations, users across organizations, terms of use and
 * privacy policy. For server administrators only (the server refuses
 * everyone else too).
 */
export function ServerAdminPage() {
  const user = useCurrentUser();
  if (!user?.is_server_admin) {
    return (
      <Page title="Server Administration">
        <EmptyState
          icon={<LockOutlined />}
          action={
            <Button component={RouterLink} to="/" variant="outlined">
              Go to the dashboard
            </Button>
          }
        >
          Server administration is for the administrators of this Coldtrace server.
        </EmptyState>
      </Page>
    );
  }
  return (
    <Page
      title="Server Administration"
      subtitle="Organizations, users and legal texts of this server"
    >
      <Stack spacing={3}>
        <OrganizationsSection />
        <UsersSection />
        <LegalSection />
      </Stack>
    </Page>
  );
}

function OrganizationsSection() {
  const orgs = useServerOrgs();
  const { timeZone } = useAppSettings();
  const [creating, setCreating] = useState(false);
  const columns = useMemo<DataColumn<TOrgLevelRecord>[]>(
    () => [
      {
        key: 'name',
        header: 'Organization',
        render: (o) => o.name,
        sortValue: (o) => o.name,
        minWidth: 160,
      },
      {
        key: 'users',
        header: 'Users',
        numeric: true,
        render: (o) => o.user_ids.length,
        sortValue: (o) => o.user_ids.length,
      },
      {
        key: 'devices',
        header: 'Tags',
        numeric: true,
        render: (o) => o.num_devices,
        sortValue: (o) => o.num_devices,
      },
      {
        key: 'records',
        header: 'Records',
        numeric: true,
        render: (o) => o.num_records,
        sortValue: (o) => o.num_records,
      },
      {
        key: 'activity',
        header: 'Latest activity',
        nowrap: true,
        numeric: true,
        render: (o) =>
          o.latest_activity ? formatDateTime(o.latest_activity, timeZone) : 'None yet',
        sortValue: (o) => (o.latest_activity ? Date.parse(o.latest_activity) : null),
      },
      {
        key: 'created',
        header: 'Created',
        nowrap: true,
        numeric: true,
        render: (o) => formatDateTime(o.created, timeZone),
        sortValue: (o) => Date.parse(o.created),
      },
    ],
    [timeZone],
  );
  return (
    <SectionCard
      title="Organizations"
      description="Every organization on this server. A new one gets the built-in roles, and you become its Administrator."
      action={
        <Button variant="contained" startIcon={<Add />} onClick={() => setCreating(true)}>
          Create organization
        </Button>
      }
    >
      {orgs.isError ? (
        <Box sx={pad}>
          <LoadError
            what="the organizations"
            error={orgs.error}
            onRetry={() => void orgs.refetch()}
          />
        </Box>
      ) : (
        <DataTable
          label="Organizations"
          columns={columns}
          rows={orgs.data ?? []}
          rowKey={(o) => o.id}
          loading={orgs.isPending}
          minWidth={720}
        />
      )}
      {creating ? <CreateOrgDialog onClose={() => setCreating(false)} /> : null}
    </SectionCard>
  );
}

function CreateOrgDialog({ onClose }: { onClose: () => void }) {
  const create = useCreateOrg();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const submit = () => {
    setFormError(null);
    if (name.trim() === '') {
      setError('Name is required');
      return;
    }
    create.mutate(name.trim(), {
      onSuccess: onClose,
      onError: (e) => {
        const field = isApiError(e) ? e.fields.name : undefined;
        if (field) setError(field);
        else setFormError(errorMessage(e));
      },
    });
  };
  return (
    <FormDialog
      title="Create an organization"
      onClose={onClose}
      onSubmit={submit}
      pending={create.isPending}
      error={formError}
      submitLabel="Create"
      maxWidth="xs"
    >
      <TextField
        label="Organization name"
        value={name}
        onChange={(event) => {
          setName(event.target.value);
          setError(null);
        }}
        error={Boolean(error)}
        helperText={error}
        required
        autoFocus
        fullWidth
        autoComplete="off"
        slotProps={{ htmlInput: { maxLength: 200 } }}
      />
    </FormDialog>
  );
}

function UsersSection() {
  const me = useCurrentUser();
  const users = useAllUsers();
  const orgs = useServerOrgs();
  const lock = useLockUser();
  const handleError = useErrorHandler();
  const { notice, say, close } = useNotice();
  const [resetting, setResetting] = useState<TUserSmall | null>(null);
  const names = new Map((orgs.data ?? []).map((o) => [o.id, o.name]));
  const columns: DataColumn<TUserSmall>[] = [
    userColumns.username,
    userColumns.email,
    {
      key: 'orgs',
      header: 'Organizations and roles',
      minWidth: 220,
      render: (u) =>
        (u.role_memberships ?? [])
          .map((m) => `${names.get(m.organization_id) ?? 'Organization'} (${m.role_name})`)
          .join(', ') || 'None',
    },
    userColumns.status,
  ];
  return (
    <SectionCard
      title="Users"
      description="Every user of every organization. Locking an account signs the person out everywhere and keeps them out of every organization; resetting a second factor lets someone who lost their authenticator and recovery codes enrol again; register, suspend and change roles from Manage Users in the organization."
    >
      {users.isError ? (
        <Box sx={pad}>
          <LoadError what="the users" error={users.error} onRetry={() => void users.refetch()} />
        </Box>
      ) : (
        <DataTable
          label="Users of every organization"
          columns={columns}
          rows={users.data ?? []}
          rowKey={(u) => u.id}
          loading={users.isPending}
          minWidth={720}
          actions={(u) =>
            // A server administrator does not lock themselves out.
            u.id === me?.id ? null : (
              <Stack direction="row" spacing={1}>
                <Button
                  size="small"
                  aria-label={`Reset second factor of ${u.username}`}
                  onClick={() => setResetting(u)}
                >
                  Reset second factor
                </Button>
                <Button
                  size="small"
                  color={u.is_locked ? 'primary' : 'error'}
                  aria-label={`${u.is_locked ? 'Unlock' : 'Lock'} ${u.username}`}
                  disabled={lock.isPending}
                  onClick={() =>
                    lock.mutate(
                      { user_id: u.id, is_locked: !u.is_locked },
                      {
                        onSuccess: (changed) => say(lockNotice(changed.username, !u.is_locked)),
                        onError: (error) =>
                          handleError(error, u.is_locked ? 'Unlocking failed' : 'Locking failed'),
                      },
                    )
                  }
                >
                  {u.is_locked ? 'Unlock' : 'Lock'}
                </Button>
              </Stack>
            )
          }
        />
      )}
      {resetting ? (
        <ResetSecondFactorDialog
          user={resetting}
          onClose={() => setResetting(null)}
          onDone={(username) => {
            setResetting(null);
            say(`The second factor of ${username} was removed. They can enrol again.`);
          }}
        />
      ) : null}
      <SuccessSnackbar notice={notice} onClose={close} />
    </SectionCard>
  );
}

function LegalSection() {
  const terms = useTermsOfUse();
  const policy = usePrivacyPolicy();
  const publishTerms = usePublishTerms();
  const publishPolicy = usePublishPrivacyPolicy();
  return (
    <SectionCard
      title="Terms of use and privacy policy"
      description="Publishing new terms of use asks every user to agree to them at their next visit."
    >
      <Stack spacing={4} sx={pad}>
        <ContentEditor
          label="Terms of use"
          current={terms.data?.content ?? (terms.isError ? '' : undefined)}
          loadError={terms.isError ? terms.error : null}
          onRetry={() => void terms.refetch()}
          pending={publishTerms.isPending}
          onPublish={(content) => publishTerms.mutateAsync(content)}
          publishedMessage="New terms of use published. Every user must agree to them again."
        />
        <ContentEditor
          label="Privacy policy"
          current={policy.data?.content ?? (policy.isError ? '' : undefined)}
          loadError={policy.isError ? policy.error : null}
          onRetry={() => void policy.refetch()}
          pending={publishPolicy.isPending}
          onPublish={(content) => publishPolicy.mutateAsync(content)}
          publishedMessage="New privacy policy published."
        />
      </Stack>
    </SectionCard>
  );
}
