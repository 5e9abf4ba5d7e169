import type { FastifyPluginAsync } from 'fastify';
import { usersApi } from '../../shared/api/users.js';
import { ICON_MAX_BYTES } from '../../shared/limits.js';
import type { VerificationPolicy } from '../auth/email-verification-rule.js';
import { toMe } from '../auth/me.js';
import { accountOf } from '../auth/session-account.js';
import { readForm } from '../http/multipart-form.js';
import { registerRoute } from '../http/register-route.js';
import type { UserService } from './user.service.js';

export const userRoutes =
  (users: UserService, policy: VerificationPolicy): FastifyPluginAsync =>
  async (app) => {
    registerRoute(app, usersApi.user, async ({ params, viewer }) => ({ user: await users.profile(params.username, viewer) }));

    registerRoute(app, usersApi.updateMe, async ({ request }) => {
      const { fields, file } = await readForm(request, {
        fileField: 'icon',
        textFields: ['bio'],
        maxFileBytes: ICON_MAX_BYTES,
        tooLarge: 'ICON_TOO_LARGE',
      });
      return { user: toMe(await users.update(accountOf(request), { bio: fields.bio, icon: file }), policy) };
    });
  };
