import {
  authUserOrgSettings,
  type TOrgLevelUserSettings,
  type TOrgLevelUserSettingsUpdate,
} from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useErrorHandler } from '../../../components/error-handler';
import { callApi } from '../../../lib/api-client';
import { updateSessionUser } from '../../session';

/** PATCH /api/auth/user-org-settings/: both alarm e-mail flags of the session organization. */
export function updateUserOrgSettings(
  update: TOrgLevelUserSettingsUpdate,
): Promise<TOrgLevelUserSettings> {
  return callApi(authUserOrgSettings, { body: update });
}

/** Saves both flags; the reply becomes the cached user's `org_settings`. */
export function useUpdateUserOrgSettings() {
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  return useMutation({
    mutationFn: updateUserOrgSettings,
    onSuccess: (orgSettings) =>
      updateSessionUser(queryClient, (user) => ({ ...user, org_settings: orgSettings })),
    onError: (error) => handleError(error, 'Saving the notification settings failed'),
  });
}
