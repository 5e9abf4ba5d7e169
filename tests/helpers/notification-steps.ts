import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Database } from '../../src/server/db/database.js';
import {
  activityApi,
  type NotificationPreferences,
  type NotificationTopic,
  type PushSubscriptionBody,
} from '../../src/shared/api/activity.js';
import { query } from './people.js';

/**
 * Settings → Notifications and push devices (issue 30) for the API tests: the routes as they
 * answer (for refusals), and the same with success checked (for setting a scene up).
 */

export const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const SETTINGS_URL = activityApi.notificationSettings.path;
const DEVICES_URL = activityApi.addPushDevice.path;
export const deviceUrl = (id: string) => activityApi.removePushDevice.path.replace(':id', encodeURIComponent(id));

const withCookie = (cookie: string | undefined) => (cookie ? { cookie } : {});

/** The routes, answering whatever they answer. */
export function notificationRoutes(app: FastifyInstance) {
  return {
    preferences: (cookie: string | undefined) => app.inject({ method: 'GET', url: SETTINGS_URL, headers: withCookie(cookie) }),
    update: (cookie: string | undefined, body: unknown) =>
      app.inject({ method: 'PUT', url: SETTINGS_URL, payload: body as object, headers: withCookie(cookie) }),
    add: (cookie: string | undefined, body: unknown, userAgent = CHROME_LINUX) =>
      app.inject({
        method: 'POST',
        url: DEVICES_URL,
        payload: body as object,
        headers: { ...withCookie(cookie), 'user-agent': userAgent, 'content-type': 'application/json' },
      }),
    remove: (cookie: string | undefined, id: string) => app.inject({ method: 'DELETE', url: deviceUrl(id), headers: withCookie(cookie) }),
  };
}

/** The same routes for setting a scene up: each checks it succeeded. */
export function notificationSteps(app: FastifyInstance) {
  const raw = notificationRoutes(app);
  const ok = async (response: ReturnType<typeof raw.preferences>, status = 200) => {
    const answered = await response;
    expect(answered.statusCode, answered.body).toBe(status);
    return answered.json<NotificationPreferences>();
  };
  return {
    preferences: (who: { cookie: string }) => ok(raw.preferences(who.cookie)),
    /** Changes some switches, keeping the others as they are. */
    set: async (who: { cookie: string }, changes: Partial<Record<NotificationTopic, Partial<{ app: boolean; push: boolean }>>>) => {
      const { settings } = await ok(raw.preferences(who.cookie));
      for (const [topic, change] of Object.entries(changes)) Object.assign(settings[topic as NotificationTopic], change);
      return ok(raw.update(who.cookie, settings));
    },
    add: (who: { cookie: string }, subscription: PushSubscriptionBody, userAgent = CHROME_LINUX) =>
      ok(raw.add(who.cookie, subscription, userAgent), 201),
    remove: (who: { cookie: string }, id: string) => ok(raw.remove(who.cookie, id)),
  };
}

/** The bell's counter as stored (users.unread_notifications, kept by the triggers). */
export async function bellCounter(database: Database, uid: string): Promise<number> {
  return (await query<{ n: number }>(database, 'SELECT unread_notifications AS n FROM users WHERE id = $1', [uid]))[0]!.n;
}

/** Every user whose bell's counter is not their unread rows (the triggers' invariant): none, always. */
export async function miscountedBells(database: Database): Promise<Array<{ id: string; counter: number; unread: number }>> {
  return query(
    database,
    `SELECT id, counter, unread FROM (
       SELECT u.id, u.unread_notifications AS counter,
         (SELECT count(*)::int FROM notifications n WHERE n.user_id = u.id AND NOT n.read) AS unread
       FROM users u) AS bells
     WHERE counter <> unread`,
  );
}
