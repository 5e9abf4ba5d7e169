import { useQuery } from '@tanstack/react-query';
import { ROUTES } from '../../../../shared/api/routes';
import { call } from '../../../api/http';

/** Whose a reset link is, while it is still good (it is not used up by asking). */
export function useResetCheck(token: string) {
  return useQuery({
    queryKey: ['reset-check', token],
    queryFn: () => call(ROUTES.resetCheck, { body: { token } }),
    retry: false,
    staleTime: Infinity,
  });
}
