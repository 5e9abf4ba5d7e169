import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody } from '../../shared/api/common.js';
import {
  LogResponse,
  PersonParams,
  PersonResponse,
  QueueResponse,
  ReportBody,
  RoleBody,
  SuspendBody,
  SuspendedResponse,
  TargetBody,
  UsernameBody,
} from '../../shared/api/moderation.js';
import { API } from '../../shared/api/paths.js';
import { PageQuery } from '../../shared/api/posts.js';
import { requireRole, requireUser } from '../auth/current-user.js';
import { AppError } from '../http/app-error.js';
import { rateLimitAddress } from '../http/client-address.js';
import { logSecurityEvent } from '../http/security-log.js';
import type { ModerationService } from './moderation.service.js';
import type { Roles } from './roles.js';
import { actorOf } from './staff.js';

const STAFF = ['moderator', 'admin'] as const;
const errors = { 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/**
 * Reports (any signed-in user) and moderation (issue 17). Every /api/moderation route is declared
 * for its roles (requireRole: a 404 to anyone else, as if it did not exist); the service checks
 * again whom the action touches.
 */
export const moderationRoutes =
  (moderation: ModerationService, roles: Roles): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      API.reports,
      {
        schema: {
          tags: ['moderation'],
          summary: "Report someone else's post (postId) or profile (username); a repeat while open stores nothing",
          body: ReportBody,
          response: { 204: z.null(), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 429: ErrorBody },
        },
      },
      async (request, reply) => {
        await moderation.report(requireUser(request), request.body, rateLimitAddress(request.ip));
        return reply.code(204).send(null);
      },
    );

    app.get(
      API.moderationQueue,
      {
        schema: {
          tags: ['moderation'],
          summary: 'Open reports grouped by target, newest first',
          querystring: PageQuery,
          response: { 200: QueueResponse, 400: ErrorBody, 404: ErrorBody },
        },
      },
      async (request) => moderation.queue(actorOf(requireRole(request, STAFF)), request.query.cursor),
    );

    app.get(
      API.moderationLog,
      {
        schema: {
          tags: ['moderation'],
          summary: 'Every moderation action, newest first',
          querystring: PageQuery,
          response: { 200: LogResponse, 400: ErrorBody, 404: ErrorBody },
        },
      },
      async (request) => {
        requireRole(request, STAFF);
        return moderation.log(request.query.cursor);
      },
    );

    app.get(
      API.moderationSuspended,
      {
        schema: {
          tags: ['moderation'],
          summary: 'Everyone suspended now',
          querystring: PageQuery,
          response: { 200: SuspendedResponse, 400: ErrorBody, 404: ErrorBody },
        },
      },
      async (request) => moderation.suspended(actorOf(requireRole(request, STAFF)), request.query.cursor),
    );

    app.get(
      '/api/moderation/people/:username',
      {
        schema: {
          tags: ['moderation'],
          summary: "A user's role and suspension",
          params: PersonParams,
          response: { 200: PersonResponse, 404: ErrorBody },
        },
      },
      async (request) => ({ user: await moderation.person(actorOf(requireRole(request, STAFF)), request.params.username) }),
    );

    app.post(
      API.moderationDismiss,
      {
        schema: {
          tags: ['moderation'],
          summary: "Dismiss a target's open reports",
          body: TargetBody,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const user = requireRole(request, STAFF);
        await moderation.dismiss(actorOf(user), request.body);
        logSecurityEvent(request, 'moderation action', { userId: user.id });
        return reply.code(204).send(null);
      },
    );

    app.post(
      API.moderationRemovePost,
      {
        schema: {
          tags: ['moderation'],
          summary: 'Remove a post and every stored file of it; its reports close',
          body: z.strictObject({ postId: z.string().min(1).max(64), note: z.string().max(2000).optional() }),
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const user = requireRole(request, STAFF);
        await moderation.removePost(actorOf(user), request.body);
        logSecurityEvent(request, 'moderation action', { userId: user.id });
        return reply.code(204).send(null);
      },
    );

    app.post(
      API.moderationSuspend,
      {
        schema: {
          tags: ['moderation'],
          summary: 'Suspend a user (or the author of a post) for 1, 7 or 30 days or for good; their sessions end',
          body: SuspendBody,
          response: { 200: z.object({ until: z.string() }), ...errors },
        },
      },
      async (request) => {
        const user = requireRole(request, STAFF);
        const { until } = await moderation.suspend(actorOf(user), request.body);
        logSecurityEvent(request, 'moderation action', { userId: user.id });
        return { until: until.toISOString() };
      },
    );

    app.post(
      API.moderationUnsuspend,
      {
        schema: {
          tags: ['moderation'],
          summary: 'Lift a suspension early (admins)',
          body: UsernameBody.extend({ note: z.string().max(2000).optional() }),
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const user = requireRole(request, STAFF);
        await moderation.unsuspend(actorOf(user), request.body.username, request.body.note);
        logSecurityEvent(request, 'moderation action', { userId: user.id });
        return reply.code(204).send(null);
      },
    );

    app.put(
      '/api/moderation/people/:username/role',
      {
        schema: {
          tags: ['moderation'],
          summary: "Set a user's role (admins)",
          params: PersonParams,
          body: RoleBody,
          response: { 200: PersonResponse, ...errors },
        },
      },
      async (request) => {
        const user = requireRole(request, STAFF);
        const actor = actorOf(user);
        const username = request.params.username.replace(/^@/, '').toLowerCase();
        const changed = await roles.setRole(actor, username, request.body.role);
        if (!changed) throw new AppError(404, 'USER_NOT_FOUND');
        logSecurityEvent(request, 'changed a role', { userId: user.id });
        return { user: await moderation.person(actor, username) };
      },
    );
  };
