import { describe, expect, it } from 'vitest';
import { createAppTheme, layout, theme } from './theme';

describe('theme [SPEC-9.5, FEAT-REDUCED-MOTION]', () => {
  it('has the breakpoints of spec section 9', () => {
    expect(theme.breakpoints.values).toEqual({
      xs: 0,
      sm: 600,
      ms: 768,
      md: 900,
      ml: 1024,
      lg: 1200,
      xl: 1536,
    });
    expect(theme.breakpoints.up('ms')).toBe('@media (min-width:768px)');
  });

  it('has the layout sizes of spec section 9', () => {
    expect(theme.mixins.toolbar).toEqual({ minHeight: 67 });
    expect(layout).toEqual({
      toolbarMinHeight: 67,
      footerHeight: 45,
      sideNavWidth: 102,
      desktopBreakpoint: 768,
    });
    expect(theme.breakpoints.values.ms).toBe(layout.desktopBreakpoint);
  });
});

describe('reduced motion [SPEC-9.5, FEAT-REDUCED-MOTION]', () => {
  it('takes every transition away and keeps the rest of the theme', () => {
    const still = createAppTheme(true);
    expect(still.transitions.create(['opacity', 'transform'])).toBe('none');
    expect(still.transitions.getAutoHeightDuration(400)).toBe(0);
    expect(still.transitions.duration.enteringScreen).toBe(0);
    expect(still.components?.MuiButtonBase?.defaultProps?.disableRipple).toBe(true);
    // The focus ring of the base theme is still there.
    expect(still.components?.MuiButtonBase?.styleOverrides).toEqual(
      createAppTheme(false).components?.MuiButtonBase?.styleOverrides,
    );
    expect(still.breakpoints.values.ms).toBe(768);
  });

  it('moves as before when nothing asks otherwise', () => {
    const moving = createAppTheme(false);
    expect(moving.transitions.create('opacity')).not.toBe('none');
    expect(moving.transitions.duration.enteringScreen).toBeGreaterThan(0);
    expect(moving.components?.MuiButtonBase?.defaultProps?.disableRipple).toBeUndefined();
  });
});
