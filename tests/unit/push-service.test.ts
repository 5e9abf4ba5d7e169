import webpush, { type RequestDetails } from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPushService, type PushService } from '../helpers/push-service.js';

// The test push service (tests/helpers/push-service.ts) against the real web-push package: what
// web-push builds is accepted and decrypted; what a real push service would turn down is turned down.

let service: PushService;
const keys = webpush.generateVAPIDKeys();
const vapidDetails = { subject: 'mailto:test@example.com', ...keys };

beforeAll(async () => {
  service = await startPushService();
});
afterAll(() => service.close());

function details(endpoint: string, payload: unknown = { hello: 'world' }): RequestDetails & { body: Buffer } {
  const subscription = { endpoint, keys: service.subscribe().keys };
  return webpush.generateRequestDetails(subscription, JSON.stringify(payload), { vapidDetails, TTL: 60 });
}

/** Sends what web-push built, as sendNotification would (which only speaks https, hence fetch). */
async function send(request: RequestDetails & { body: Buffer }): Promise<Response> {
  // web-push's header values are partly numbers (TTL, Content-Length); fetch computes its own length.
  const headers = Object.fromEntries(
    Object.entries(request.headers)
      .filter(([name]) => name.toLowerCase() !== 'content-length')
      .map(([name, value]) => [name, String(value)]),
  );
  return fetch(request.endpoint, { method: request.method, headers, body: new Uint8Array(request.body) });
}

/** A fresh subscription's request, with `change` applied before it is sent. */
async function sendChanged(change: (request: RequestDetails & { body: Buffer }) => void): Promise<Response> {
  const subscription = service.subscribe();
  const request = webpush.generateRequestDetails(subscription, JSON.stringify({ hello: 'world' }), { vapidDetails, TTL: 60 });
  change(request);
  return send(request);
}

describe('test push service', () => {
  it('accepts a push from web-push and decrypts its payload', async () => {
    const subscription = service.subscribe();
    const request = webpush.generateRequestDetails(subscription, JSON.stringify({ hello: 'world' }), { vapidDetails, TTL: 60 });
    const response = await send(request);
    expect(response.status, await response.text()).toBe(201);
    const message = await service.waitFor((m) => m.endpoint === subscription.endpoint, 1_000);
    expect(message.payload).toEqual({ hello: 'world' });
    expect(message.text).toBe('{"hello":"world"}');
    expect(message.vapid).toEqual({ subject: 'mailto:test@example.com', publicKey: keys.publicKey });
    expect(message.headers.ttl).toBe('60');
    expect(message.headers['content-encoding']).toBe('aes128gcm');
  });

  it('keeps a payload that is not JSON as text', async () => {
    const subscription = service.subscribe();
    const request = webpush.generateRequestDetails(subscription, 'plain words', { vapidDetails, TTL: 0 });
    expect((await send(request)).status).toBe(201);
    const message = await service.waitFor((m) => m.endpoint === subscription.endpoint, 1_000);
    expect(message.payload).toBe('plain words');
  });

  it('turns down an altered body', async () => {
    const response = await sendChanged((request) => {
      request.body[request.body.length - 20]! ^= 0x01; // a byte of the ciphertext
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/does not decrypt/);
  });

  it('turns down a JWT signed with one VAPID key that claims another', async () => {
    const other = webpush.generateVAPIDKeys();
    const response = await sendChanged((request) => {
      request.headers.Authorization = request.headers.Authorization!.replace(/k=[\w-]+/, `k=${other.publicKey}`);
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/signature/);
  });

  it('turns down a push without TTL', async () => {
    const response = await sendChanged((request) => {
      delete request.headers.TTL;
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/TTL/);
  });

  it('turns down a JWT for another audience, or past its exp', async () => {
    const forLocalhost = await sendChanged((request) => {
      const audience = service.origin.replace('127.0.0.1', 'localhost');
      const headers = webpush.getVapidHeaders(audience, vapidDetails.subject, keys.publicKey, keys.privateKey, 'aes128gcm');
      request.headers.Authorization = headers.Authorization;
    });
    expect(forLocalhost.status).toBe(400);
    expect(await forLocalhost.text()).toMatch(/aud/);

    const expired = await sendChanged((request) => {
      const past = Math.floor(Date.now() / 1000) - 60;
      const headers = webpush.getVapidHeaders(service.origin, vapidDetails.subject, keys.publicKey, keys.privateKey, 'aes128gcm', past);
      request.headers.Authorization = headers.Authorization;
    });
    expect(expired.status).toBe(400);
    expect(await expired.text()).toMatch(/exp/);
  });

  it('answers what respondWith set, until 201 restores delivery', async () => {
    const subscription = service.subscribe();
    service.respondWith(subscription.endpoint, 410);
    expect((await send(details(subscription.endpoint))).status).toBe(410);
    // details() encrypts for a fresh subscription's keys; the 410 comes before decryption anyway.
    service.respondWith(subscription.endpoint, 201);
    const request = webpush.generateRequestDetails(subscription, JSON.stringify({ again: true }), { vapidDetails, TTL: 60 });
    expect((await send(request)).status).toBe(201);
    expect(service.received.filter((m) => m.endpoint === subscription.endpoint).map((m) => m.payload)).toEqual([{ again: true }]);
  });

  it('answers 404 for an endpoint it never issued', async () => {
    expect((await send(details(`${service.origin}/push/never-issued`))).status).toBe(404);
  });

  it('waitFor resolves for a push arriving after the call, and says what came when none matches', async () => {
    const subscription = service.subscribe();
    const waiting = service.waitFor((m) => m.endpoint === subscription.endpoint, 5_000);
    const request = webpush.generateRequestDetails(subscription, JSON.stringify({ later: 1 }), { vapidDetails, TTL: 60 });
    expect((await send(request)).status).toBe(201);
    expect((await waiting).payload).toEqual({ later: 1 });

    await expect(service.waitFor(() => false, 50)).rejects.toThrow(/No matching push within 50 ms[\s\S]*"later":1[\s\S]*410/);
  });
});
