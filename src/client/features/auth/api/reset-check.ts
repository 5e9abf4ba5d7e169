import { useQuery } from '@tanstack/react-query';
import { call } from '../../../api/http';

/** Whose a reset link is, while it is still good (it is not used up by asking). */
export function useResetCheck(token: string) {
  return useQuery({
    queryKey: ['reset-check', token],
    queryFn: () => call('resetCheck', { body: { token } }),
    retry: false,
    staleTime: Infinity,
  });
}
