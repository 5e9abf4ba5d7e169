import { useMutation } from '@tanstack/react-query';
import type { ForgotPasswordBody } from '../../../../shared/api/password-reset';
import { call } from '../../../api/http';

/** Asks for a reset link by mail; the answer is the same whether or not the account exists. */
export function useForgotPassword() {
  return useMutation({ mutationFn: (body: ForgotPasswordBody) => call('forgotPassword', { body }) });
}
