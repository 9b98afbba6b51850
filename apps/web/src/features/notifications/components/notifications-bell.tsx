import { NOTIFICATION_BADGE_MAX } from '@coldtrace/contract';
import NotificationsNone from '@mui/icons-material/NotificationsNone';
import NotificationsRounded from '@mui/icons-material/NotificationsRounded';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import { Suspense, useId, useState, useTransition, type MouseEvent } from 'react';
import { lazyPart, loadingButtonSx } from '../../../lib/lazy-part';
import { hasPermission } from '../../../lib/session';
import { useCurrentUser } from '../../session';
import { useNotifications } from '../api/get-notifications';
import { bellLabel } from '../bell-text';

// The menu loads on first use: the top bar only needs the bell and its badge.
const popover = lazyPart(() =>
  import('./notifications-popover').then((m) => m.NotificationsPopover),
);

/**
 * The notifications bell of the top bar (spec section 2): a badge with the
 * count up to 99, and the menu of the notifications (`NotificationsPopover`).
 * The first 100 are loaded and polled every 10 seconds while the tab is
 * visible. The bell is busy while the menu is still loading.
 */
export function NotificationsBell() {
  const user = useCurrentUser();
  const allowed = hasPermission(user, 'notifyReceive');
  const query = useNotifications(allowed);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [popoverLoaded, setPopoverLoaded] = useState(false);
  // A transition: until the code is there, the page stays as it is (no fallback flashes).
  const [loading, startLoading] = useTransition();
  const menuId = useId();
  const total = query.data?.total ?? 0;
  const label = bellLabel(total);

  return (
    <>
      <IconButton
        color="inherit"
        aria-label={label}
        aria-haspopup="dialog"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        aria-busy={loading || undefined}
        sx={loading ? loadingButtonSx : undefined}
        onPointerEnter={popover.preload}
        onFocus={popover.preload}
        onClick={(event: MouseEvent<HTMLElement>) => {
          const target = event.currentTarget;
          startLoading(() => {
            setPopoverLoaded(true);
            setAnchor(target);
          });
        }}
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
      <Suspense fallback={null}>
        {popoverLoaded ? (
          <popover.Component
            id={menuId}
            anchor={anchor}
            onClose={() => setAnchor(null)}
            allowed={allowed}
            query={query}
          />
        ) : null}
      </Suspense>
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
