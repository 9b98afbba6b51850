import type { TPermissionName, TUser } from '@coldtrace/contract';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import DeviceThermostatOutlined from '@mui/icons-material/DeviceThermostatOutlined';
import ListAltOutlined from '@mui/icons-material/ListAltOutlined';
import QueryStatsOutlined from '@mui/icons-material/QueryStatsOutlined';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Toolbar from '@mui/material/Toolbar';
import { alpha } from '@mui/material/styles';
import type { ReactElement } from 'react';
import { NavLink } from 'react-router';
import { useCurrentUser } from '../../features/session';
import { hasPermission } from '../../lib/session';
import { layout } from '../theme';

interface NavItem {
  to: string;
  label: string;
  icon: ReactElement;
  /** Shown only with this permission (any one of a list). */
  permission?: TPermissionName | readonly TPermissionName[];
}

/** Spec section 2, "Side navigation". */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/', label: 'Dashboard', icon: <DashboardOutlined /> },
  { to: '/allrecords', label: 'All Records', icon: <ListAltOutlined /> },
  {
    to: '/kpis',
    label: 'Lanes & carriers',
    icon: <QueryStatsOutlined />,
    permission: 'sysDataRead',
  },
  {
    to: '/alldevices',
    label: 'All Devices',
    icon: <DeviceThermostatOutlined />,
    permission: 'sysAdminUser',
  },
  {
    to: '/configuration',
    label: 'Configuration',
    icon: <TuneOutlined />,
    permission: ['sysAdminLoc', 'sysAdminUser'],
  },
];

/** The items the user may see: an item is hidden without its permission. */
export function visibleNavItems(user: TUser | null): NavItem[] {
  return NAV_ITEMS.filter(
    (item) => item.permission === undefined || hasPermission(user, item.permission),
  );
}

function NavigationList({ onNavigate }: { onNavigate?: () => void }) {
  const items = visibleNavItems(useCurrentUser());
  return (
    <Box component="nav" aria-label="Main">
      <List disablePadding sx={{ py: 1 }}>
        {items.map((item) => (
          <ListItem key={item.to} disablePadding>
            <ListItemButton
              component={NavLink}
              to={item.to}
              end={item.to === '/'}
              onClick={onNavigate}
              sx={(theme) => ({
                flexDirection: 'column',
                alignItems: 'center',
                gap: 0.5,
                py: 1.5,
                px: 0.25,
                mx: 0.5,
                my: 0.25,
                borderRadius: 2,
                color: 'text.secondary',
                textAlign: 'center',
                '& svg': { fontSize: 26 },
                '&.active': {
                  color: 'primary.main',
                  backgroundColor: alpha(theme.palette.primary.main, 0.1),
                },
                '&.active:hover': {
                  backgroundColor: alpha(theme.palette.primary.main, 0.16),
                },
              })}
            >
              {item.icon}
              <Box component="span" sx={{ fontSize: 11.5, fontWeight: 600, lineHeight: 1.2 }}>
                {item.label}
              </Box>
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </Box>
  );
}

const paperSx = {
  width: layout.sideNavWidth,
  boxSizing: 'border-box',
  borderRight: 1,
  borderColor: 'divider',
} as const;

/**
 * The side navigation, 102 px wide, icon above a short label: permanent at and
 * above 768 px, a temporary drawer below.
 */
export function SideNavigation({
  permanent,
  open,
  onClose,
}: {
  permanent: boolean;
  open: boolean;
  onClose: () => void;
}) {
  if (permanent) {
    return (
      <Drawer
        variant="permanent"
        sx={{ width: layout.sideNavWidth, flexShrink: 0 }}
        slotProps={{ paper: { sx: { ...paperSx, pb: `${layout.footerHeight}px` } } }}
      >
        <Toolbar />
        <NavigationList />
      </Drawer>
    );
  }
  return (
    <Drawer
      variant="temporary"
      open={open}
      onClose={onClose}
      // Above the fixed top bar and footer, like any other modal.
      sx={{ zIndex: (theme) => theme.zIndex.modal }}
      // A modal dialog with a name, so a screen reader says what opened.
      slotProps={{
        paper: {
          role: 'dialog',
          'aria-modal': true,
          'aria-label': 'Navigation',
          sx: { ...paperSx, pt: 1 },
        },
      }}
    >
      <NavigationList onNavigate={onClose} />
    </Drawer>
  );
}
