import { createPublicKey } from 'node:crypto';
import { deviceIdOf } from '../../shared/push-device.js';
import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import {
  NotificationTopic,
  type NotificationPreferences,
  type NotificationSettings,
  type PushSubscriptionBody,
} from '../../shared/api/activity.js';
import { PUSH_DEVICES_MAX } from '../../shared/limits.js';
import { describeUserAgent } from '../auth/user-agent.js';
import type { RateLimitConfig } from '../config.js';
import type { AppDb } from '../db/database.js';
import { pushSubscriptions, users } from '../db/schema.js';
import { AppError } from '../http/app-error.js';
import type { RateLimiter } from '../http/rate-limiter.js';
import type { Viewer } from '../http/viewer.js';
import { textArray } from '../db/text-array.js';
import type { VapidKeys } from './push-keys.js';
import { isAllowedEndpoint } from '../config/push-services.js';

/** Whether `p256dh` is a P-256 public key (65 bytes, uncompressed) and `auth` a 16-byte secret, as RFC 8291 needs. */
function validKeys(keys: { p256dh: string; auth: string }): boolean {
  const point = Buffer.from(keys.p256dh, 'base64url');
  if (Buffer.from(keys.auth, 'base64url').length !== 16 || point.length !== 65 || point[0] !== 4) return false;
  try {
    createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
      format: 'jwk',
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * Settings → Notifications (issue 30): which topics are told in the app (on by default) and as a
 * push (off until turned on), and the devices that get pushes. A device is one subscription (its
 * endpoint); subscribing again from it replaces it, even for another account: a browser gets the
 * pushes of the account that last turned them on there.
 */
export class NotificationSettingsService {
  constructor(
    private readonly db: AppDb,
    private readonly deps: { keys: VapidKeys; services: readonly string[]; limiter: RateLimiter; limits: RateLimitConfig },
  ) {}

  async preferences(viewer: Viewer): Promise<NotificationPreferences> {
    const [account] = await this.db.select({ off: users.notificationsOff, push: users.pushOn }).from(users).where(eq(users.id, viewer.id));
    const devices = await this.db
      .select({ id: pushSubscriptions.id, label: pushSubscriptions.label, createdAt: pushSubscriptions.createdAt })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, viewer.id))
      .orderBy(asc(pushSubscriptions.createdAt));
    const settings = Object.fromEntries(
      NotificationTopic.options.map((topic) => [
        topic,
        { app: !account?.off.includes(topic), push: account?.push.includes(topic) ?? false },
      ]),
    ) as NotificationSettings;
    return {
      settings,
      devices: devices.map((device) => ({ id: device.id, label: device.label, createdAt: device.createdAt.toISOString() })),
      publicKey: this.deps.keys.publicKey,
    };
  }

  async update(viewer: Viewer, settings: NotificationSettings): Promise<NotificationPreferences> {
    const topics = NotificationTopic.options;
    await this.db
      .update(users)
      .set({
        notificationsOff: sql`${textArray(topics.filter((topic) => !settings[topic].app))}`,
        pushOn: sql`${textArray(topics.filter((topic) => settings[topic].push))}`,
      })
      .where(eq(users.id, viewer.id));
    return this.preferences(viewer);
  }

  /** Adds (or replaces) this device's subscription; the endpoint must be at an allowed push service. */
  async addDevice(viewer: Viewer, body: PushSubscriptionBody, userAgent: string): Promise<NotificationPreferences> {
    const { limiter, limits, keys, services } = this.deps;
    if (!isAllowedEndpoint(services, body.endpoint) || !validKeys(body.keys)) throw new AppError(400, 'PUSH_SUBSCRIPTION_INVALID');
    await limiter.hit(`push-devices:user:${viewer.id}`, limits.pushDevicesPerUser, limits.pushDeviceWindowMs, 'PUSH_DEVICES_TOO_FAST');
    const id = await deviceIdOf(body.endpoint);
    const { browser, system } = describeUserAgent(userAgent);
    const label = [browser?.replace(/ \d+$/, ''), system].filter(Boolean).join(' on ') || 'A browser';
    await this.db.transaction(async (tx) => {
      // The account's row is locked, so two devices added at once cannot both pass the count.
      await tx.execute(sql`select 1 from ${users} where id = ${viewer.id} for update`);
      const [mine] = await tx
        .select({ n: count() })
        .from(pushSubscriptions)
        .where(and(eq(pushSubscriptions.userId, viewer.id), sql`${pushSubscriptions.id} <> ${id}`));
      if ((mine?.n ?? 0) >= PUSH_DEVICES_MAX) throw new AppError(409, 'TOO_MANY_PUSH_DEVICES');
      // Another account's device until now: what was queued for that account goes with it.
      await tx.delete(pushSubscriptions).where(and(eq(pushSubscriptions.id, id), ne(pushSubscriptions.userId, viewer.id)));
      const values = {
        userId: viewer.id,
        endpoint: body.endpoint,
        p256dh: body.keys.p256dh,
        auth: body.keys.auth,
        vapidKey: keys.publicKey,
        label,
      };
      await tx
        .insert(pushSubscriptions)
        .values({ id, ...values })
        .onConflictDoUpdate({ target: pushSubscriptions.id, set: { ...values, createdAt: sql`now()`, lastSentAt: null } });
    });
    return this.preferences(viewer);
  }

  async removeDevice(viewer: Viewer, id: string): Promise<NotificationPreferences> {
    await this.db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.userId, viewer.id)));
    return this.preferences(viewer);
  }
}
