import {
  notificationLogList,
  notificationRulesCreate,
  notificationRulesDelete,
  notificationRulesUpdate,
  notificationSettingsCreate,
  notificationSettingsDelete,
  notificationSettingsUpdate,
  type CallDef,
  type TNotificationLogEntry,
  type TNotificationRule,
  type TNotificationSetting,
  type TUser,
} from '@coldtrace/contract';
import { formatDateTime } from '@coldtrace/domain';
import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Pagination from '@mui/material/Pagination';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import type { UseMutationResult } from '@tanstack/react-query';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { errorMessage } from '../../../components/error-handler';
import type { DataColumn } from '../../../components/data-table';
import { hasPermission } from '../../../lib/session';
import { useDeleteNotificationRule } from '../api/delete-notification-rule';
import { useDeleteNotificationSetting } from '../api/delete-notification-setting';
import {
  NOTIFICATION_LOG_PAGE_SIZE,
  useNotificationLogEntries,
  useNotificationLogTotal,
} from '../api/list-notification-log';
import { useNotificationRules } from '../api/list-notification-rules';
import { useNotificationSettings } from '../api/list-notification-settings';
import { describeRule, escalationText } from '../notification-forms';
import { ConfigList, ConfigSection, EditButton } from './config-list';
import { NotificationRuleDialog } from './notification-rule-dialog';
import { NotificationSettingDialog } from './notification-setting-dialog';

/** What the user may do in the Notifications tab: each action reads its call's permission. */
export interface NotificationsAccess {
  view: boolean;
  createSettings: boolean;
  editSettings: boolean;
  deleteSettings: boolean;
  createRules: boolean;
  editRules: boolean;
  deleteRules: boolean;
}

function may(user: TUser | null | undefined, call: CallDef): boolean {
  return call.permission === undefined ? user != null : hasPermission(user, call.permission);
}

export function notificationsAccess(user: TUser | null | undefined): NotificationsAccess {
  return {
    view: may(user, notificationLogList),
    createSettings: may(user, notificationSettingsCreate),
    editSettings: may(user, notificationSettingsUpdate),
    deleteSettings: may(user, notificationSettingsDelete),
    createRules: may(user, notificationRulesCreate),
    editRules: may(user, notificationRulesUpdate),
    deleteRules: may(user, notificationRulesDelete),
  };
}

const list = (items: readonly string[] | undefined) =>
  items && items.length > 0 ? items.join(', ') : '—';

const STATUS_COLOR = { Enabled: 'success', Disabled: 'default', Test: 'warning' } as const;

const SETTING_COLUMNS: DataColumn<TNotificationSetting>[] = [
  {
    key: 'notification_type',
    header: 'Type',
    render: (row) => row.notification_type,
    sortValue: (row) => row.notification_type,
  },
  {
    key: 'status',
    header: 'Status',
    render: (row) => (
      <Chip size="small" label={row.status} color={STATUS_COLOR[row.status]} variant="outlined" />
    ),
    sortValue: (row) => row.status,
  },
  {
    key: 'filters',
    header: 'Records',
    minWidth: 160,
    render: (row) =>
      [
        row.product_name ? `Product ${row.product_name}` : null,
        row.carrier_name ? `Carrier ${row.carrier_name}` : null,
        row.origin ? 'one origin' : null,
        row.destination ? 'one destination' : null,
      ]
        .filter(Boolean)
        .join(', ') || 'All',
  },
  {
    key: 'to_list',
    header: 'To, cc, bcc',
    minWidth: 200,
    render: (row) =>
      [list(row.to_list), row.cc_list?.length ? `cc ${list(row.cc_list)}` : null]
        .concat(row.bcc_list?.length ? [`bcc ${list(row.bcc_list)}`] : [])
        .filter(Boolean)
        .join('; '),
  },
  {
    key: 'subject',
    header: 'Subject',
    minWidth: 160,
    render: (row) => row.custom_template_subject ?? 'Standard',
  },
  {
    key: 'escalation',
    header: 'Escalation',
    minWidth: 160,
    render: (row) => escalationText(row),
  },
];

