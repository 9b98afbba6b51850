import { keysGenerate, type TApiKeyCreated, type TApiKeyGenerate } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { organizationKeys } from './query-keys';

/** POST /api/keys/generate/: a new key; its private_key is in this reply only. */
export function generateApiKey(body: TApiKeyGenerate): Promise<TApiKeyCreated> {
  return callApi(keysGenerate, { body });
}

export function useGenerateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKeys.apiKeys }),
  });
}
