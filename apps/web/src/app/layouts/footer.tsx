import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { Link as RouterLink } from 'react-router';
import { layout } from '../theme';

const LINKS = [
  { to: '/terms-of-use', label: 'Terms of Use Agreement' },
  { to: '/privacy-policy', label: 'Privacy Policy' },
  { to: '/terms-of-use#warranty', label: 'Warranty' },
] as const;

/** The fixed 45 px footer: copyright line (2025) and the legal links (spec sections 2 and 9). */
export function Footer() {
  return (
    <Box
      component="footer"
      sx={(theme) => ({
        position: 'fixed',
        left: 0,
        right: 0,
        bottom: 0,
        height: layout.footerHeight,
        zIndex: theme.zIndex.drawer + 1,
        display: 'flex',
        flexDirection: { xs: 'column', sm: 'row' },
        alignItems: 'center',
        justifyContent: { xs: 'center', sm: 'space-between' },
        columnGap: 2,
        px: { xs: 1, sm: 2 },
        bgcolor: 'background.paper',
        borderTop: 1,
        borderColor: 'divider',
        color: 'text.secondary',
        fontSize: { xs: 11, sm: 12.5 },
        lineHeight: 1.45,
        whiteSpace: 'nowrap',
      })}
    >
      <span>Copyright © 2025 Coldtrace</span>
      <Box
        component="nav"
        aria-label="Legal"
        sx={{ display: 'flex', alignItems: 'center', gap: { xs: 1.25, sm: 2 } }}
      >
        {LINKS.map((link) => (
          <Link key={link.to} component={RouterLink} to={link.to} color="inherit">
            {link.label}
          </Link>
        ))}
        <Link component={RouterLink} to="/changelog" color="inherit">
          Changelog
        </Link>
      </Box>
    </Box>
  );
}
