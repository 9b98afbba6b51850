import type { TUser } from '@coldtrace/contract';
import { ChangePasswordDialog } from './change-password-dialog';
import { NotificationSettingsDialog } from './notification-settings-dialog';
import { ProfileDialog } from './profile-dialog';
import { SecondFactorDialog } from './second-factor-dialog';
import { UnitsSettingsDialog } from './units-settings-dialog';

/** The dialogs the settings menu opens. */
export type SettingsDialogName =
  'profile' | 'password' | 'second-factor' | 'units' | 'notifications';

/** One dialog of the settings menu (they load together, on first use). */
export function SettingsDialog({
  name,
  user,
  onClose,
}: {
  name: SettingsDialogName;
  user: TUser;
  onClose: () => void;
}) {
  switch (name) {
    case 'profile':
      return <ProfileDialog user={user} onClose={onClose} />;
    case 'password':
      return <ChangePasswordDialog onClose={onClose} />;
    case 'second-factor':
      return <SecondFactorDialog user={user} onClose={onClose} />;
    case 'units':
      return <UnitsSettingsDialog user={user} onClose={onClose} />;
    case 'notifications':
      return <NotificationSettingsDialog user={user} onClose={onClose} />;
  }
}
