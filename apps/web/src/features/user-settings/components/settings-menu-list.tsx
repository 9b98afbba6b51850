import type { TUser } from '@coldtrace/contract';
import DnsOutlined from '@mui/icons-material/DnsOutlined';
import FactCheckOutlined from '@mui/icons-material/FactCheckOutlined';
import GroupOutlined from '@mui/icons-material/GroupOutlined';
import WebhookOutlined from '@mui/icons-material/WebhookOutlined';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import LocalOfferOutlined from '@mui/icons-material/LocalOfferOutlined';
import Logout from '@mui/icons-material/Logout';
import LockResetOutlined from '@mui/icons-material/LockResetOutlined';
import NotificationsActiveOutlined from '@mui/icons-material/NotificationsActiveOutlined';
import PersonOutlined from '@mui/icons-material/PersonOutlined';
import PhonelinkLockOutlined from '@mui/icons-material/PhonelinkLockOutlined';
import ThermostatOutlined from '@mui/icons-material/ThermostatOutlined';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import type { ReactElement, ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { hasPermission } from '../../../lib/session';
import { useLogout } from '../../session';
import type { SettingsDialogName } from './settings-dialogs';

interface AdminLink {
  to: string;
  label: string;
  icon: ReactElement;
}

/** Admin links of the settings menu, filtered by permission (spec sections 2 and 6). */
export function adminLinks(user: TUser): AdminLink[] {
  const links: AdminLink[] = [];
  if (hasPermission(user, 'sysAdminUser')) {
    links.push({ to: '/organization/apikeys', label: 'API Keys', icon: <KeyOutlined /> });
    links.push({ to: '/organization/admin', label: 'Manage Users', icon: <GroupOutlined /> });
    links.push({ to: '/organization/webhooks', label: 'Webhooks', icon: <WebhookOutlined /> });
    links.push({ to: '/audit-review', label: 'Audit Trail Review', icon: <FactCheckOutlined /> });
  }
  if (hasPermission(user, 'sysAssignTags')) {
    links.push({
      to: '/organization/assign-tags',
      label: 'Assign Tags',
      icon: <LocalOfferOutlined />,
    });
  }
  if (user.is_server_admin === true) {
    links.push({ to: '/serveradmin', label: 'Server Administration', icon: <DnsOutlined /> });
  }
  return links;
}

/**
 * The open settings menu (loaded on first use by `SettingsMenu`): View Profile, Change
 * Password, Second Factor, Units Settings, Notification Settings, the admin links the user may see, and
 * Log Out.
 */
export function SettingsMenuList({
  id,
  buttonId,
  anchor,
  user,
  onClose,
  onOpenDialog,
}: {
  id: string;
  buttonId: string;
  anchor: HTMLElement | null;
  user: TUser;
  onClose: () => void;
  onOpenDialog: (name: SettingsDialogName) => void;
}) {
  const logout = useLogout();
  const links = adminLinks(user);

  const items: ReactNode[] = [
    <MenuItem key="profile" onClick={() => onOpenDialog('profile')}>
      <ListItemIcon>
        <PersonOutlined fontSize="small" />
      </ListItemIcon>
      <ListItemText>View Profile</ListItemText>
    </MenuItem>,
    <MenuItem key="password" onClick={() => onOpenDialog('password')}>
      <ListItemIcon>
        <LockResetOutlined fontSize="small" />
      </ListItemIcon>
      <ListItemText>Change Password</ListItemText>
    </MenuItem>,
    <MenuItem key="second-factor" onClick={() => onOpenDialog('second-factor')}>
      <ListItemIcon>
        <PhonelinkLockOutlined fontSize="small" />
      </ListItemIcon>
      <ListItemText>Second Factor</ListItemText>
    </MenuItem>,
    <MenuItem key="units" onClick={() => onOpenDialog('units')}>
      <ListItemIcon>
        <ThermostatOutlined fontSize="small" />
      </ListItemIcon>
      <ListItemText>Units Settings</ListItemText>
    </MenuItem>,
    <MenuItem key="notifications" onClick={() => onOpenDialog('notifications')}>
      <ListItemIcon>
        <NotificationsActiveOutlined fontSize="small" />
      </ListItemIcon>
      <ListItemText>Notification Settings</ListItemText>
    </MenuItem>,
  ];
  if (links.length > 0) {
    items.push(<Divider key="admin-divider" />);
    for (const link of links) {
      items.push(
        <MenuItem key={link.to} component={RouterLink} to={link.to} onClick={onClose}>
          <ListItemIcon>{link.icon}</ListItemIcon>
          <ListItemText>{link.label}</ListItemText>
        </MenuItem>,
      );
    }
  }
  items.push(
    <Divider key="logout-divider" />,
    <MenuItem
      key="logout"
      disabled={logout.isPending}
      onClick={() => {
        onClose();
        logout.mutate();
      }}
    >
      <ListItemIcon>
        <Logout fontSize="small" />
      </ListItemIcon>
      <ListItemText>Log Out</ListItemText>
    </MenuItem>,
  );

  return (
    <Menu
      id={id}
      anchorEl={anchor}
      open={anchor !== null}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{ list: { 'aria-labelledby': buttonId }, paper: { sx: { minWidth: 240 } } }}
    >
      {items}
    </Menu>
  );
}
