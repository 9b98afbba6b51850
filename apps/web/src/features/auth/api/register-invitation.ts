import { authInvitationRegister, type TInvitationRegister } from '@coldtrace/contract';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/**
 * POST /api/auth/invitation-register/: creates the invited address's account (username
 * and password of the person's choosing) and its membership; then they sign in.
 */
export function registerFromInvitation(body: TInvitationRegister): Promise<void> {
  return callApi(authInvitationRegister, { body });
}

export function useRegisterFromInvitation() {
  return useMutation({ mutationFn: registerFromInvitation });
}
