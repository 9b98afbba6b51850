import type { TUser } from '@coldtrace/contract';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import IconButton from '@mui/material/IconButton';
import { Suspense, useId, useState, useTransition } from 'react';
import { lazyPart, loadingButtonSx } from '../../../lib/lazy-part';
import type { SettingsDialogName } from './settings-dialogs';

// The menu and its dialogs load on first use: the top bar only needs the button.
const menu = lazyPart(() => import('./settings-menu-list').then((m) => m.SettingsMenuList));
const dialogs = lazyPart(() => import('./settings-dialogs').then((m) => m.SettingsDialog));

/**
 * The settings menu of the top bar: View Profile, Change Password, Units Settings, Notification
 * Settings, the admin links the user may see, and Log Out. The button is busy while the menu
 * or a dialog is still loading.
 */
export function SettingsMenu({ user }: { user: TUser }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [menuLoaded, setMenuLoaded] = useState(false);
  const [dialog, setDialog] = useState<SettingsDialogName | null>(null);
  // A transition: until the code is there, the page stays as it is (no fallback flashes).
  const [loading, startLoading] = useTransition();
  const menuId = useId();
  const buttonId = useId();
  const open = anchor !== null;
  const close = () => setAnchor(null);

  return (
    <>
      <IconButton
        id={buttonId}
        color="inherit"
        aria-label="Settings"
        aria-haspopup="menu"
        aria-controls={open ? menuId : undefined}
        aria-expanded={open}
        aria-busy={loading || undefined}
        sx={loading ? loadingButtonSx : undefined}
        onPointerEnter={menu.preload}
        onFocus={menu.preload}
        onClick={(event) => {
          const target = event.currentTarget;
          dialogs.preload();
          startLoading(() => {
            setMenuLoaded(true);
            setAnchor(target);
          });
        }}
      >
        <SettingsOutlined />
      </IconButton>
      <Suspense fallback={null}>
        {menuLoaded ? (
          <menu.Component
            id={menuId}
            buttonId={buttonId}
            anchor={anchor}
            user={user}
            onClose={close}
            onOpenDialog={(name) => {
              close();
              startLoading(() => setDialog(name));
            }}
          />
        ) : null}
      </Suspense>
      <Suspense fallback={null}>
        {dialog ? (
          <dialogs.Component name={dialog} user={user} onClose={() => setDialog(null)} />
        ) : null}
      </Suspense>
    </>
  );
}
