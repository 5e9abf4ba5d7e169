import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody } from '../../shared/api/common.js';
import { CreateInviteBody, InviteList, NewInvite } from '../../shared/api/invites.js';
import { API } from '../../shared/api/paths.js';
import { logSecurityEvent } from '../http/security-log.js';
import { requireRole } from './current-user.js';
import type { Invites } from './invites.js';

/** The Invites section of /moderation: admins only; to everyone else these routes do not exist (404). */
export const inviteRoutes =
  (invites: Invites): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      API.invites,
      { schema: { tags: ['moderation'], summary: 'Invite codes that still work (admins)', response: { 200: InviteList, 404: ErrorBody } } },
      async (request) => {
        requireRole(request, ['admin']);
        return { invites: await invites.live() };
      },
    );

    app.post(
      API.invites,
      {
        schema: {
          tags: ['moderation'],
          summary: 'Make an invite code for REGISTRATION=invite (admins); the code is shown only in this answer',
          body: CreateInviteBody,
          response: { 201: NewInvite, 400: ErrorBody, 404: ErrorBody },
        },
      },
      async (request, reply) => {
        const admin = requireRole(request, ['admin']);
        const invite = await invites.create(admin.id, request.body.uses, request.body.days);
        logSecurityEvent(request, 'created an invite', { userId: admin.id });
        return reply.code(201).send(invite);
      },
    );

    app.delete(
      `${API.invites}/:id`,
      {
        schema: {
          tags: ['moderation'],
          summary: 'Revoke an invite code (admins)',
          params: z.strictObject({ id: z.string().max(64) }),
          response: { 204: z.null(), 404: ErrorBody },
        },
      },
      async (request, reply) => {
        const admin = requireRole(request, ['admin']);
        await invites.revoke(request.params.id);
        logSecurityEvent(request, 'revoked an invite', { userId: admin.id });
        return reply.code(204).send(null);
      },
    );
  };
