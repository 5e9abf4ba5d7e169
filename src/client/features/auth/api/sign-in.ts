import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginBody } from '../../../../shared/api/auth';
import { call } from '../../../api/http';
import { setCurrentUser } from '../../../api/current-user';

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginBody) => call('login', { body }),
    onSuccess: ({ user }) => setCurrentUser(queryClient, user),
  });
}
