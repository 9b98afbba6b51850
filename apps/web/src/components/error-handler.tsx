import { ModelShapeError } from '@coldtrace/contract';
import {
  Suspense,
  createContext,
  lazy,
  useCallback,
  useContext,
  useMemo,
  useState,
  type ComponentProps,
  type ComponentType,
  type ReactNode,
} from 'react';
import { isApiError } from '../lib/api-error';
import { loadChunk } from '../lib/chunk-load';
import type { ErrorSnackbar as ErrorSnackbarPart } from './error-snackbar';

// The snackbar loads with the first error. If its code cannot be loaded, the
// error stays in the console only: the page is not replaced by an error page.
const ErrorSnackbar = lazy<ComponentType<ComponentProps<typeof ErrorSnackbarPart>>>(() =>
  loadChunk(() => import('./error-snackbar')).then(
    (module) => ({ default: module.ErrorSnackbar }),
    () => ({ default: () => null }),
  ),
);

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
      <Suspense fallback={null}>
        {shown ? (
          <ErrorSnackbar
            key={shown.key}
            open={open}
            text={shown.text}
            onClose={() => setOpen(false)}
          />
        ) : null}
      </Suspense>
    </ErrorHandlerContext.Provider>
  );
}

/** The shared error handler; use it for failures the spec sends there. */
export function useErrorHandler(): ErrorHandler {
  const handler = useContext(ErrorHandlerContext);
  if (!handler) throw new Error('useErrorHandler needs an ErrorHandlerProvider');
  return handler;
}
