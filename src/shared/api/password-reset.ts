import { z } from 'zod';
import { text } from './common.js';

/** A reset link's page, before it asks for the new password: is the link still good, and whose? */
export const ResetCheckBody = z.strictObject({ token: text() });
export type ResetCheckBody = z.infer<typeof ResetCheckBody>;

export const ResetCheckResponse = z.object({ username: z.string() });
export type ResetCheckResponse = z.infer<typeof ResetCheckResponse>;

/** The new password, typed twice; the server re-checks every rule the form does. */
export const ResetBody = z.strictObject({ token: text(), newPassword: text(), confirmPassword: text() });
export type ResetBody = z.infer<typeof ResetBody>;

/** "Forgot password?": a username or an e-mail address, as on the sign-in form. */
export const ForgotPasswordBody = z.strictObject({ identifier: text() });
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBody>;
