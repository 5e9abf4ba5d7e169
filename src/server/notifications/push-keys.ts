import { createECDH } from 'node:crypto';
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
  const given = config.vapidKeys;
  const keys = given ?? (await keptKeys(db));
  // Refuses keys that are not a P-256 pair in base64url, naming the problem, before any push.
  const problem = pairProblem(keys, config.vapidSubject);
  if (problem !== undefined) {
    throw new Error(
      given ? `VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: ${problem}` : `The push key pair kept in the database (server_keys): ${problem}`,
    );
  }
  return keys;
}

/**
 * Why `keys` cannot sign pushes a service accepts, or undefined. Two keys of the right form but
 * of different pairs would pass web-push's checks and have every push refused (the JWT does not
 * verify against the key the browsers subscribed with): the public key must be the private one's.
 */
function pairProblem(keys: VapidKeys, subject: string): string | undefined {
  try {
    webpush.getVapidHeaders('https://push.example', subject, keys.publicKey, keys.privateKey, 'aes128gcm');
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(keys.privateKey, 'base64url'));
    if (!ecdh.getPublicKey().equals(Buffer.from(keys.publicKey, 'base64url'))) {
      return "the public key is not the private key's: set both from one pair (npx web-push generate-vapid-keys)";
    }
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
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
