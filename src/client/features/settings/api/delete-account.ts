import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeleteAccountBody } from '../../../../shared/api/delete-account';
import { call } from '../../../api/http';
import { setCurrentUser } from '../../../api/current-user';

/** Deletes the signed-in account (the password typed again); afterwards nobody is signed in here. */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DeleteAccountBody) => call('deleteAccount', { body }),
    onSuccess: () => {
      // Like signing out: nothing of the erased account may linger in this browser.
      queryClient.clear();
      setCurrentUser(queryClient, null);
    },
  });
}
