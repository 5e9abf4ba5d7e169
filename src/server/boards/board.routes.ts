import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BoardList,
  BoardMemberParams,
  BoardMembers,
  BoardParams,
  BoardPostPage,
  BoardPostParams,
  BoardResponse,
  BoardSlugParams,
  CreateBoardBody,
  SaveState,
  SaveTargets,
  SaveTargetsQuery,
  UpdateBoardBody,
} from '../../shared/api/boards.js';
import { ErrorBody } from '../../shared/api/common.js';
import { PageQuery } from '../../shared/api/posts.js';
import { UsernameParams } from '../../shared/api/users.js';
import { requireUser } from '../auth/current-user.js';
import type { BoardMemberService } from './board-member.service.js';
import type { BoardService } from './board.service.js';

/** Boards (issue 18; docs/boards.md). Reads by owner and slug, writes by id. */
export const boardRoutes =
  (boards: BoardService, members: BoardMemberService): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['boards'];
    /** Every write: the board may be unseen (404), not the caller's to change (403), or too fast (429). */
    const writeErrors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };

    app.get(
      '/api/users/:username/boards',
      {
        schema: {
          tags,
          summary: 'The boards a user owns or joined that you may see, most recently saved to first (24 a page)',
          params: UsernameParams,
          querystring: PageQuery,
          response: { 200: BoardList, 400: ErrorBody, 404: ErrorBody },
        },
      },
      async (request) => boards.boardsOf(request.params.username, request.user, request.query.cursor),
    );

    app.get(
      '/api/users/:username/boards/:slug',
      {
        schema: {
          tags,
          summary: 'A board by its owner and slug, with your role on it',
          params: BoardSlugParams,
          response: { 200: BoardResponse, 400: ErrorBody, 404: ErrorBody },
        },
      },
      async (request) => boards.board(request.params.username, request.params.slug, request.user),
    );

    app.get(
      '/api/users/:username/boards/:slug/posts',
      {
        schema: {
          tags,
          summary: "A board's posts, newest saved first (50 a page)",
          params: BoardSlugParams,
          querystring: PageQuery,
          response: { 200: BoardPostPage, 400: ErrorBody, 404: ErrorBody },
        },
      },
      async (request) => boards.posts(request.params.username, request.params.slug, request.user, request.query.cursor),
    );

    app.get(
      '/api/me/boards',
      {
        schema: {
          tags,
          summary: 'The Save picker: your own and joined boards, most recently used first, and whether `post` is on each',
          querystring: SaveTargetsQuery,
          response: { 200: SaveTargets, 400: ErrorBody, 401: ErrorBody },
        },
      },
      async (request) => boards.saveTargets(requireUser(request), request.query.post),
    );

    app.post(
      '/api/boards',
      {
        schema: {
          tags,
          summary: 'Make a board',
          body: CreateBoardBody,
          response: { 201: BoardResponse, 400: ErrorBody, 401: ErrorBody, 409: ErrorBody, 429: ErrorBody },
        },
      },
      async (request, reply) => {
        const created = await boards.create(requireUser(request), request.body);
        return reply.status(201).send(created);
      },
    );

    app.patch(
      '/api/boards/:id',
      {
        schema: {
          tags,
          summary: 'Rename, describe, make secret or not, choose the cover (owner)',
          params: BoardParams,
          body: UpdateBoardBody,
          response: { 200: BoardResponse, ...writeErrors, 409: ErrorBody },
        },
      },
      async (request) => boards.update(requireUser(request), request.params.id, request.body),
    );

    app.delete(
      '/api/boards/:id',
      {
        schema: {
          tags,
          summary: 'Delete a board (owner); the posts on it stay',
          params: BoardParams,
          response: { 204: z.null(), ...writeErrors },
        },
      },
      async (request, reply) => {
        await boards.delete(requireUser(request), request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.put(
      '/api/boards/:id/posts/:postId',
      {
        schema: {
          tags,
          summary: 'Save a post to a board (owner, collaborators); idempotent',
          params: BoardPostParams,
          response: { 200: SaveState, ...writeErrors, 409: ErrorBody },
        },
      },
      async (request) => boards.save(requireUser(request), request.params.id, request.params.postId),
    );

    app.delete(
      '/api/boards/:id/posts/:postId',
      {
        schema: {
          tags,
          summary: 'Remove a post from a board (owner: any; collaborator: what they saved); idempotent',
          params: BoardPostParams,
          response: { 200: SaveState, ...writeErrors },
        },
      },
      async (request) => boards.unsave(requireUser(request), request.params.id, request.params.postId),
    );

    app.put(
      '/api/boards/:id/members/:username',
      {
        schema: {
          tags,
          summary: 'Invite someone to a board (owner); idempotent',
          params: BoardMemberParams,
          response: { 200: BoardMembers, ...writeErrors, 409: ErrorBody },
        },
      },
      async (request) => members.invite(requireUser(request), request.params.id, request.params.username),
    );

    app.delete(
      '/api/boards/:id/members/:username',
      {
        schema: {
          tags,
          summary: 'Remove a member (owner), or leave / decline with your own username',
          params: BoardMemberParams,
          response: { 200: BoardMembers, ...writeErrors },
        },
      },
      async (request) => members.remove(requireUser(request), request.params.id, request.params.username),
    );

    app.post(
      '/api/boards/:id/join',
      {
        schema: {
          tags,
          summary: 'Join a board you were invited to',
          params: BoardParams,
          response: { 200: BoardMembers, ...writeErrors },
        },
      },
      async (request) => members.join(requireUser(request), request.params.id),
    );
  };
