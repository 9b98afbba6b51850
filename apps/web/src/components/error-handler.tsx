import { ModelShapeError } from '@coldtrace/contract';
import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { isApiError } from '../lib/api-error';

/**
 * The shared error handler (spec sections 4 and 8: session load, organization
 * switch, ... "Shared error handler runs"). It logs the error and shows what
 * failed in a snackbar. A 401 is not shown: the visitor is simply signed out.
 */
export type ErrorHandler = (error: unknown, context?: string) => void;

const ErrorHandlerContext = createContext<ErrorHandler | null>(null);

/** The sentence shown for an error. */
export function errorMessage(error: unknown): string {
  if (isApiError(error)) return error.message;
  if (error instanceof ModelShapeError)
    return `The server sent an unexpected reply (${error.message}).`;
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong. Please try again.';
}

interface Shown {
  key: number;
  text: string;
}

export function ErrorHandlerProvider({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState<Shown | null>(null);
  const [open, setOpen] = useState(false);

  const handle = useCallback<ErrorHandler>((error, context) => {
    // Signed out, or must agree to new terms first: the session guard takes over.
    if (isApiError(error) && (error.status === 401 || error.code === 'TERMS_NOT_ACCEPTED')) return;
    console.error(context ?? 'Error', error);
    const text = context ? `${context}: ${errorMessage(error)}` : errorMessage(error);
    setShown({ key: Date.now(), text });
    setOpen(true);
  }, []);

  const value = useMemo(() => handle, [handle]);

  return (
    <ErrorHandlerContext.Provider value={value}>
      {children}
      <Snackbar
        key={shown?.key}
        open={open}
        autoHideDuration={8000}
        onClose={(_event, reason) => {
          if (reason !== 'clickaway') setOpen(false);
        }}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
        sx={{ bottom: { xs: 56, sm: 60 } }}
      >
        <Alert
          severity="error"
          variant="filled"
          onClose={() => setOpen(false)}
          sx={{ width: '100%', maxWidth: 560 }}
        >
          {shown?.text}
        </Alert>
      </Snackbar>
    </ErrorHandlerContext.Provider>
  );
}

/** The shared error handler; use it for failures the spec sends there. */
export function useErrorHandler(): ErrorHandler {
  const handler = useContext(ErrorHandlerContext);
  if (!handler) throw new Error('useErrorHandler needs an ErrorHandlerProvider');
  return handler;
}
