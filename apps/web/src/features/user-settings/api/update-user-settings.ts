import {
  authUserSettings,
  type TUserSettings,
  type TUserSettingsUpdate,
} from '@coldtrace/contract';
import { useMutation } from '@tanstack/react-query';
import { useErrorHandler } from '../../../components/error-handler';
import { callApi } from '../../../lib/api-client';
import { reloadPage } from '../../../lib/browser';

/** PATCH /api/auth/user-settings/: the temperature unit or the time zone. */
export function updateUserSettings(update: TUserSettingsUpdate): Promise<TUserSettings> {
  return callApi(authUserSettings, { body: update });
}

/** Spec section 4, "Units or time zone change": saved, then the page reloads in full. */
export function useUpdateUserSettings() {
  const handleError = useErrorHandler();
  return useMutation({
    mutationFn: updateUserSettings,
    onSuccess: () => reloadPage(),
    onError: (error) => handleError(error, 'Saving the units settings failed'),
  });
}
