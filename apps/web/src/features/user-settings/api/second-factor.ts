import {
  authSecondFactorConfirm,
  authSecondFactorDisable,
  authSecondFactorEnrol,
  authSecondFactorRecoveryCodes,
  type TSecondFactorProof,
} from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SECOND_FACTOR_QUERY_KEY } from '../../../components/second-factor-field';
import { callApi } from '../../../lib/api-client';

/**
 * The second factor on the user's own profile (issue 37 item 7): start an
 * enrolment, confirm it with a first code, new recovery codes, disable. Each
 * reloads the status the signature dialogs read. Errors show on the dialog's fields.
 */
function useFactorMutation<I, O>(call: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SECOND_FACTOR_QUERY_KEY }),
  });
}

export const useStartEnrolment = () =>
  useFactorMutation((password: string) => callApi(authSecondFactorEnrol, { body: { password } }));

export const useConfirmEnrolment = () =>
  useFactorMutation((code: string) => callApi(authSecondFactorConfirm, { body: { code } }));

export const useNewRecoveryCodes = () =>
  useFactorMutation((body: TSecondFactorProof) => callApi(authSecondFactorRecoveryCodes, { body }));

export const useDisableSecondFactor = () =>
  useFactorMutation((body: TSecondFactorProof) => callApi(authSecondFactorDisable, { body }));
