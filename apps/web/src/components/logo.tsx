import AcUnit from '@mui/icons-material/AcUnit';
import Box from '@mui/material/Box';
import { Link as RouterLink } from 'react-router';

/** The product mark: a snowflake and the name, linking to the dashboard. */
export function Logo() {
  return (
    <Box
      component={RouterLink}
      to="/"
      aria-label="Coldtrace"
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 1,
        color: 'inherit',
        textDecoration: 'none',
        fontWeight: 700,
        fontSize: '1.25rem',
        letterSpacing: '0.01em',
        whiteSpace: 'nowrap',
        borderRadius: 1,
        px: 0.5,
      }}
    >
      <Box
        component="span"
        aria-hidden
        sx={{
          display: 'inline-flex',
          alignItems: 'center',
          justifyContent: 'center',
          width: 32,
          height: 32,
          borderRadius: '8px',
          bgcolor: 'rgba(255,255,255,0.14)',
          border: '1px solid rgba(255,255,255,0.28)',
        }}
      >
        <AcUnit sx={{ fontSize: 20 }} />
      </Box>
      {/* On phones the mark alone leaves room for the organization name. */}
      <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
        Coldtrace
      </Box>
    </Box>
  );
}
