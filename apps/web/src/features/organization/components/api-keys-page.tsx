import type { TApiKey, TApiKeyCreated } from '@coldtrace/contract';
import { formatDateTime } from '@coldtrace/domain';
import Add from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { ShownOnceDialog } from '../../../components/shown-once-dialog';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { EmptyState } from '../../../components/empty-state';
import { errorMessage, useErrorHandler } from '../../../components/error-handler';
import { FormDialog } from '../../../components/form-dialog';
import { LoadError } from '../../../components/load-error';
import { Page } from '../../../components/page';
import { isApiError } from '../../../lib/api-error';
import { useAppSettings } from '../../../lib/app-settings';
import { hasPermission } from '../../../lib/session';
import { useCurrentUser } from '../../session';
import { useGenerateApiKey } from '../api/generate-api-key';
import { useApiKeys } from '../api/list-api-keys';
import { useRoles } from '../api/list-roles';
import { permissionsText } from '../api-key-permissions';
import { useRevokeApiKey } from '../api/revoke-api-key';
import { NoAccess } from './no-access';

/**
 * /organization/apikeys: the organization's API keys (docs/decisions/api-keys.md).
 * The private key is shown once, right after it is generated. Needs sysAdminUser.
 */
export function ApiKeysPage() {
  const user = useCurrentUser();
  const allowed = hasPermission(user, 'sysAdminUser');
  const { timeZone } = useAppSettings();
  const keys = useApiKeys();
  const [generating, setGenerating] = useState(false);
  const [created, setCreated] = useState<TApiKeyCreated | null>(null);
  const [revoking, setRevoking] = useState<TApiKey | null>(null);
  const roles = useRoles(allowed);

  const columns = useMemo<DataColumn<TApiKey>[]>(
    () => [
      {
        key: 'name',
        header: 'Name',
        render: (k) => k.name || 'Unnamed',
        sortValue: (k) => k.name ?? '',
        minWidth: 140,
      },
      {
        key: 'prefix',
        header: 'Prefix',
        nowrap: true,
        render: (k) => <Box sx={{ fontFamily: 'monospace' }}>{k.prefix}</Box>,
      },
      {
        key: 'permissions',
        header: 'Permissions',
        nowrap: true,
        render: (k) => permissionsText(k.permissions, roles.data),
        sortValue: (k) => k.permissions.length,
      },
      {
        key: 'access',
        header: 'Access',
        nowrap: true,
        render: (k) => (k.read_only ? 'Read only' : 'Read and write'),
        sortValue: (k) => (k.read_only ? 0 : 1),
      },
      {
        key: 'created',
        header: 'Created',
        nowrap: true,
        numeric: true,
        render: (k) => formatDateTime(k.created, timeZone),
        sortValue: (k) => Date.parse(k.created),
      },
      {
        key: 'last_used',
        header: 'Last used',
        nowrap: true,
        numeric: true,
        render: (k) => (k.last_used ? formatDateTime(k.last_used, timeZone) : 'Never'),
        sortValue: (k) => (k.last_used ? Date.parse(k.last_used) : 0),
      },
    ],
    [timeZone, roles.data],
  );

  if (!allowed) {
    return (
      <Page title="API Keys">
        <NoAccess>
          API keys are managed by the user administrators of this organization; ask one of them if
          you need a key.
        </NoAccess>
      </Page>
    );
  }

  const list = () => {
    if (keys.isError) {
      return (
        <LoadError
          what="the API keys"
          error={keys.error}
          onRetry={() => void keys.refetch()}
          retrying={keys.isFetching}
        />
      );
    }
    if (keys.data?.length === 0) {
      return (
        <EmptyState>
          No API keys yet: generate one for each system that should check its credentials with
          Coldtrace.
        </EmptyState>
      );
    }
    return (
      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <DataTable
          label="API keys"
          columns={columns}
          rows={keys.data ?? []}
          rowKey={(k) => k.prefix}
          loading={keys.isPending}
          minWidth={760}
          actions={(k) => (
            <Button
              size="small"
              color="error"
              aria-label={`Revoke ${k.name || k.prefix}`}
              onClick={() => setRevoking(k)}
            >
              Revoke
            </Button>
          )}
        />
      </Paper>
    );
  };

  return (
    <Page
      title="API Keys"
      subtitle="Keys act for this organization with the permissions fixed when they are generated."
      actions={
        <Button variant="contained" startIcon={<Add />} onClick={() => setGenerating(true)}>
          Generate key
        </Button>
      }
    >
      <Stack spacing={2}>
        {list()}
        <Typography variant="body2" color="text.secondary">
          Send a key as <code>Authorization: Api-Key &lt;key&gt;</code> or{' '}
          <code>X-Api-Key: &lt;key&gt;</code>: it reads records, alarms, series, reports and
          settings, and (unless read-only) uploads tag data, within its permissions. It never signs.{' '}
          <code>POST /api/keys/authenticate/</code> answers the key&apos;s organization and
          permissions. See docs/api.md.
        </Typography>
      </Stack>
      {generating ? (
        <GenerateKeyDialog
          onClose={() => setGenerating(false)}
          onSaved={(key) => {
            setGenerating(false);
            setCreated(key);
          }}
        />
      ) : null}
      {created ? <CreatedKeyDialog created={created} onClose={() => setCreated(null)} /> : null}
      {revoking ? <RevokeKeyDialog apiKey={revoking} onClose={() => setRevoking(null)} /> : null}
    </Page>
  );
}

