import { authOrgsCreate, type TOrg } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { sessionQueryKey } from '../../session';
import { serverOrgsKey } from './list-server-orgs';

/** POST /api/auth/orgs/: a new organization with the built-in roles; its creator administers it. */
export function createOrg(name: string): Promise<TOrg> {
  return callApi(authOrgsCreate, { body: { name } });
}

export function useCreateOrg() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrg,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: serverOrgsKey }),
        // The creator joins it: the session's organization list changes.
        queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
      ]),
  });
}
