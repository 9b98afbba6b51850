import { authPrivacyPolicyPost, type TPrivacyPolicy } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** POST /api/auth/privacy-policy/: publish a new privacy policy. */
export function publishPrivacyPolicy(content: string): Promise<TPrivacyPolicy> {
  return callApi(authPrivacyPolicyPost, { body: { content } });
}

export function usePublishPrivacyPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: publishPrivacyPolicy,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['auth', 'privacy-policy'] }),
  });
}
