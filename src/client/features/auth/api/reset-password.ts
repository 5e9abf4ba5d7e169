import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ResetBody } from '../../../../shared/api/password-reset';
import { call } from '../../../api/http';
import { signedInAs } from '../../../api/current-user';

/** Sets the new password with a reset link; the server signs this browser in as the link's account. */
export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ResetBody) => call('reset', { body }),
    onSuccess: ({ user }) => signedInAs(queryClient, user),
  });
}