function GenerateKeyDialog({
  onClose,
  onSaved,
}: {
  onClose: () => void;
  onSaved: (key: TApiKeyCreated) => void;
}) {
  const roles = useRoles();
  const generate = useGenerateApiKey();
  const [name, setName] = useState('');
  const [roleId, setRoleId] = useState('');
  const [readOnly, setReadOnly] = useState(false);
  const [nameError, setNameError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  const submit = () => {
    setFormError(null);
    if (name.trim() === '') {
      setNameError('Name is required');
      return;
    }
    generate.mutate(
      { name: name.trim(), ...(roleId ? { role_id: roleId } : {}), read_only: readOnly },
      {
        onSuccess: onSaved,
        onError: (error) => {
          const fieldError = isApiError(error) ? error.fields.name : undefined;
          if (fieldError) setNameError(fieldError);
          else setFormError(errorMessage(error));
        },
      },
    );
  };

  return (
    <FormDialog
      title="Generate an API key"
      onClose={onClose}
      onSubmit={submit}
      pending={generate.isPending}
      error={formError}
      submitLabel="Generate"
      maxWidth="xs"
    >
      <Stack spacing={2}>
        <TextField
          label="Name"
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setNameError(null);
          }}
          error={Boolean(nameError)}
          helperText={nameError ?? 'The system that will use it, e.g. "ERP link"'}
          required
          autoFocus
          fullWidth
          autoComplete="off"
          slotProps={{ htmlInput: { maxLength: 100 } }}
        />
        <TextField
          select
          label="Permissions"
          value={roleId}
          onChange={(event) => setRoleId(event.target.value)}
          helperText="Never more than you hold yourself"
          fullWidth
        >
          <MenuItem value="">Same as my role</MenuItem>
          {(roles.data ?? []).map((role) => (
            <MenuItem key={role.id} value={role.id}>
              {role.name}
            </MenuItem>
          ))}
        </TextField>
        <FormControlLabel
          control={
            <Checkbox checked={readOnly} onChange={(event) => setReadOnly(event.target.checked)} />
          }
          label="Read only"
        />
        <Typography variant="body2" color="text.secondary" sx={{ mt: -1.5 }}>
          A read-only key reads records, alarms, series, reports and settings, and changes nothing.
        </Typography>
      </Stack>
    </FormDialog>
  );
}

function CreatedKeyDialog({ created, onClose }: { created: TApiKeyCreated; onClose: () => void }) {
  return (
    <ShownOnceDialog
      title="API key generated"
      warning="Copy this key now. It is shown only once; Coldtrace keeps only a hash of it."
      label={`Private key of “${created.name ?? created.prefix}”`}
      value={created.private_key ?? ''}
      onClose={onClose}
    />
  );
}

function RevokeKeyDialog({ apiKey, onClose }: { apiKey: TApiKey; onClose: () => void }) {
  const revoke = useRevokeApiKey();
  const handleError = useErrorHandler();
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="revoke-key-title">
      <DialogTitle id="revoke-key-title">Revoke “{apiKey.name || apiKey.prefix}”?</DialogTitle>
      <DialogContent>
        <DialogContentText>
          The key with prefix <code>{apiKey.prefix}</code> stops working at once. This cannot be
          undone.
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={revoke.isPending}>
          Cancel
        </Button>
        <Button
          color="error"
          variant="contained"
          loading={revoke.isPending}
          onClick={() =>
            revoke.mutate(apiKey.prefix, {
              onSuccess: onClose,
              onError: (error) => handleError(error, 'Revoking the key failed'),
            })
          }
        >
          Revoke
        </Button>
      </DialogActions>
    </Dialog>
  );
}
