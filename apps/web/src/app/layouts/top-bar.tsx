import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import { Link as RouterLink } from 'react-router';
import { Logo } from '../../components/logo';
import { NotificationsBell } from '../../features/notifications';
import { OrganizationSwitcher } from '../../features/organization';
import { SearchBox } from '../../features/search';
import { useCurrentUser, useSession } from '../../features/session';
import { SettingsMenu } from '../../features/user-settings';

/**
 * The top bar (spec section 2): the logo linking to /; a Log In button when no
 * user is signed in (or the info is missing, or the user is locked); otherwise
 * the organization switcher, the notifications bell and the settings menu.
 */
export function TopBar({ onOpenNavigation }: { onOpenNavigation?: () => void }) {
  const session = useSession();
  const user = useCurrentUser();
  return (
    <AppBar position="fixed" color="primary" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
      <Toolbar sx={{ gap: { xs: 0.5, sm: 1 }, px: { xs: 1, sm: 2 } }}>
        {onOpenNavigation ? (
          <IconButton color="inherit" aria-label="Open navigation" onClick={onOpenNavigation}>
            <MenuIcon />
          </IconButton>
        ) : null}
        <Logo />
        {user ? <SearchBox /> : null}
        <Box sx={{ flexGrow: 1 }} />
        {session.isPending ? null : user ? (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: { xs: 0, sm: 0.5 }, minWidth: 0 }}>
            <OrganizationSwitcher user={user} />
            <NotificationsBell />
            <SettingsMenu user={user} />
          </Box>
        ) : (
          <Button
            component={RouterLink}
            to="/login"
            variant="outlined"
            color="inherit"
            sx={{ borderColor: 'rgba(255,255,255,0.6)' }}
          >
            Log In
          </Button>
        )}
      </Toolbar>
    </AppBar>
  );
}
