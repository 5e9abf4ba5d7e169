import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/http';
import { forgetCachedUser, setCurrentUser } from '../../../api/current-user';
import { forgetThisDevice } from '../../activity';

/** Ends this browser's session, or with `everywhere` every session of the signed-in user. */
export function useSignOut({ everywhere = false } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      // Issue 30: this browser's pushes end with its session (a shared computer).
      await forgetThisDevice((id) => call('removePushDevice', { params: { id } })).catch(() => undefined);
      return call(everywhere ? 'logoutAll' : 'logout');
    },
    onSuccess: () => {
      // Nothing of the previous user's may linger for whoever signs in next on this browser.
      queryClient.clear();
      setCurrentUser(queryClient, null);
    },
    // Spec section 8: a failed sign-out still removes the cached currentUser (then the page goes
    // to the 404 screen), so a shared computer does not keep showing the account.
    onError: forgetCachedUser,
  });
}
