import { RouterProvider } from 'react-router';
import { clearSession } from '../features/session';
import { configureApiClient } from '../lib/api-client';
import { queryClient } from '../lib/query-client';
import { AppProviders } from './providers';
import { createAppRouter } from './router';

const router = createAppRouter();

// The API client's 401 / no-response rule: forget the user, go to /login in the app.
configureApiClient({
  redirectToLogin: () => {
    void clearSession(queryClient);
    void router.navigate('/login');
  },
});

export function App() {
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