function logColumns(timeZone: string): DataColumn<TNotificationLogEntry>[] {
  return [
    {
      key: 'created',
      header: 'Written',
      nowrap: true,
      render: (row) => formatDateTime(row.created, timeZone),
    },
    { key: 'notification_type', header: 'Type', render: (row) => row.notification_type },
    {
      key: 'record',
      header: 'Record',
      nowrap: true,
      render: (row) =>
        row.record ? (
          <Link component={RouterLink} to={`/recorddetails/${encodeURIComponent(row.record)}`}>
            {row.record}
          </Link>
        ) : (
          '—'
        ),
    },
    {
      key: 'recipients',
      header: 'To, cc, bcc',
      minWidth: 200,
      render: (row) =>
        [list(row.to_list)]
          .concat(row.cc_list?.length ? [`cc ${list(row.cc_list)}`] : [])
          .concat(row.bcc_list?.length ? [`bcc ${list(row.bcc_list)}`] : [])
          .join('; '),
    },
    {
      key: 'subject',
      header: 'Subject',
      minWidth: 200,
      render: (row) => row.custom_template_subject ?? '—',
    },
    { key: 'comment', header: 'Why', minWidth: 180, render: (row) => row.comment ?? '—' },
  ];
}

/** Asks before deleting; the row goes only once the server said yes. */
function ConfirmDelete({
  what,
  mutation,
  id,
  onClose,
  onDeleted,
}: {
  what: string;
  mutation: UseMutationResult<void, Error, string>;
  id: string;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const titleId = useId();
  return (
    <Dialog open onClose={() => !mutation.isPending && onClose()} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Delete {what}?</DialogTitle>
      <DialogContent>
        <DialogContentText>
          No more e-mails are sent for it. The notification log keeps what was sent. To pause it
          instead, set its status to Disabled.
        </DialogContentText>
        {mutation.isError ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorMessage(mutation.error)}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={mutation.isPending}>
          Cancel
        </Button>
        <Button
          color="error"
          variant="contained"
          disabled={mutation.isPending}
          onClick={() => mutation.mutate(id, { onSuccess: onDeleted })}
        >
          Delete
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function DeleteButton({ name, onClick }: { name: string; onClick: () => void }) {
  return (
    <Tooltip title="Delete">
      <IconButton size="small" aria-label={`Delete ${name}`} onClick={onClick}>
        <DeleteOutlined fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}

type Editing<T> = { mode: 'create' } | { mode: 'edit'; item: T } | null;

/** The Edit and Delete buttons of a row, as far as the user may use them; none: no column. */
function rowActions<T>({
  canEdit,
  canDelete,
  name,
  onEdit,
  onDelete,
}: {
  canEdit: boolean;
  canDelete: boolean;
  name: (row: T) => string;
  onEdit: (row: T) => void;
  onDelete: (row: T) => void;
}): ((row: T) => ReactNode) | undefined {
  if (!canEdit && !canDelete) return undefined;
  const Actions = (row: T) => (
    <Stack direction="row">
      {canEdit ? <EditButton name={name(row)} onClick={() => onEdit(row)} /> : null}
      {canDelete ? <DeleteButton name={name(row)} onClick={() => onDelete(row)} /> : null}
    </Stack>
  );
  return Actions;
}

function AddButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Button variant="contained" startIcon={<Add />} onClick={onClick}>
      {label}
    </Button>
  );
}

function SettingsCard({
  access,
  onSaved,
}: {
  access: NotificationsAccess;
  onSaved: (message: string) => void;
}) {
  const query = useNotificationSettings();
  const remove = useDeleteNotificationSetting();
  const [editing, setEditing] = useState<Editing<TNotificationSetting>>(null);
  const [deleting, setDeleting] = useState<TNotificationSetting | null>(null);
  const name = (row: TNotificationSetting) => `${row.notification_type} setting ${row.id ?? ''}`;
  return (
    <ConfigSection
      title="E-mail notifications"
      description="Who is e-mailed when a record of a product or carrier departs, has an alarm or arrives. Each person gets one e-mail per event, however many settings or subscriptions name them."
      note={
        access.createSettings || access.editSettings
          ? null
          : 'You can view these settings; changing them needs a configuration role.'
      }
      action={
        access.createSettings ? (
          <AddButton label="Add setting" onClick={() => setEditing({ mode: 'create' })} />
        ) : null
      }
    >
      <ConfigList
        query={query}
        what="the notification settings"
        label="E-mail notification settings"
        columns={SETTING_COLUMNS}
        rowKey={(row, index) => row.id ?? `row-${index}`}
        empty={
          access.createSettings
            ? 'No notification settings yet: add one to e-mail your team or your customers about departures, alarms and arrivals.'
            : 'No notification settings yet.'
        }
        actions={rowActions<TNotificationSetting>({
          canEdit: access.editSettings,
          canDelete: access.deleteSettings,
          name,
          onEdit: (item) => setEditing({ mode: 'edit', item }),
          onDelete: setDeleting,
        })}
      />
      {editing ? (
        <NotificationSettingDialog
          setting={editing.mode === 'edit' ? editing.item : undefined}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            onSaved(`${saved.notification_type} notification setting saved`);
          }}
        />
      ) : null}
      {deleting?.id ? (
        <ConfirmDelete
          what={name(deleting)}
          mutation={remove}
          id={deleting.id}
          onClose={() => {
            remove.reset();
            setDeleting(null);
          }}
          onDeleted={() => {
            setDeleting(null);
            onSaved('Notification setting deleted');
          }}
        />
      ) : null}
    </ConfigSection>
  );
}

