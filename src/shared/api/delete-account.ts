import { z } from 'zod';
import { text } from './common.js';

/** Delete Account (not in the spec; issue 16): DELETE API.me, with the password typed again. */
export const DeleteAccountBody = z.strictObject({ password: text() });
export type DeleteAccountBody = z.infer<typeof DeleteAccountBody>;
