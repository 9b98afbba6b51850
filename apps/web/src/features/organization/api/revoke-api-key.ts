import { keysRevoke } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { organizationKeys } from './query-keys';

/** POST /api/keys/revoke/: the key with this prefix stops working at once. */
export function revokeApiKey(prefix: string): Promise<void> {
  return callApi(keysRevoke, { body: { prefix } });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKeys.apiKeys }),
  });
}
