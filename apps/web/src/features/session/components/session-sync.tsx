import { resolveTimeZone } from '@coldtrace/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useErrorHandler } from '../../../components/error-handler';
import { resetAppSettings, setAppSettings } from '../../../lib/app-settings';
import { recordDisplay } from '../../../lib/display-rule';
import { isLoggedIn } from '../../../lib/session';
import { useDisplayRules } from '../../display-rules';
import { useSession } from '../api/get-session';
import { sessionQueryKey, type SessionUser } from '../session-cache';

/**
 * Spec section 4, "Session start": the session is loaded at start; if that
 * fails, the user info is cleared and the shared error handler runs. When the
 * user's settings arrive, the default time zone becomes the user's zone (UTC
 * when unsupported) and the temperature unit the user's unit.
 *
 * The data display rule that applies to the user in the session organization
 * (loaded once per organization) then overrides the unit and sets the decimals
 * and hidden record fields. No rule, or a failed load (403, 404, 500): the
 * user's own unit, one decimal, every field shown.
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
  // Not before the terms are accepted: the server refuses every other call until then.
  const organizationId =
    isLoggedIn(data) && data.has_agreed_to_tos !== false
      ? (data.last_session_org_id ?? null)
      : null;
  const rules = useDisplayRules(organizationId, organizationId !== null);
  // Not loaded (yet), or failed: no rule. A failed refetch keeps the rule loaded before.
  const rule = rules.data?.effective ?? null;
  useEffect(() => {
    if (degreesUnit === null) {
      resetAppSettings();
    } else {
      setAppSettings({
        ...recordDisplay(degreesUnit, rule),
        timeZone: resolveTimeZone(timeZone),
      });
    }
  }, [degreesUnit, timeZone, rule]);

  return null;
}