function RulesCard({
  access,
  onSaved,
}: {
  access: NotificationsAccess;
  onSaved: (message: string) => void;
}) {
  const query = useNotificationRules();
  const remove = useDeleteNotificationRule();
  const [editing, setEditing] = useState<Editing<TNotificationRule>>(null);
  const [deleting, setDeleting] = useState<TNotificationRule | null>(null);
  const columns = useMemo<DataColumn<TNotificationRule>[]>(
    () => [
      {
        key: 'name',
        header: 'Rule',
        minWidth: 140,
        render: (row) => row.name,
        sortValue: (row) => row.name,
      },
      { key: 'when', header: 'When', minWidth: 220, render: describeRule },
      {
        key: 'users',
        header: 'People',
        numeric: true,
        render: (row) => row.users.length,
        sortValue: (row) => row.users.length,
      },
    ],
    [],
  );
  return (
    <ConfigSection
      title="Notification rules"
      description="People who get the alarm e-mail of every record that meets the rule's conditions, for example all insulin shipments of one carrier."
      note={
        access.createRules
          ? null
          : 'You can view the rules; changing them needs the rules permission.'
      }
      action={
        access.createRules ? (
          <AddButton label="Add rule" onClick={() => setEditing({ mode: 'create' })} />
        ) : null
      }
    >
      <ConfigList
        query={query}
        what="the notification rules"
        label="Notification rules"
        columns={columns}
        rowKey={(row, index) => row.id ?? `row-${index}`}
        empty={
          access.createRules
            ? 'No rules yet: add one to e-mail chosen people about the alarms of some records.'
            : 'No rules yet.'
        }
        actions={rowActions<TNotificationRule>({
          canEdit: access.editRules,
          canDelete: access.deleteRules,
          name: (row) => row.name,
          onEdit: (item) => setEditing({ mode: 'edit', item }),
          onDelete: setDeleting,
        })}
      />
      {editing ? (
        <NotificationRuleDialog
          rule={editing.mode === 'edit' ? editing.item : undefined}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            onSaved(`Rule ${saved.name} saved`);
          }}
        />
      ) : null}
      {deleting?.id ? (
        <ConfirmDelete
          what={`rule ${deleting.name}`}
          mutation={remove}
          id={deleting.id}
          onClose={() => {
            remove.reset();
            setDeleting(null);
          }}
          onDeleted={() => {
            setDeleting(null);
            onSaved(`Rule ${deleting.name} deleted`);
          }}
        />
      ) : null}
    </ConfigSection>
  );
}

function LogCard({ timeZone }: { timeZone: string }) {
  const [page, setPage] = useState(1);
  const query = useNotificationLogEntries(page);
  const total = useNotificationLogTotal(page);
  const columns = useMemo(() => logColumns(timeZone), [timeZone]);
  const pages = Math.max(1, Math.ceil((total ?? 0) / NOTIFICATION_LOG_PAGE_SIZE));
  return (
    <ConfigSection
      title="Notification log"
      description="Every e-mail written, newest first: when, to whom and why. Entries of Test settings were not sent."
    >
      <ConfigList
        query={query}
        what="the notification log"
        label="Notification log"
        columns={columns}
        rowKey={(row) => row.id}
        empty="No e-mail has been sent yet."
        minWidth={900}
      />
      {pages > 1 ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 1.5 }}>
          <Pagination
            count={pages}
            page={page}
            onChange={(_event, next) => setPage(next)}
            aria-label="Notification log pages"
          />
        </Box>
      ) : null}
    </ConfigSection>
  );
}

/** The Notifications tab of the Configuration page: settings, rules and the log. */
export function NotificationsSection({
  user,
  timeZone,
  onSaved,
}: {
  user: TUser | null | undefined;
  timeZone: string;
  onSaved: (message: string) => void;
}) {
  const access = notificationsAccess(user);
  if (!access.view) {
    return (
      <Alert severity="info">
        Viewing notification settings needs the rules or configuration permission in this
        organization; ask one of its administrators if you need it.
      </Alert>
    );
  }
  return (
    <Stack spacing={2.5}>
      <SettingsCard access={access} onSaved={onSaved} />
      <RulesCard access={access} onSaved={onSaved} />
      <LogCard timeZone={timeZone} />
    </Stack>
  );
}
