import {
  BREAKPOINTS,
  DESKTOP_BREAKPOINT,
  FOOTER_HEIGHT,
  SIDE_NAV_WIDTH,
  TOOLBAR_MIN_HEIGHT,
} from '@coldtrace/contract';
import { alpha, createTheme, type ThemeOptions } from '@mui/material/styles';

/**
 * The one theme of the web app (ui.md, "Visual language"): the spec's
 * breakpoints (section 9), a calm cold-chain palette with a deep blue primary,
 * and the status colours every screen uses the same way.
 */

declare module '@mui/material/styles' {
  interface BreakpointOverrides {
    xs: true;
    sm: true;
    /** 768 px: the desktop breakpoint (side navigation becomes permanent). */
    ms: true;
    md: true;
    /** 1024 px. */
    ml: true;
    lg: true;
    xl: true;
  }

  interface StatusColors {
    /** Record OK. */
    ok: string;
    /** Record in alarm. */
    alarm: string;
    /** Trip in transit. */
    inTransit: string;
    /** Trip not departed. */
    notDeparted: string;
    /** Trip arrived (drawn as a green outline). */
    arrived: string;
    /** Acknowledged alarms. */
    acknowledged: string;
  }

  interface Palette {
    status: StatusColors;
  }

  interface PaletteOptions {
    status?: Partial<StatusColors>;
  }
}

/** Layout sizes of spec section 9, in px. */
export const layout = {
  toolbarMinHeight: TOOLBAR_MIN_HEIGHT,
  footerHeight: FOOTER_HEIGHT,
  sideNavWidth: SIDE_NAV_WIDTH,
  desktopBreakpoint: DESKTOP_BREAKPOINT,
} as const;

const deepBlue = '#0b3d6e';
const iceBlue = '#0277a8';

export const statusColors = {
  ok: '#2e7d32',
  alarm: '#c62828',
  inTransit: '#1565c0',
  notDeparted: '#616161',
  arrived: '#2e7d32',
  acknowledged: '#8a8f98',
} as const;

const baseOptions: ThemeOptions = {
  breakpoints: { values: { ...BREAKPOINTS } },
  palette: {
    mode: 'light',
    primary: { main: deepBlue, light: '#3c6a99', dark: '#062a4d', contrastText: '#ffffff' },
    secondary: { main: iceBlue, contrastText: '#ffffff' },
    success: { main: statusColors.ok },
    error: { main: statusColors.alarm },
    info: { main: statusColors.inTransit },
    background: { default: '#f3f6f9', paper: '#ffffff' },
    text: { primary: '#1b2430', secondary: '#52606d' },
    divider: '#dde3ea',
    status: statusColors,
  },
  shape: { borderRadius: 8 },
  typography: {
    fontFamily:
      '"Inter", "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, sans-serif',
    h1: { fontSize: '1.75rem', fontWeight: 600, letterSpacing: '-0.01em' },
    h2: { fontSize: '1.375rem', fontWeight: 600 },
    h3: { fontSize: '1.125rem', fontWeight: 600 },
    h4: { fontSize: '1.75rem', fontWeight: 600, letterSpacing: '-0.01em' },
    h5: { fontSize: '1.25rem', fontWeight: 600 },
    h6: { fontSize: '1.0625rem', fontWeight: 600 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  // The toolbar is at least 67 px at every width (spec section 9).
  mixins: { toolbar: { minHeight: TOOLBAR_MIN_HEIGHT } },
  components: {
    MuiToolbar: {
      styleOverrides: { root: { minHeight: TOOLBAR_MIN_HEIGHT } },
    },
    MuiAppBar: {
      defaultProps: { elevation: 0 },
    },
    MuiButton: {
      defaultProps: { disableElevation: true },
    },
    // Keyboard focus as a 2 px ring, not only the faint ripple tint (ui.md, "Accessibility").
    MuiButtonBase: {
      styleOverrides: {
        root: { '&.Mui-focusVisible': { outline: `2px solid ${iceBlue}`, outlineOffset: 2 } },
      },
    },
    // Inside menus and lists the ring is drawn inwards, where it cannot be clipped.
    MuiMenuItem: {
      styleOverrides: { root: { '&.Mui-focusVisible': { outlineOffset: -2 } } },
    },
    // A disabled field's help text still says something ("Loading…", why it is
    // disabled): read at full contrast, not in the disabled grey (axe: color-contrast).
    MuiFormHelperText: {
      styleOverrides: {
        root: ({ theme }) => ({ '&.Mui-disabled': { color: theme.palette.text.secondary } }),
      },
    },
    MuiPaper: {
      styleOverrides: { outlined: { borderColor: '#dde3ea' } },
    },
    MuiLink: {
      defaultProps: { underline: 'hover' },
    },
    MuiTooltip: {
      defaultProps: { arrow: true },
    },
    MuiDialogTitle: {
      styleOverrides: { root: { fontWeight: 600 } },
    },
    MuiCssBaseline: {
      styleOverrides: {
        // Visible keyboard focus everywhere (ui.md, "Accessibility").
        ':focus-visible': { outline: `2px solid ${iceBlue}`, outlineOffset: 2 },
        '.tabular-nums': { fontVariantNumeric: 'tabular-nums' },
      },
    },
    MuiListItemButton: {
      styleOverrides: {
        root: {
          '&.Mui-selected, &.active': {
            backgroundColor: alpha(deepBlue, 0.1),
          },
          '&.Mui-focusVisible': { outlineOffset: -2 },
        },
      },
    },
  },
};

/**
 * No movement for those who asked their system for less (WCAG 2.3.3): every MUI
 * transition (menus growing, dialogs fading, drawers sliding) takes no time,
 * and the ripple is off. A menu item is then where it will stay as soon as it
 * is shown, so a click cannot land on the backdrop of a menu still growing.
 */
const noMotion: ThemeOptions = {
  transitions: {
    create: () => 'none',
    getAutoHeightDuration: () => 0,
    duration: {
      shortest: 0,
      shorter: 0,
      short: 0,
      standard: 0,
      complex: 0,
      enteringScreen: 0,
      leavingScreen: 0,
    },
  },
  components: { MuiButtonBase: { defaultProps: { disableRipple: true } } },
};

/** The theme; `reducedMotion` turns every transition off. */
export function createAppTheme(reducedMotion: boolean) {
  return createTheme(baseOptions, reducedMotion ? noMotion : {});
}

/** Whether the system asks for reduced motion (read once, when the app starts). */
export function prefersReducedMotion(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-reduced-motion: reduce)').matches
  );
}

export const theme = createAppTheme(prefersReducedMotion());
