import {
  WEBHOOK_EVENTS,
  type TWebhook,
  type TWebhookDelivery,
  type TWebhookEvent,
} from '@coldtrace/contract';
import { formatDateTime } from '@coldtrace/domain';
import Add from '@mui/icons-material/Add';
import LockOutlined from '@mui/icons-material/LockOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
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
import {
  DELIVERIES_PAGE_SIZE,
  useCreateWebhook,
  useDeleteWebhook,
  useDeliveries,
  useRedeliver,
  useUpdateWebhook,
  useWebhooks,
} from '../api';

/** What each event means, in the words of the page. */
const EVENT_LABELS: Record<TWebhookEvent, string> = {
  'alarm.raised': 'Alarm raised',
  'alarm.acknowledged': 'Alarm acknowledged',
  'alarm.closed': 'Alarm closed',
  'record.departed': 'Record departed',
  'record.arrived': 'Record arrived',
  'record.disposition': 'Release decision signed',
  'alarm.no_data': 'No-data alarm raised',
};

/**
 * /organization/webhooks: the organization's webhooks (docs/decisions/webhooks.md).
 * The signing secret is shown once, after creating or rotating. Needs sysAdminUser.
 */
export function WebhooksPage() {
  const user = useCurrentUser();
  const allowed = hasPermission(user, 'sysAdminUser');
  const { timeZone } = useAppSettings();
  const hooks = useWebhooks(allowed);
  const [editing, setEditing] = useState<TWebhook | 'new' | null>(null);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [deleting, setDeleting] = useState<TWebhook | null>(null);
  const [log, setLog] = useState<TWebhook | null>(null);

  const columns = useMemo<DataColumn<TWebhook>[]>(
    () => [
      {
        key: 'url',
        header: 'URL',
        render: (w) => (
          <Box sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
            {w.url}
            {w.description ? (
              <Typography variant="body2" color="text.secondary">
                {w.description}
              </Typography>
            ) : null}
          </Box>
        ),
        sortValue: (w) => w.url,
        minWidth: 220,
      },
      {
        key: 'events',
        header: 'Events',
        render: (w) => w.events.join(', '),
        minWidth: 180,
      },
      {
        key: 'active',
        header: 'Status',
        nowrap: true,
        render: (w) =>
          w.active ? (
            <Chip size="small" color="success" variant="outlined" label="Active" />
          ) : (
            <Chip size="small" variant="outlined" label="Inactive" />
          ),
        sortValue: (w) => (w.active ? 1 : 0),
      },
      {
        key: 'created',
        header: 'Created',
        nowrap: true,
        numeric: true,
        render: (w) => formatDateTime(w.created, timeZone),
        sortValue: (w) => Date.parse(w.created),
      },
    ],
    [timeZone],
  );

  if (!allowed) {
    return (
      <Page title="Webhooks">
        <EmptyState icon={<LockOutlined />}>
          Webhooks are managed by the user administrators of this organization.
        </EmptyState>
      </Page>
    );
  }

  const list = () => {
    if (hooks.isError) {
      return (
        <LoadError
          what="the webhooks"
          error={hooks.error}
          onRetry={() => void hooks.refetch()}
          retrying={hooks.isFetching}
        />
      );
    }
    if (hooks.data?.length === 0) {
      return (
        <EmptyState>
          No webhooks yet: add one to have Coldtrace tell another system of alarms and trips.
        </EmptyState>
      );
    }
    return (
      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <DataTable
          label="Webhooks"
          columns={columns}
          rows={hooks.data ?? []}
          rowKey={(w) => w.id}
          loading={hooks.isPending}
          minWidth={760}
          actions={(w) => (
            <Stack direction="row" spacing={0.5}>
              <Button size="small" aria-label={`Deliveries of ${w.url}`} onClick={() => setLog(w)}>
                Deliveries
              </Button>
              <Button size="small" aria-label={`Edit ${w.url}`} onClick={() => setEditing(w)}>
                Edit
              </Button>
              <Button
                size="small"
                color="error"
                aria-label={`Delete ${w.url}`}
                onClick={() => setDeleting(w)}
              >
                Delete
              </Button>
            </Stack>
          )}
        />
      </Paper>
    );
  };

  return (
    <Page
      title="Webhooks"
      subtitle="Coldtrace POSTs a signed JSON message to each active webhook for the events it wants."
      actions={
        <Button variant="contained" startIcon={<Add />} onClick={() => setEditing('new')}>
          Add webhook
        </Button>
      }
    >
      <Stack spacing={2}>
        {list()}
        <Typography variant="body2" color="text.secondary">
          Each message carries <code>X-Coldtrace-Event</code>, <code>X-Coldtrace-Delivery</code>{' '}
          (the same on every retry: deduplicate by it) and <code>X-Coldtrace-Signature</code>, the
          HMAC-SHA256 of the body with the webhook&apos;s secret. Failed deliveries are retried for
          one to two days. See docs/api.md.
        </Typography>
      </Stack>
      {editing ? (
        <WebhookDialog
          webhook={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            if (saved.secret) setSecret({ url: saved.url, secret: saved.secret });
          }}
        />
      ) : null}
      {secret ? <SecretDialog {...secret} onClose={() => setSecret(null)} /> : null}
      {deleting ? <DeleteDialog webhook={deleting} onClose={() => setDeleting(null)} /> : null}
      {log ? <DeliveriesDialog webhook={log} onClose={() => setLog(null)} /> : null}
    </Page>
  );
}

