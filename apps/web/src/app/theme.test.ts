import { describe, expect, it } from 'vitest';
import { layout, theme } from './theme';

describe('theme', () => {
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
