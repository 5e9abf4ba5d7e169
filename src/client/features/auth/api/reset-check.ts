import { useQuery } from '@tanstack/react-query';
import type { ResetCheckResponse } from '../../../../shared/api/password-reset';
import { API } from '../../../../shared/api/paths';
import { api } from '../../../api/http';

/** Whose a reset link is, while it is still good (it is not used up by asking). */
export function useResetCheck(token: string) {
  return useQuery({
    queryKey: ['reset-check', token],
    queryFn: () => api<ResetCheckResponse>('POST', API.resetCheck, { token }),
    retry: false,
    staleTime: Infinity,
  });
}