function WebhookDialog({
  webhook,
  onClose,
  onSaved,
}: {
  webhook: TWebhook | null;
  onClose: () => void;
  onSaved: (saved: TWebhook & { secret?: string | undefined }) => void;
}) {
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const [url, setUrl] = useState(webhook?.url ?? 'https://');
  const [description, setDescription] = useState(webhook?.description ?? '');
  const [events, setEvents] = useState<TWebhookEvent[]>(webhook?.events ?? ['alarm.raised']);
  const [active, setActive] = useState(webhook?.active ?? true);
  const [rotate, setRotate] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const onError = (error: unknown) => {
    const fields = isApiError(error) ? error.fields : {};
    if (Object.keys(fields).length > 0) setFieldErrors(fields);
    else setFormError(errorMessage(error));
  };
  const submit = () => {
    setFormError(null);
    setFieldErrors({});
    if (events.length === 0) {
      setFieldErrors({ events: 'Choose at least one event' });
      return;
    }
    const body = { url: url.trim(), description: description.trim(), events, active };
    if (webhook) {
      update.mutate(
        { id: webhook.id, body: { ...body, ...(rotate ? { rotate_secret: true } : {}) } },
        { onSuccess: onSaved, onError },
      );
    } else {
      create.mutate(body, { onSuccess: onSaved, onError });
    }
  };
  const toggle = (event: TWebhookEvent, on: boolean) =>
    setEvents((current) =>
      on
        ? WEBHOOK_EVENTS.filter((e) => e === event || current.includes(e))
        : current.filter((e) => e !== event),
    );

  return (
    <FormDialog
      title={webhook ? 'Edit webhook' : 'Add a webhook'}
      onClose={onClose}
      onSubmit={submit}
      pending={create.isPending || update.isPending}
      error={formError}
      submitLabel={webhook ? 'Save' : 'Add'}
      maxWidth="sm"
    >
      <Stack spacing={2}>
        <TextField
          label="URL"
          value={url}
          onChange={(e) => {
            setUrl(e.target.value);
            setFieldErrors((f) => ({ ...f, url: '' }));
          }}
          error={Boolean(fieldErrors.url)}
          helperText={
            fieldErrors.url ||
            'https:// address of the receiving system; private and local addresses are refused'
          }
          required
          autoFocus
          fullWidth
          autoComplete="off"
          slotProps={{ htmlInput: { maxLength: 2000, spellCheck: false } }}
        />
        <TextField
          label="Description"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          error={Boolean(fieldErrors.description)}
          helperText={fieldErrors.description || 'e.g. "ERP link"'}
          fullWidth
          slotProps={{ htmlInput: { maxLength: 500 } }}
        />
        <Box component="fieldset" sx={{ border: 0, m: 0, p: 0 }}>
          <FormLabel component="legend" error={Boolean(fieldErrors.events)}>
            Events
          </FormLabel>
          <FormGroup>
            {WEBHOOK_EVENTS.map((event) => (
              <FormControlLabel
                key={event}
                control={
                  <Checkbox
                    checked={events.includes(event)}
                    onChange={(e) => toggle(event, e.target.checked)}
                  />
                }
                label={
                  <span>
                    {EVENT_LABELS[event]}{' '}
                    <Typography component="code" variant="body2" color="text.secondary">
                      {event}
                    </Typography>
                  </span>
                }
              />
            ))}
          </FormGroup>
          {fieldErrors.events ? <FormHelperText error>{fieldErrors.events}</FormHelperText> : null}
        </Box>
        <FormControlLabel
          control={<Switch checked={active} onChange={(e) => setActive(e.target.checked)} />}
          label={active ? 'Active' : 'Inactive (nothing is sent)'}
        />
        {webhook ? (
          <FormControlLabel
            control={<Checkbox checked={rotate} onChange={(e) => setRotate(e.target.checked)} />}
            label="Rotate the secret (the old one stops working at once)"
          />
        ) : null}
      </Stack>
    </FormDialog>
  );
}

