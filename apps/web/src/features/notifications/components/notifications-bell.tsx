import NotificationsNone from '@mui/icons-material/NotificationsNone';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';

/**
 * The notifications bell of the top bar. The notification list comes with a
 * later capability; until then the bell is shown disabled and says so. It is
 * `aria-disabled` rather than `disabled` so keyboard users can still reach it
 * and hear why.
 */
export function NotificationsBell() {
  return (
    <Tooltip title="Notifications are not available yet" describeChild>
      <IconButton
        color="inherit"
        aria-label="Notifications"
        aria-disabled="true"
        disableRipple
        sx={{ opacity: 0.55, cursor: 'default' }}
      >
        <NotificationsNone />
      </IconButton>
    </Tooltip>
  );
}
