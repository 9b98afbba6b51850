import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useErrorHandler } from '../../../components/error-handler';
import { LoadError } from '../../../components/load-error';
import { Page } from '../../../components/page';
import { hasPermission, sessionOrganization } from '../../../lib/session';
import { useCurrentUser } from '../../session';
import { useAssignTags } from '../api/assign-tags';
import { useAdminOrgs } from '../api/list-admin-orgs';
import {
  ASSIGN_FAILURE_MESSAGE,
  ASSIGN_SUCCESS_MESSAGE,
  assignButtonLabel,
  assignDisabled,
  failedIdsText,
  splitTagInput,
} from '../assign-tags-form';
import { NoAccess } from './no-access';

type Outcome = { kind: 'success' } | { kind: 'failure' } | null;

/** /organization/assign-tags (spec sections 2, 4, 5, 8). Needs sysAssignTags. */
export function AssignTagsPage() {
  const user = useCurrentUser();
  const allowed = hasPermission(user, 'sysAssignTags');
  const orgs = useAdminOrgs();
  const assign = useAssignTags();
  const handleError = useErrorHandler();
  const session = sessionOrganization(user);
  const [chosen, setChosen] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState<Outcome>(null);

  if (!allowed) {
    return (
      <Page title="Assign Tags">
        <NoAccess>
          Assigning tags needs the tag assignment permission in this organization; ask one of its
          administrators if you need it.
        </NoAccess>
      </Page>
    );
  }

  const list = orgs.data ?? [];
  // Defaults to the session organization when it is one of the admin organizations.
  const organizationId =
    chosen ?? (session && list.some((o) => o.id === session.id) ? session.id : '');
  const organization = list.find((o) => o.id === organizationId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (assignDisabled({ pending: assign.isPending, text, organizationId })) return;
    setOutcome(null);
    assign.mutate(
      { organization_id: organizationId, tag_ids: splitTagInput(text) },
      {
        onSuccess: (result) => {
          const failed = result.failed_ids ?? [];
          if (failed.length === 0) {
            setText('');
            setOutcome({ kind: 'success' });
          } else {
            setText(failedIdsText(failed));
            setOutcome({ kind: 'failure' });
          }
        },
        onError: (error) => {
          setOutcome({ kind: 'failure' });
          handleError(error, 'Assigning tags failed');
        },
      },
    );
  };

  return (
    <Page
      title="Assign Tags"
      subtitle="Add tags to an organization by tag ID or serial number. Unknown serial numbers are created there."
    >
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 720 }}>
        <Stack component="form" spacing={2.5} onSubmit={submit} noValidate>
          {orgs.isError ? (
            <LoadError
              what="your organizations"
              error={orgs.error}
              onRetry={() => void orgs.refetch()}
              retrying={orgs.isFetching}
            />
          ) : null}
          <TextField
            select
            label="Assign to Organization"
            value={organization ? organizationId : ''}
            onChange={(event) => setChosen(event.target.value)}
            disabled={orgs.isPending || assign.isPending}
            helperText={orgs.isPending ? 'Loading your organizations…' : undefined}
            fullWidth
          >
            {list.map((org) => (
              <MenuItem key={org.id} value={org.id}>
                {org.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Tag IDs and serial numbers"
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              // Editing the box clears both messages.
              setOutcome(null);
            }}
            multiline
            minRows={6}
            maxRows={16}
            fullWidth
            disabled={assign.isPending}
            helperText="Separate them with commas, spaces or line breaks."
            slotProps={{ htmlInput: { spellCheck: false } }}
          />
          {outcome?.kind === 'success' ? (
            <Alert severity="success" role="status">
              {ASSIGN_SUCCESS_MESSAGE}
            </Alert>
          ) : null}
          {outcome?.kind === 'failure' ? (
            <Alert severity="error" role="alert">
              {ASSIGN_FAILURE_MESSAGE}
            </Alert>
          ) : null}
          <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
            <Button
              type="submit"
              variant="contained"
              loading={assign.isPending}
              disabled={assignDisabled({ pending: assign.isPending, text, organizationId })}
              sx={{ maxWidth: '100%', overflowWrap: 'anywhere' }}
            >
              {assignButtonLabel(organization?.name)}
            </Button>
          </Stack>
          <Typography variant="body2" color="text.secondary">
            A tag that another organization is using on a running shipment cannot be assigned.
          </Typography>
        </Stack>
      </Paper>
    </Page>
  );
}
