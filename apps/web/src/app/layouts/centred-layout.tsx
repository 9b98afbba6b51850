import Box from '@mui/material/Box';
import { Outlet } from 'react-router';
import { PageLoading } from '../../components/page-loading';
import { SessionGuard } from '../../features/session';
import { layout } from '../theme';
import { MAIN_ID } from './skip-link';

/** Centred layout without side navigation (spec section 2): login, password, legal, changelog. */
export function CentredLayout() {
  return (
    <Box sx={{ minHeight: '100dvh' }}>
      <Box
        component="main"
        id={MAIN_ID}
        tabIndex={-1}
        sx={{
          '&:focus': { outline: 'none' },
          pt: `${layout.toolbarMinHeight + 24}px`,
          pb: `${layout.footerHeight + 32}px`,
          px: { xs: 2, sm: 3 },
        }}
      >
        <Box sx={{ maxWidth: 880, mx: 'auto' }}>
          <SessionGuard pending={<PageLoading label="Loading your session" />}>
            <Outlet />
          </SessionGuard>
        </Box>
      </Box>
    </Box>
  );
}

export default CentredLayout;