function SecretDialog({
  url,
  secret,
  onClose,
}: {
  url: string;
  secret: string;
  onClose: () => void;
}) {
  return (
    <ShownOnceDialog
      title="Signing secret"
      warning="Copy this secret now into the receiving system. It is shown only once; to get a new one, rotate it."
      label={`Secret of ${url}`}
      value={secret}
      onClose={onClose}
    />
  );
}

function DeleteDialog({ webhook, onClose }: { webhook: TWebhook; onClose: () => void }) {
  const remove = useDeleteWebhook();
  const handleError = useErrorHandler();
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="delete-webhook-title">
      <DialogTitle id="delete-webhook-title">Delete this webhook?</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ wordBreak: 'break-all' }}>
          Nothing more is sent to <code>{webhook.url}</code>. Its delivery log is kept as evidence.
          To pause it instead, edit it and make it inactive.
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={remove.isPending}>
          Cancel
        </Button>
        <Button
          color="error"
          variant="contained"
          loading={remove.isPending}
          onClick={() =>
            remove.mutate(webhook.id, {
              onSuccess: onClose,
              onError: (error) => handleError(error, 'Deleting the webhook failed'),
            })
          }
        >
          Delete
        </Button>
      </DialogActions>
    </Dialog>
  );
}

const STATUS_LABELS: Record<TWebhookDelivery['status'], string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};

function DeliveriesDialog({ webhook, onClose }: { webhook: TWebhook; onClose: () => void }) {
  const { timeZone } = useAppSettings();
  const [page, setPage] = useState(1);
  const deliveries = useDeliveries(webhook.id, page);
  const redeliver = useRedeliver(webhook.id);
  const handleError = useErrorHandler();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const columns: DataColumn<TWebhookDelivery>[] = [
    {
      key: 'status',
      header: 'Status',
      nowrap: true,
      render: (d) => (
        <Chip
          size="small"
          variant="outlined"
          color={d.status === 'delivered' ? 'success' : d.status === 'failed' ? 'error' : 'default'}
          label={STATUS_LABELS[d.status]}
        />
      ),
    },
    {
      key: 'created',
      header: 'Time',
      nowrap: true,
      render: (d) => formatDateTime(d.last_attempt_at ?? d.created, timeZone),
    },
    { key: 'event', header: 'Event', nowrap: true, render: (d) => d.event },
    {
      key: 'code',
      header: 'Response',
      nowrap: true,
      render: (d) => d.last_response_code ?? (d.last_error ? '—' : ''),
    },
    { key: 'attempts', header: 'Attempts', numeric: true, render: (d) => d.attempts },
    {
      key: 'error',
      header: 'Last error',
      render: (d) => d.last_error ?? '',
      minWidth: 140,
    },
    {
      key: 'id',
      header: 'Delivery id',
      render: (d) => <Box sx={{ fontFamily: 'monospace', fontSize: 12 }}>{d.id}</Box>,
    },
  ];
  const total = deliveries.data?.total ?? 0;
  return (
    <Dialog
      open
      onClose={onClose}
      maxWidth="lg"
      fullWidth
      fullScreen={phone}
      aria-labelledby="deliveries-title"
    >
      <DialogTitle id="deliveries-title">Deliveries</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2, wordBreak: 'break-all' }}>
          To <code>{webhook.url}</code>, newest first ({total} in all).
        </DialogContentText>
        {deliveries.isError ? (
          <LoadError
            what="the deliveries"
            error={deliveries.error}
            onRetry={() => void deliveries.refetch()}
            retrying={deliveries.isFetching}
          />
        ) : deliveries.data?.items.length === 0 ? (
          <EmptyState>Nothing has been sent to this webhook yet.</EmptyState>
        ) : (
          <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
            <DataTable
              label="Deliveries"
              columns={columns}
              rows={deliveries.data?.items ?? []}
              rowKey={(d) => d.id}
              loading={deliveries.isPending}
              minWidth={900}
              actions={(d) => (
                <Button
                  size="small"
                  aria-label={`Redeliver ${d.id}`}
                  disabled={redeliver.isPending}
                  onClick={() =>
                    redeliver.mutate(d.id, {
                      onError: (error) => handleError(error, 'Redelivering failed'),
                    })
                  }
                >
                  Redeliver
                </Button>
              )}
            />
          </Paper>
        )}
        {total > DELIVERIES_PAGE_SIZE ? (
          <Pagination
            sx={{ mt: 2 }}
            page={page}
            count={Math.ceil(total / DELIVERIES_PAGE_SIZE)}
            onChange={(_, p) => setPage(p)}
          />
        ) : null}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button variant="contained" onClick={onClose}>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
