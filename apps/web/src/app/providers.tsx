import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorHandlerProvider } from '../components/error-handler';
import { theme } from './theme';

/** Query client, theme and the shared error handler. */
export function AppProviders({
  queryClient,
  children,
}: {
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <ErrorHandlerProvider>{children}</ErrorHandlerProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
