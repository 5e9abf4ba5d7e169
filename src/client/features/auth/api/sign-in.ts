import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginBody, MeResponse } from '../../../../shared/api/auth';
import { API } from '../../../../shared/api/paths';
import { api } from '../../../api/http';
import { setCurrentUser } from '../../../api/current-user';

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginBody) => api<MeResponse>('POST', API.login, body),
    onSuccess: ({ user }) => setCurrentUser(queryClient, user),
  });
}
