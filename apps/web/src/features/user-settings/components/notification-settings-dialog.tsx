import type { TUser } from '@coldtrace/contract';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import LinearProgress from '@mui/material/LinearProgress';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { sessionOrganization } from '../../../lib/session';
import { useUpdateUserOrgSettings } from '../api/update-user-org-settings';

interface Flags {
  myScans: boolean;
  anyScans: boolean;
}

/** The switches' values: the user's org_settings lists containing the session organization. */
export function notificationFlags(user: TUser): Flags {
  const orgId = user.last_session_org_id;
  if (!orgId) return { myScans: false, anyScans: false };
  return {
    myScans: user.org_settings.alarm_notify_my_scans_orgs.includes(orgId),
    anyScans: user.org_settings.alarm_notify_any_scans_orgs.includes(orgId),
  };
}

/**
 * Notification Settings dialog (spec section 2): two switches for the session
 * organization; changing either saves both values.
 */
export function NotificationSettingsDialog({
  user,
  onClose,
}: {
  user: TUser;
  onClose: () => void;
}) {
  const titleId = useId();
  const save = useUpdateUserOrgSettings();
  const [flags, setFlags] = useState<Flags>(() => notificationFlags(user));
  const organization = sessionOrganization(user);
  const disabled = !organization || save.isPending;

  const change = (key: keyof Flags, checked: boolean) => {
    const previous = flags;
    const next = { ...flags, [key]: checked };
    setFlags(next);
    save.mutate(
      { alarm_notify_my_scans: next.myScans, alarm_notify_any_scans: next.anyScans },
      { onError: () => setFlags(previous) },
    );
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Notification Settings</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {organization
            ? `Alarm e-mails for ${organization.name}.`
            : 'Choose an organization first: these settings apply to one organization.'}
        </Typography>
        <FormGroup sx={{ gap: 1 }}>
          <FormControlLabel
            control={
              <Switch
                checked={flags.myScans}
                onChange={(event) => change('myScans', event.target.checked)}
              />
            }
            label="Send an email notification when one of my scans triggers an alarm"
            disabled={disabled}
          />
          <FormControlLabel
            control={
              <Switch
                checked={flags.anyScans}
                onChange={(event) => change('anyScans', event.target.checked)}
              />
            }
            label="Send an email notification when any alarm is triggered in this organization"
            disabled={disabled}
          />
        </FormGroup>
      </DialogContent>
      {save.isPending ? <LinearProgress aria-label="Saving" /> : null}
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
