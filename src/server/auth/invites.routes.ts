import type { FastifyPluginAsync } from 'fastify';
import { invitesApi } from '../../shared/api/invites.js';
import { registerRoute } from '../http/register-route.js';
import { logSecurityEvent } from '../http/security-log.js';
import type { Invites } from './invites.js';

/** The Invites section of /moderation: admins only; to everyone else these routes do not exist (404). */
export const inviteRoutes =
  (invites: Invites): FastifyPluginAsync =>
  async (app) => {
    registerRoute(app, invitesApi.invites, async () => ({ invites: await invites.live() }));

    registerRoute(app, invitesApi.createInvite, async ({ request, body, viewer }) => {
      const invite = await invites.create(viewer.id, body.uses, body.days);
      logSecurityEvent(request, 'created an invite', { userId: viewer.id });
      return invite;
    });

    registerRoute(app, invitesApi.revokeInvite, async ({ request, params, viewer }) => {
      await invites.revoke(params.id);
      logSecurityEvent(request, 'revoked an invite', { userId: viewer.id });
      return null;
    });
  };
