import type { FastifyPluginAsync } from 'fastify';
import { activityApi } from '../../shared/api/activity.js';
import { registerRoute } from '../http/register-route.js';
import type { ActivityService } from './activity.service.js';
import type { NotificationSettingsService } from './notification-settings.service.js';

export const activityRoutes =
  (activity: ActivityService, settings: NotificationSettingsService): FastifyPluginAsync =>
  async (app) => {
    registerRoute(app, activityApi.activity, async ({ query, viewer }) => activity.page(viewer, query.cursor));
    registerRoute(app, activityApi.unreadCount, async ({ viewer }) => ({ unread: await activity.unread(viewer) }));
    registerRoute(app, activityApi.markRead, async ({ body, viewer }) => ({ unread: await activity.markRead(viewer, body.group) }));
    registerRoute(app, activityApi.notificationSettings, async ({ viewer }) => settings.preferences(viewer));
    registerRoute(app, activityApi.updateNotificationSettings, async ({ body, viewer }) => settings.update(viewer, body));
    registerRoute(app, activityApi.addPushDevice, async ({ body, viewer, request }) =>
      settings.addDevice(viewer, body, request.headers['user-agent'] ?? ''),
    );
    registerRoute(app, activityApi.removePushDevice, async ({ params, viewer }) => settings.removeDevice(viewer, params.id));
  };
