import { xt1Sensors, type TTagExtended } from '@coldtrace/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** GET /api/devices/xt1/: the organization's tags, offered in the certificate upload. */
export function useOrganizationTags(enabled: boolean) {
  return useQuery({
    queryKey: ['xt1', 'sensors'] as const,
    queryFn: ({ signal }): Promise<TTagExtended[]> => callApi(xt1Sensors, { signal }),
    enabled,
  });
}
