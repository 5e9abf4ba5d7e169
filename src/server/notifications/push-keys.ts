import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import type { NotificationConfig } from '../config.js';
import type { AppDb } from '../db/database.js';
import { serverKeys } from '../db/schema.js';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * The push key pair (VAPID, RFC 8292): VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY when set, else the
 * pair kept in the database, made at the first start. In the database rather than DATA_DIR so
 * that every process sharing PostgreSQL signs with the one key the browsers subscribed with; two
 * processes starting at once both insert, and both read the pair that won.
 */
export async function loadVapidKeys(db: AppDb, config: NotificationConfig): Promise<VapidKeys> {
  const keys = config.vapidKeys ?? (await keptKeys(db));
  // Refuses keys that are not a P-256 pair in base64url, naming the problem, before any push.
  webpush.getVapidHeaders('https://push.example', config.vapidSubject, keys.publicKey, keys.privateKey, 'aes128gcm');
  return keys;
}

async function keptKeys(db: AppDb): Promise<VapidKeys> {
  const made = webpush.generateVAPIDKeys();
  await db
    .insert(serverKeys)
    .values({ name: 'vapid', value: JSON.stringify(made) })
    .onConflictDoNothing();
  const [row] = await db.select({ value: serverKeys.value }).from(serverKeys).where(eq(serverKeys.name, 'vapid'));
  return JSON.parse(row!.value) as VapidKeys;
}
