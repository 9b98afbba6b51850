import { resolveTimeZone } from '@coldtrace/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useErrorHandler } from '../../../components/error-handler';
import { resetAppSettings, setAppSettings } from '../../../lib/app-settings';
import { isLoggedIn } from '../../../lib/session';
import { useSession } from '../api/get-session';
import { sessionQueryKey, type SessionUser } from '../session-cache';

/**
 * Spec section 4, "Session start": the session is loaded at start; if that
 * fails, the user info is cleared and the shared error handler runs. When the
 * user's settings arrive, the default time zone becomes the user's zone (UTC
 * when unsupported) and the temperature unit the user's unit.
 */
export function SessionSync() {
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const { data, error, errorUpdatedAt } = useSession();

  useEffect(() => {
    if (!error) return;
    queryClient.setQueryData<SessionUser>(sessionQueryKey, null);
    handleError(error, 'Loading your session failed');
  }, [error, errorUpdatedAt, queryClient, handleError]);

  const degreesUnit = isLoggedIn(data) ? data.settings.degrees_unit : null;
  const timeZone = isLoggedIn(data) ? data.settings.timezone : null;
  useEffect(() => {
    if (degreesUnit === null) {
      resetAppSettings();
    } else {
      setAppSettings({ degreesUnit, timeZone: resolveTimeZone(timeZone) });
    }
  }, [degreesUnit, timeZone]);

  return null;
}
