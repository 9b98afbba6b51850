import Box from '@mui/material/Box';
import { Outlet } from 'react-router';
import { PageLoading } from '../../components/page-loading';
import { SessionGuard } from '../../features/session';
import { layout } from '../theme';
import { MAIN_ID } from './skip-link';
import { useShell } from './shell-layout';
import { SideNavigation } from './side-navigation';

/** Layout with side navigation (spec section 2); the top bar and footer come from the shell. */
export function SideNavLayout() {
  const { desktop, drawerOpen, setDrawerOpen } = useShell();
  return (
    <Box sx={{ display: 'flex', minHeight: '100dvh' }}>
      <SideNavigation
        permanent={desktop}
        open={drawerOpen && !desktop}
        onClose={() => setDrawerOpen(false)}
      />
      <Box
        component="main"
        id={MAIN_ID}
        tabIndex={-1}
        sx={{
          '&:focus': { outline: 'none' },
          flexGrow: 1,
          minWidth: 0,
          pt: `${layout.toolbarMinHeight + 24}px`,
          pb: `${layout.footerHeight + 32}px`,
          px: { xs: 2, sm: 3, lg: 4 },
        }}
      >
        <Box sx={{ maxWidth: 1400, mx: 'auto' }}>
          <SessionGuard pending={<PageLoading label="Loading your session" />}>
            <Outlet />
          </SessionGuard>
        </Box>
      </Box>
    </Box>
  );
}

export default SideNavLayout;
