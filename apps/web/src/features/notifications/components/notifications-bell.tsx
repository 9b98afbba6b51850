import { NOTIFICATION_BADGE_MAX } from '@coldtrace/contract';
import CloseRounded from '@mui/icons-material/CloseRounded';
import NotificationsNone from '@mui/icons-material/NotificationsNone';
import NotificationsRounded from '@mui/icons-material/NotificationsRounded';
import Alert from '@mui/material/Alert';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Popover from '@mui/material/Popover';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useRef, useState, type MouseEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import { errorMessage } from '../../../components/error-handler';
import { hasPermission } from '../../../lib/session';
import { useCurrentUser } from '../../session';
import { useDismissNotifications } from '../api/dismiss-notifications';
import { useNotifications } from '../api/get-notifications';
import { bellLabel, notificationText } from '../bell-text';

/**
 * The notifications bell of the top bar (spec section 2): a badge with the
 * count up to 99; the menu lists each alarm as 'Record {id} has an alarm'
 * linking to the record, each dismissible (removed only once the server
 * has dismissed it), or all at once with 'Dismiss All'; 'No new
 * notifications' when empty. The first 100 are loaded and polled every 15
 * seconds while the tab is visible.
 */
export function NotificationsBell() {
  const user = useCurrentUser();
  const allowed = hasPermission(user, 'notifyReceive');
  const query = useNotifications(allowed);
  const dismiss = useDismissNotifications();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const titleId = useId();
  const total = query.data?.total ?? 0;
  const items = query.data?.items ?? [];
  const label = bellLabel(total);
  const pendingIds = new Set(dismiss.isPending ? dismiss.variables.map((n) => n.id) : []);

  const titleRef = useRef<HTMLHeadingElement>(null);
  /**
   * Dismissing removes the focused button; focus goes back to the menu's
   * title, so the keyboard (Escape, Tab) keeps working inside the menu.
   */
  useEffect(() => {
    if (anchor && document.activeElement === document.body) titleRef.current?.focus();
  }, [anchor, items.length]);

  const close = () => {
    setAnchor(null);
    dismiss.reset();
  };

  let content;
  if (!allowed) {
    content = <Empty>You do not receive notifications in this organization.</Empty>;
  } else if (query.isError && !query.data) {
    content = (
      <Box sx={{ p: 2 }}>
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void query.refetch()}>
              Retry
            </Button>
          }
        >
          Could not load the notifications: {errorMessage(query.error)}
        </Alert>
      </Box>
    );
  } else if (!query.data) {
    content = (
      <Box sx={{ p: 3, display: 'flex', justifyContent: 'center' }} role="status">
        <CircularProgress size={24} aria-label="Loading the notifications" />
      </Box>
    );
  } else if (items.length === 0) {
    content = <Empty>No new notifications</Empty>;
  } else {
    content = (
      <List
        dense
        disablePadding
        aria-labelledby={titleId}
        sx={{ maxHeight: 360, overflow: 'auto' }}
      >
        {items.map((n) => (
          <ListItem
            key={n.id}
            disablePadding
            secondaryAction={
              <IconButton
                edge="end"
                size="small"
                aria-label={`Dismiss: ${notificationText(n)}`}
                disabled={pendingIds.has(n.id)}
                onClick={() => dismiss.mutate([n])}
              >
                {pendingIds.has(n.id) ? <CircularProgress size={16} /> : <CloseRounded />}
              </IconButton>
            }
          >
            <ListItemButton
              component={RouterLink}
              to={`/recorddetails/${n.record_id}`}
              onClick={close}
            >
              <ListItemText primary={notificationText(n)} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    );
  }

  return (
    <>
      <IconButton
        color="inherit"
        aria-label={label}
        aria-haspopup="dialog"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
      >
        <Badge
          // The count is drawn by CSS, not as text: the button's name says it in words
          // ('More than 99 notifications' where the badge shows 99+).
          badgeContent={total > 0 ? <BadgeCount total={total} /> : null}
          invisible={total === 0}
          color="error"
          overlap="circular"
          slotProps={{ badge: { 'aria-hidden': true } }}
        >
          {total > 0 ? <NotificationsRounded /> : <NotificationsNone />}
        </Badge>
      </IconButton>
      <Popover
        id={menuId}
        open={anchor !== null}
        anchorEl={anchor}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{
          paper: {
            role: 'dialog',
            'aria-labelledby': titleId,
            sx: { width: 340, maxWidth: 'calc(100vw - 16px)' },
          },
        }}
      >
        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            px: 2,
            py: 1,
            gap: 1,
          }}
        >
          <Typography
            id={titleId}
            ref={titleRef}
            tabIndex={-1}
            variant="subtitle1"
            component="h2"
            sx={{ fontWeight: 600, '&:focus': { outline: 'none' } }}
          >
            Notifications
          </Typography>
          {items.length > 0 ? (
            <Button
              size="small"
              onClick={() => dismiss.mutate(items)}
              loading={dismiss.isPending && dismiss.variables.length > 1}
              disabled={dismiss.isPending}
            >
              Dismiss All
            </Button>
          ) : null}
        </Box>
        <Divider />
        {content}
        {dismiss.isError ? (
          <Alert severity="error" role="alert" sx={{ m: 1 }}>
            Could not dismiss: {errorMessage(dismiss.error)}
          </Alert>
        ) : null}
      </Popover>
    </>
  );
}

/** The badge's figure, up to 99 (then 99+). */
function BadgeCount({ total }: { total: number }) {
  const shown = total > NOTIFICATION_BADGE_MAX ? `${NOTIFICATION_BADGE_MAX}+` : String(total);
  return (
    <Box
      component="span"
      data-count={shown}
      sx={{ '&::before': { content: 'attr(data-count)' } }}
    />
  );
}

function Empty({ children }: { children: string }) {
  return (
    <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 3, textAlign: 'center' }}>
      {children}
    </Typography>
  );
}
