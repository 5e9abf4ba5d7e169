import type { FastifyPluginAsync } from 'fastify';
import { searchApi } from '../../shared/api/search.js';
import { rateLimitAddress } from '../http/client-address.js';
import { registerRoute } from '../http/register-route.js';
import type { SearchService } from './search.service.js';

/** Two endpoints, so the page can show people even if the post search fails, and vice versa. */
export const searchRoutes =
  (search: SearchService): FastifyPluginAsync =>
  async (app) => {
    registerRoute(app, searchApi.searchUsers, async ({ request, query, viewer }) => ({
      users: await search.users(query.q, { address: rateLimitAddress(request.ip), viewer }),
    }));

    // Already-serialized JSON (cached answers are serialized once).
    registerRoute(app, searchApi.searchPosts, async ({ request, query, viewer }) =>
      search.postsJson(query.q, { address: rateLimitAddress(request.ip), viewer }),
    );
  };
