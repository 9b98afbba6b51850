import Box from '@mui/material/Box';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useState } from 'react';
import { Outlet } from 'react-router';
import { PageLoading } from '../../components/page-loading';
import { SessionGuard } from '../../features/session';
import { layout, theme } from '../theme';
import { Footer } from './footer';
import { SideNavigation } from './side-navigation';
import { TopBar } from './top-bar';

/** Layout with side navigation, top bar and fixed footer (spec section 2). */
export function SideNavLayout() {
  const desktop = useMediaQuery(theme.breakpoints.up('ms'), { noSsr: true });
  const [drawerOpen, setDrawerOpen] = useState(false);
  return (
    <Box sx={{ display: 'flex', minHeight: '100dvh' }}>
      <TopBar onOpenNavigation={desktop ? undefined : () => setDrawerOpen(true)} />
      <SideNavigation
        permanent={desktop}
        open={drawerOpen && !desktop}
        onClose={() => setDrawerOpen(false)}
      />
      <Box
        component="main"
        sx={{
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
      <Footer />
    </Box>
  );
}

export default SideNavLayout;
