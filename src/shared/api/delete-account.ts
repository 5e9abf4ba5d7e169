import { z } from 'zod';
import { ErrorBody, text } from './common.js';
import { defineRoute, signedIn } from './route.js';

/** Delete Account (not in the spec; issue 16): DELETE API.me, with the password typed again. */
export const DeleteAccountBody = z.strictObject({ password: text() });
export type DeleteAccountBody = z.infer<typeof DeleteAccountBody>;

/** Not in the spec (issue 16): Settings → Security → Delete Account and Download My Data. */
export const accountApi = {
  deleteAccount: defineRoute({
    method: 'DELETE',
    path: '/api/me',
    access: signedIn(),
    tags: ['accounts'],
    summary: 'Delete your account: posts, photos, follows and sessions, for good',
    body: DeleteAccountBody,
    responses: { 204: z.null(), 400: ErrorBody, 401: ErrorBody, 429: ErrorBody },
  }),
  /**
   * A plain link's download (a ZIP streamed to disk by the browser): a refused navigation is sent
   * back to the Download My Data page with the error's code (303).
   */
  exportData: defineRoute({
    method: 'GET',
    path: '/api/me/export',
    access: signedIn(),
    tags: ['accounts'],
    summary: 'Download My Data: a ZIP of your account, posts, photos, icon and follows',
    produces: ['application/zip'],
    responses: {
      200: z.any().describe('application/zip'),
      303: z.null(),
      401: ErrorBody,
      403: ErrorBody,
      409: ErrorBody,
      429: ErrorBody,
      503: ErrorBody,
    },
  }),
} as const;
