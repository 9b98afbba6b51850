import useMediaQuery from '@mui/material/useMediaQuery';
import { useState } from 'react';
import { Outlet, useMatches, useOutletContext } from 'react-router';
import { theme } from '../theme';
import { Footer } from './footer';
import { SkipLink } from './skip-link';
import { TopBar } from './top-bar';

/** What a route's `handle` may say about the shell. */
export interface ShellHandle {
  /** The route shows the side navigation (its drawer opens from the top bar on small screens). */
  sideNavigation?: boolean;
}

/** Drawer state of the side navigation, handed to the side-navigation layout. */
export interface ShellContext {
  desktop: boolean;
  drawerOpen: boolean;
  setDrawerOpen: (open: boolean) => void;
}

/**
 * The top bar and the footer, shared by both layouts so they stay mounted
 * when a navigation moves between them (for example from /login to /): an
 * open menu or a focused search box is not torn down by a layout change.
 */
export function ShellLayout() {
  const desktop = useMediaQuery(theme.breakpoints.up('ms'), { noSsr: true });
  const [drawerOpen, setDrawerOpen] = useState(false);
  const sideNavigation = useMatches().some(
    (match) => (match.handle as ShellHandle | undefined)?.sideNavigation === true,
  );
  const context: ShellContext = { desktop, drawerOpen, setDrawerOpen };
  return (
    <>
      <SkipLink />
      <TopBar
        onOpenNavigation={sideNavigation && !desktop ? () => setDrawerOpen(true) : undefined}
      />
      <Outlet context={context} />
      <Footer />
    </>
  );
}

export function useShell(): ShellContext {
  return useOutletContext<ShellContext>();
}
