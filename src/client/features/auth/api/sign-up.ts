import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RegisterBody } from '../../../../shared/api/auth';
import { call } from '../../../api/http';
import { setCurrentUser } from '../../../api/current-user';

export function useSignUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RegisterBody) => call('register', { body }),
    onSuccess: ({ user }) => setCurrentUser(queryClient, user),
  });
}
