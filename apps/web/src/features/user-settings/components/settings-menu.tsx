import type { TUser } from '@coldtrace/contract';
import DnsOutlined from '@mui/icons-material/DnsOutlined';
import GroupOutlined from '@mui/icons-material/GroupOutlined';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import LocalOfferOutlined from '@mui/icons-material/LocalOfferOutlined';
import Logout from '@mui/icons-material/Logout';
import LockResetOutlined from '@mui/icons-material/LockResetOutlined';
import NotificationsActiveOutlined from '@mui/icons-material/NotificationsActiveOutlined';
import PersonOutlined from '@mui/icons-material/PersonOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import ThermostatOutlined from '@mui/icons-material/ThermostatOutlined';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState, type ReactElement, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { hasPermission } from '../../../lib/session';
import { useLogout } from '../../session';
import { ChangePasswordDialog } from './change-password-dialog';
import { NotificationSettingsDialog } from './notification-settings-dialog';
import { ProfileDialog } from './profile-dialog';
import { UnitsSettingsDialog } from './units-settings-dialog';

type DialogName = 'profile' | 'password' | 'units' | 'notifications';

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
 * The settings menu of the top bar: View Profile, Change Password, Units Settings, Notification
 * Settings, the admin links the user may see, and Log Out.
 */
export function SettingsMenu({ user }: { user: TUser }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [dialog, setDialog] = useState<DialogName | null>(null);
  const menuId = useId();
  const buttonId = useId();
  const logout = useLogout();
  const open = anchor !== null;
  const close = () => setAnchor(null);
  const openDialog = (name: DialogName) => {
    close();
    setDialog(name);
  };
  const links = adminLinks(user);

  const items: ReactNode[] = [
    <MenuItem key="profile" onClick={() => openDialog('profile')}>
      <ListItemIcon>
        <PersonOutlined fontSize="small" />
      </ListItemIcon>
      <ListItemText>View Profile</ListItemText>
    </MenuItem>,
    <MenuItem key="password" onClick={() => openDialog('password')}>
      <ListItemIcon>
        <LockResetOutlined fontSize="small" />
      </ListItemIcon>
      <ListItemText>Change Password</ListItemText>
    </MenuItem>,
    <MenuItem key="units" onClick={() => openDialog('units')}>
      <ListItemIcon>
        <ThermostatOutlined fontSize="small" />
      </ListItemIcon>
      <ListItemText>Units Settings</ListItemText>
    </MenuItem>,
    <MenuItem key="notifications" onClick={() => openDialog('notifications')}>
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
        <MenuItem key={link.to} component={RouterLink} to={link.to} onClick={close}>
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
        close();
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
    <>
      <IconButton
        id={buttonId}
        color="inherit"
        aria-label="Settings"
        aria-haspopup="menu"
        aria-controls={open ? menuId : undefined}
        aria-expanded={open}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <SettingsOutlined />
      </IconButton>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={open}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ list: { 'aria-labelledby': buttonId }, paper: { sx: { minWidth: 240 } } }}
      >
        {items}
      </Menu>
      {dialog === 'profile' ? <ProfileDialog user={user} onClose={() => setDialog(null)} /> : null}
      {dialog === 'password' ? <ChangePasswordDialog onClose={() => setDialog(null)} /> : null}
      {dialog === 'units' ? (
        <UnitsSettingsDialog user={user} onClose={() => setDialog(null)} />
      ) : null}
      {dialog === 'notifications' ? (
        <NotificationSettingsDialog user={user} onClose={() => setDialog(null)} />
      ) : null}
    </>
  );
}
