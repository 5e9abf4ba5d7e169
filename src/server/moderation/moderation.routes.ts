import type { FastifyPluginAsync } from 'fastify';
import { moderationApi } from '../../shared/api/moderation.js';
import { AppError } from '../http/app-error.js';
import { rateLimitAddress } from '../http/client-address.js';
import { registerRoute } from '../http/register-route.js';
import { logSecurityEvent } from '../http/security-log.js';
import { emailVerificationApi } from '../../shared/api/email-verification.js';
import type { EmailVerifiedByAdmin } from './email-verified-by-admin.js';
import type { ModerationService } from './moderation.service.js';
import type { Roles } from './roles.js';

/**
 * Reports (any signed-in user) and moderation (issue 17). Every /api/moderation route is declared
 * for staff (a 404 to anyone else, as if it did not exist); the viewer acts as the Actor, and the
 * service checks again whom the action touches.
 */
export const moderationRoutes =
  (moderation: ModerationService, roles: Roles, emailVerifiedByAdmin: EmailVerifiedByAdmin): FastifyPluginAsync =>
  async (app) => {
    registerRoute(app, moderationApi.report, async ({ request, body, viewer }) => {
      await moderation.report(viewer, body, rateLimitAddress(request.ip));
      return null;
    });

    registerRoute(app, moderationApi.moderationQueue, async ({ query, viewer }) => moderation.queue(viewer, query.cursor));
    registerRoute(app, moderationApi.moderationLog, async ({ query }) => moderation.log(query.cursor));
    registerRoute(app, moderationApi.moderationSuspended, async ({ query, viewer }) => moderation.suspended(viewer, query.cursor));
    registerRoute(app, moderationApi.moderationPerson, async ({ params, viewer }) => ({
      user: await moderation.person(viewer, params.username),
    }));

    registerRoute(app, moderationApi.moderationDismiss, async ({ request, body, viewer }) => {
      await moderation.dismiss(viewer, body);
      logSecurityEvent(request, 'moderation action', { userId: viewer.id });
      return null;
    });

    registerRoute(app, moderationApi.moderationRemovePost, async ({ request, body, viewer }) => {
      await moderation.removePost(viewer, body);
      logSecurityEvent(request, 'moderation action', { userId: viewer.id });
      return null;
    });

    registerRoute(app, moderationApi.moderationSuspend, async ({ request, body, viewer }) => {
      const { until } = await moderation.suspend(viewer, body);
      logSecurityEvent(request, 'moderation action', { userId: viewer.id });
      return { until: until.toISOString() };
    });

    registerRoute(app, moderationApi.moderationUnsuspend, async ({ request, body, viewer }) => {
      await moderation.unsuspend(viewer, body.username, body.note);
      logSecurityEvent(request, 'moderation action', { userId: viewer.id });
      return null;
    });

    registerRoute(app, moderationApi.moderationRole, async ({ request, params, body, viewer }) => {
      const username = params.username.replace(/^@/, '').toLowerCase();
      const changed = await roles.setRole(viewer, username, body.role);
      if (!changed) throw new AppError(404, 'USER_NOT_FOUND');
      logSecurityEvent(request, 'changed a role', { userId: viewer.id });
      return { user: await moderation.person(viewer, username) };
    });

    // Issue 29: an admin's word that a user's address is theirs (defined with the verification routes).
    registerRoute(app, emailVerificationApi.moderationVerifyEmail, async ({ request, params, viewer }) => {
      // As every moderation route takes a username: the leading '@' optional, any case.
      const done = await emailVerifiedByAdmin.verify(viewer, params.username.replace(/^@/, '').toLowerCase());
      if (!done) throw new AppError(404, 'USER_NOT_FOUND');
      if (!done.already) logSecurityEvent(request, 'moderation action', { userId: viewer.id });
      return null;
    });
  };
