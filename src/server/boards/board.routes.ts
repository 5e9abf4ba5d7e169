import type { FastifyPluginAsync } from 'fastify';
import { boardsApi } from '../../shared/api/boards.js';
import { registerRoute } from '../http/register-route.js';
import type { BoardMemberService } from './board-member.service.js';
import type { BoardService } from './board.service.js';

/** Boards (issue 18; docs/boards.md). Reads by owner and slug, writes by id. */
export const boardRoutes =
  (boards: BoardService, members: BoardMemberService): FastifyPluginAsync =>
  async (app) => {
    registerRoute(app, boardsApi.userBoards, async ({ params, query, viewer }) => boards.boardsOf(params.username, viewer, query.cursor));
    registerRoute(app, boardsApi.userBoard, async ({ params, viewer }) => boards.board(params.username, params.slug, viewer));
    registerRoute(app, boardsApi.userBoardPosts, async ({ params, query, viewer }) =>
      boards.posts(params.username, params.slug, viewer, query.cursor),
    );
    registerRoute(app, boardsApi.saveTargets, async ({ query, viewer }) => boards.saveTargets(viewer, query.post));
    registerRoute(app, boardsApi.createBoard, async ({ body, viewer }) => boards.create(viewer, body));
    registerRoute(app, boardsApi.updateBoard, async ({ params, body, viewer }) => boards.update(viewer, params.id, body));
    registerRoute(app, boardsApi.deleteBoard, async ({ params, viewer }) => {
      await boards.delete(viewer, params.id);
      return null;
    });
    registerRoute(app, boardsApi.savePost, async ({ params, viewer }) => boards.save(viewer, params.id, params.postId));
    registerRoute(app, boardsApi.unsavePost, async ({ params, viewer }) => boards.unsave(viewer, params.id, params.postId));
    registerRoute(app, boardsApi.inviteMember, async ({ params, viewer }) => members.invite(viewer, params.id, params.username));
    registerRoute(app, boardsApi.removeMember, async ({ params, viewer }) => members.remove(viewer, params.id, params.username));
    registerRoute(app, boardsApi.joinBoard, async ({ params, viewer }) => members.join(viewer, params.id));
  };
