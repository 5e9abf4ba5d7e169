import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MeResponse, RegisterBody } from '../../../../shared/api/auth';
import { API } from '../../../../shared/api/paths';
import { api } from '../../../api/http';
import { setCurrentUser } from '../../../api/current-user';

export function useSignUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RegisterBody) => api<MeResponse>('POST', API.register, body),
    onSuccess: ({ user }) => setCurrentUser(queryClient, user),
  });
}
