/// <reference lib="webworker" />
/**
 * The service worker (issue 30), built on its own to /sw.js (vite.config.ts): shows the pushes
 * the server sends (server/notifications) and opens the app where a tapped one leads. No caching
 * yet. It imports nothing, so the build emits it whole, as a classic script.
 */

// A module, so this `self` (the worker's scope) stands in for the page's `self` that tsconfig's DOM library declares.
export {};
declare const self: ServiceWorkerGlobalScope;

/** What the server pushes: the words are already the ones to show (shared/activity-copy.ts). */
interface PushPayload {
  title: string;
  body: string;
  /** A path of the app, such as /post/123. */
  url: string;
  /** One notification per group: a newer push about the same thing replaces the older. */
  tag: string;
}

const ICON = '/favicon.svg';

function readPayload(data: PushMessageData | null): PushPayload | null {
  try {
    const payload = data?.json() as Partial<PushPayload> | undefined;
    if (typeof payload?.title !== 'string') return null;
    return {
      title: payload.title,
      body: typeof payload.body === 'string' ? payload.body : '',
      url: typeof payload.url === 'string' ? payload.url : '/',
      tag: typeof payload.tag === 'string' ? payload.tag : '',
    };
  } catch {
    return null;
  }
}

self.addEventListener('push', (event) => {
  const payload = readPayload(event.data);
  if (!payload) return;
  event.waitUntil(
    self.registration.showNotification(payload.title, {
      body: payload.body,
      tag: payload.tag || undefined,
      icon: ICON,
      data: { url: payload.url },
    }),
  );
});

/** Only a path of this app is opened: a push's URL leads nowhere else. */
function appUrl(url: unknown): string {
  const target = new URL(typeof url === 'string' ? url : '/', self.location.origin);
  return target.origin === self.location.origin ? target.href : self.location.origin + '/';
}

async function openApp(url: string) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (open) {
    const focused = await open.focus();
    // navigate() works only on a window this worker controls; a page opened before it did gets a new one.
    if (await focused.navigate(url).catch(() => null)) return;
  }
  await self.clients.openWindow(url);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data as { url?: unknown } | null;
  event.waitUntil(openApp(appUrl(data?.url)));
});

// A new version takes over at once: it holds no caches an old page depends on.
self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
