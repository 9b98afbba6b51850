import { authOrgSettingsGet, type TOrganizationSettings } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { configurationKeys } from './query-keys';

/** GET /api/auth/org-settings/: the session organization's geo-fence (radii in metres). */
export function getOrgSettings(signal?: AbortSignal): Promise<TOrganizationSettings> {
  return callApi(authOrgSettingsGet, { signal });
}

export function orgSettingsQueryOptions() {
  return queryOptions({
    queryKey: configurationKeys.orgSettings,
    queryFn: ({ signal }) => getOrgSettings(signal),
  });
}

export function useOrgSettings() {
  return useQuery(orgSettingsQueryOptions());
}
