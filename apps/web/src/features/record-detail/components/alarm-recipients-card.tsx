import { ALARM_RECIPIENTS_PERMISSIONS, type TRecord } from '@coldtrace/contract';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { errorMessage } from '../../../components/error-handler';
import { FormDialog } from '../../../components/form-dialog';
import { useAppSettings } from '../../../lib/app-settings';
import { hasPermission } from '../../../lib/session';
import { isEmailAddress, parseAddressList } from '../../configuration';
import { useCurrentUser } from '../../session';
import { useSetAlarmRecipients } from '../api/set-alarm-recipients';
import { SectionCard } from './section-card';

function RecipientsDialog({
  record,
  onClose,
}: {
  record: TRecord & { id: string };
  onClose: () => void;
}) {
  const [text, setText] = useState((record.alarm_recipients ?? []).join('\n'));
  const [error, setError] = useState<string | null>(null);
  const save = useSetAlarmRecipients();
  const submit = () => {
    const recipients = parseAddressList(text);
    const bad = recipients.find((a) => !isEmailAddress(a));
    if (bad !== undefined) {
      setError(`'${bad}' is not an e-mail address`);
      return;
    }
    save.mutate({ recordId: record.id, recipients }, { onSuccess: onClose });
  };
  return (
    <FormDialog
      title="Alarm recipients"
      onClose={onClose}
      onSubmit={submit}
      pending={save.isPending}
      error={save.isError ? errorMessage(save.error) : null}
      maxWidth="sm"
    >
      <TextField
        label="E-mail addresses"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setError(null);
        }}
        error={error !== null}
        helperText={
          error ??
          'One per line (or separated by commas). Each gets one e-mail per alarm of this record; empty: nobody.'
        }
        multiline
        minRows={4}
        fullWidth
        autoFocus
        slotProps={{ htmlInput: { maxLength: 26_000 } }}
      />
    </FormDialog>
  );
}

/**
 * Who is e-mailed about this record's alarms besides the organization's
 * subscribers. The display rule may hide the addresses; whoever may change
 * them still can (the dialog shows them).
 */
export function AlarmRecipientsCard({ record }: { record: TRecord }) {
  const user = useCurrentUser();
  const hidden = useAppSettings().hiddenFields.includes('alarm_recipients');
  const [editing, setEditing] = useState(false);
  const canEdit = hasPermission(user, ALARM_RECIPIENTS_PERMISSIONS);
  const recipients = record.alarm_recipients ?? [];
  const id = record.id;
  return (
    <SectionCard
      title="Alarm recipients"
      subtitle="E-mailed about every alarm of this record"
      action={
        canEdit && id ? (
          <Button size="small" startIcon={<EditOutlined />} onClick={() => setEditing(true)}>
            Edit
          </Button>
        ) : null
      }
    >
      {hidden ? (
        <Typography variant="body2" color="text.secondary">
          Not shown: your organization&apos;s display rule hides them.
        </Typography>
      ) : recipients.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          Nobody besides the people subscribed to alarm e-mails.
        </Typography>
      ) : (
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          {recipients.map((address) => (
            <Chip key={address} label={address} size="small" variant="outlined" />
          ))}
        </Stack>
      )}
      {editing && id ? (
        <RecipientsDialog record={{ ...record, id }} onClose={() => setEditing(false)} />
      ) : null}
    </SectionCard>
  );
}
