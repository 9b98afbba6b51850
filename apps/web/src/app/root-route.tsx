import LinearProgress from '@mui/material/LinearProgress';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { SessionSync } from '../features/session';

/** The root route: keeps the session in step, shows a thin bar while a page loads. */
export function RootRoute() {
  const navigation = useNavigation();
  return (
    <>
      <SessionSync />
      {navigation.state === 'idle' ? null : (
        <LinearProgress
          color="secondary"
          aria-label="Loading the page"
          sx={(theme) => ({
            position: 'fixed',
            top: 0,
            left: 0,
            right: 0,
            height: 3,
            zIndex: theme.zIndex.appBar + 2,
          })}
        />
      )}
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
