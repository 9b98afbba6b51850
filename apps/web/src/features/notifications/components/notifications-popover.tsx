import CloseRounded from '@mui/icons-material/CloseRounded';
import Alert from '@mui/material/Alert';
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
import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { errorMessage } from '../../../components/error-handler';
import { useAppSettings } from '../../../lib/app-settings';
import { useDismissNotifications } from '../api/dismiss-notifications';
import type { NotificationList } from '../api/get-notifications';
import { notificationLines, notificationText } from '../bell-text';
import { DismissAllDialog } from './dismiss-all-dialog';

/**
 * The bell's menu (loaded on first use by `NotificationsBell`): each alarm as
 * 'Record {id} has an alarm' linking to the record, under it the alarm's kind
 * and direction, when it happened (the user's time zone) and the shipment's
 * reference, newest first; each dismissible (removed only once the server has
 * dismissed it), or all at once with 'Dismiss All' after a confirmation
 * naming how many; 'No new notifications' when empty.
 */
export function NotificationsPopover({
  id,
  anchor,
  onClose,
  allowed,
  query,
}: {
  id: string;
  anchor: HTMLElement | null;
  onClose: () => void;
  /** The user receives notifications in this organization. */
  allowed: boolean;
  /** The bell's notifications query (it polls). */
  query: UseQueryResult<NotificationList>;
}) {
  const dismiss = useDismissNotifications();
  const settings = useAppSettings();
  const [confirmAll, setConfirmAll] = useState(false);
  const titleId = useId();
  const items = query.data?.items ?? [];
  const pendingIds = new Set(dismiss.isPending ? dismiss.variables.map((n) => n.id) : []);

  const titleRef = useRef<HTMLHeadingElement>(null);
  /**
   * Dismissing removes the focused button; focus goes back to the menu's
   * title, so the keyboard (Escape, Tab) keeps working inside the menu.
   */
  useEffect(() => {
    if (anchor && document.activeElement === document.body) titleRef.current?.focus();
  }, [anchor, items.length]);

  /**
   * After 'Dismiss All' is confirmed, the confirmation cannot give focus back
   * to the button that opened it (disabled while dismissing, then gone): once
   * it has faded out, the menu's title takes focus, so Escape closes the menu
   * (otherwise the keyboard stays with the fading dialog and Escape is lost).
   */
  const focusTitleIfLost = () => {
    const title = titleRef.current;
    const menu = title?.closest('[role="dialog"]');
    if (title && menu && !menu.contains(document.activeElement)) title.focus();
  };

  const close = () => {
    onClose();
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
              <ListItemText
                primary={notificationText(n)}
                secondary={notificationLines(n, settings).map((line) => (
                  <span key={line} style={{ display: 'block' }}>
                    {line}
                  </span>
                ))}
              />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    );
  }

  return (
    <Popover
      id={id}
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
            onClick={() => setConfirmAll(true)}
            loading={dismiss.isPending && dismiss.variables.length > 1}
            disabled={dismiss.isPending}
          >
            Dismiss All
          </Button>
        ) : null}
      </Box>
      <Divider />
      {content}
      <DismissAllDialog
        open={confirmAll}
        count={items.length}
        total={query.data?.total ?? items.length}
        onCancel={() => setConfirmAll(false)}
        onConfirm={() => {
          setConfirmAll(false);
          dismiss.mutate(items);
        }}
        onExited={focusTitleIfLost}
      />
      {dismiss.isError ? (
        <Alert severity="error" role="alert" sx={{ m: 1 }}>
          Could not dismiss: {errorMessage(dismiss.error)}
        </Alert>
      ) : null}
    </Popover>
  );
}

function Empty({ children }: { children: string }) {
  return (
    <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 3, textAlign: 'center' }}>
      {children}
    </Typography>
  );
}
