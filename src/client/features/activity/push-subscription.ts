import type { PushSubscriptionBody } from '../../../shared/api/activity';
import { deviceIdOf } from '../../../shared/push-device';

/**
 * This browser's side of Web Push (issue 30): the service worker (src/client/sw.ts, built to
 * /sw.js) and the subscription the push service gives it. Nothing here runs until the user asks
 * for push: a page that asks for permission on its own is one browsers (and people) learn to block.
 */

const SERVICE_WORKER = '/sw.js';

/** Whether this browser can take push at all (on an iPhone, only the app added to the home screen can). */
export const pushSupported = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/** A VAPID public key as the server sends it (base64url) in the bytes PushManager.subscribe takes. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** This browser's subscription, if it has one; registers nothing and asks nothing. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/**
 * Asks for permission, then subscribes. Permission first, while the click's user activation
 * lasts (Safari asks only then), before the service worker's registration goes to the network.
 * 'denied' when notifications are blocked; 'dismissed' when the prompt was closed unanswered.
 */
export async function subscribe(publicKey: string): Promise<PushSubscription | 'denied' | 'dismissed'> {
  const permission = await Notification.requestPermission();
  if (permission === 'denied') return 'denied';
  if (permission !== 'granted') return 'dismissed';
  await navigator.serviceWorker.register(SERVICE_WORKER);
  // subscribe() needs an active worker; a new registration's is still installing.
  const registration = await navigator.serviceWorker.ready;
  const options = { userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) };
  try {
    return await registration.pushManager.subscribe(options);
  } catch (error) {
    // A subscription made with another key (the server's key changed) must go before a new one.
    const old = await registration.pushManager.getSubscription();
    if (!old) throw error;
    await old.unsubscribe();
    return registration.pushManager.subscribe(options);
  }
}

/** The subscription as the server takes it (PushSubscription.toJSON()); null if the browser left out its keys. */
export function subscriptionBody(subscription: PushSubscription): PushSubscriptionBody | null {
  const { endpoint, expirationTime, keys } = subscription.toJSON();
  if (!endpoint || !keys?.p256dh || !keys.auth) return null;
  return { endpoint, expirationTime: expirationTime ?? null, keys: { p256dh: keys.p256dh, auth: keys.auth } };
}

/**
 * Signing out ends this browser's pushes: a device belongs to the account that turned push on,
 * and on a shared computer the next person must not see the last one's notifications. Best
 * effort: a sign-out never waits on it failing.
 */
export async function forgetThisDevice(removeOnServer: (id: string) => Promise<unknown>): Promise<void> {
  if (!pushSupported()) return;
  const subscription = await currentSubscription();
  if (!subscription) return;
  await removeOnServer(await deviceIdOf(subscription.endpoint)).catch(() => undefined);
  await subscription.unsubscribe();
}
