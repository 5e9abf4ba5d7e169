import { createDecipheriv, createECDH, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a browser's PushSubscription.toJSON() gives the app. */
export interface PushSubscriptionJson {
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
}

/** A push the service accepted: checked (RFC 8030/8291/8292) and decrypted. */
export interface PushMessage {
  endpoint: string;
  /** The request's headers, names in lower case (ttl, urgency, topic, …). */
  headers: Record<string, string | undefined>;
  /** The decrypted text, JSON-parsed when it is JSON, else the text itself. */
  payload: unknown;
  text: string;
  /** The VAPID JWT's `sub` claim and the `k` key it verified against. */
  vapid: { subject: string; publicKey: string };
}

export interface PushService {
  /** http://127.0.0.1:<port>, also the VAPID audience its endpoints require. */
  origin: string;
  /** A new browser-like subscription on this service; its private key stays here, to decrypt. */
  subscribe(): PushSubscriptionJson;
  received: PushMessage[];
  /** The first message, received already or later, that matches; rejects after `timeoutMs`, listing what came. */
  waitFor(predicate: (m: PushMessage) => boolean, timeoutMs?: number): Promise<PushMessage>;
  /** Later pushes to `endpoint` get `status` (410, 404, 429, 500…) unread; 201 restores delivery. */
  respondWith(endpoint: string, status: number): void;
  close(): Promise<void>;
}

interface Subscription {
  ecdh: ECDH;
  publicKey: Buffer;
  auth: Buffer;
}

/** A request the service turns down: status and reason go back in the answer. */
class Refused extends Error {
  constructor(
    readonly status: number,
    reason: string,
  ) {
    super(reason);
  }
}

function refuse(reason: string, status = 400): never {
  throw new Refused(status, reason);
}

const MAX_BODY = 4_096; // RFC 8030 §7.2: what a push service must at least accept, and what FCM/APNs allow
const MAX_EXP_SECONDS = 24 * 60 * 60; // RFC 8292 §2: exp no more than 24 h ahead

function checkVapid(authorization: string | undefined, audience: string): PushMessage['vapid'] {
  const scheme = /^vapid\s+(.*)$/i.exec(authorization ?? '');
  if (!scheme) refuse('Authorization is not "vapid t=…, k=…"');
  const params = new Map(
    scheme[1]!.split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim()] as const;
    }),
  );
  const token = params.get('t');
  const k = params.get('k');
  if (!token || !k) refuse('Authorization lacks t= or k=');

  const key = Buffer.from(k, 'base64url');
  if (key.length !== 65 || key[0] !== 0x04) refuse('k is not an uncompressed P-256 point');
  const parts = token.split('.');
  if (parts.length !== 3) refuse('t is not a JWT');
  const [head, body, signature] = parts as [string, string, string];
  const header = parseJson(Buffer.from(head, 'base64url').toString());
  if (header.alg !== 'ES256') refuse(`JWT alg is ${String(header.alg)}, not ES256`);
  const jwk = { kty: 'EC', crv: 'P-256', x: key.subarray(1, 33).toString('base64url'), y: key.subarray(33).toString('base64url') };
  let valid: boolean;
  try {
    const jwkInput = { key: jwk, format: 'jwk', dsaEncoding: 'ieee-p1363' } as const;
    valid = verify('sha256', Buffer.from(`${head}.${body}`), jwkInput, Buffer.from(signature, 'base64url'));
  } catch {
    valid = false; // k not on the curve, or a signature of the wrong length
  }
  if (!valid) refuse('JWT signature does not verify against k');

  const claims = parseJson(Buffer.from(body, 'base64url').toString());
  if (claims.aud !== audience) refuse(`JWT aud is ${String(claims.aud)}, not ${audience}`);
  const now = Date.now() / 1000;
  if (typeof claims.exp !== 'number' || claims.exp <= now) refuse('JWT exp is missing or past');
  if (claims.exp > now + MAX_EXP_SECONDS) refuse('JWT exp is more than 24 h ahead');
  // RFC 8292 §2.1 says SHOULD; Apple and web-push itself insist.
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) refuse('JWT sub is not a mailto: or https: URL');
  return { subject: claims.sub, publicKey: k };
}

function parseJson(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object') return value as Record<string, unknown>;
  } catch {
    // falls through to the refusal
  }
  refuse('JWT part is not a JSON object');
}

/** RFC 8291 §3.4 key derivation, one step of HKDF-SHA256 (hkdfSync returns an ArrayBuffer). */
function hkdf(salt: Buffer, ikm: Buffer, info: Buffer | string, length: number): Buffer {
  return Buffer.from(hkdfSync('sha256', ikm, salt, info, length));
}

/** The plaintext of an aes128gcm body (RFC 8188 framing, RFC 8291 keys), sent to `subscription`. */
function decrypt(body: Buffer, subscription: Subscription): Buffer {
  if (body.length < 21) refuse('body shorter than the aes128gcm header');
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const keyIdLength = body[20]!;
  if (keyIdLength !== 65) refuse(`keyid is ${keyIdLength} bytes, not a 65-byte P-256 public key`);
  const senderKey = body.subarray(21, 21 + keyIdLength);
  const record = body.subarray(21 + keyIdLength);
  // RFC 8291 §4: one record only, holding at least a delimiter and the 16-byte tag.
  if (record.length < 17 || record.length > recordSize) refuse('body is not a single aes128gcm record');

  let secret: Buffer;
  try {
    secret = subscription.ecdh.computeSecret(senderKey);
  } catch {
    refuse('keyid is not a P-256 public key');
  }
  const info = Buffer.concat([Buffer.from('WebPush: info\0'), subscription.publicKey, senderKey]);
  const ikm = hkdf(subscription.auth, secret, info, 32);
  const cek = hkdf(salt, ikm, 'Content-Encoding: aes128gcm\0', 16);
  const nonce = hkdf(salt, ikm, 'Content-Encoding: nonce\0', 12); // record 0: nothing to XOR in

  let padded: Buffer;
  try {
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(record.subarray(-16));
    padded = Buffer.concat([decipher.update(record.subarray(0, -16)), decipher.final()]);
  } catch {
    refuse('body does not decrypt (wrong keys, or altered)');
  }
  // The last record's plaintext ends with the delimiter 0x02, then any number of zero bytes.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 0x02) refuse('plaintext lacks the last-record delimiter 0x02');
  return padded.subarray(0, end);
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A Web Push service on a random loopback port, strict like the real ones: a push must carry an
 * aes128gcm body, a TTL and a VAPID JWT for this origin, or it gets a 400 saying why. Accepted
 * pushes are decrypted with the subscription's private key, so tests see what the app really sent.
 */
export async function startPushService(): Promise<PushService> {
  const subscriptions = new Map<string, Subscription>();
  const statuses = new Map<string, number>();
  const received: PushMessage[] = [];
  // Turned-down pushes, for waitFor's error: a test waiting for a push the service refused is told why.
  const refused: string[] = [];
  const waiters = new Set<(message: PushMessage) => void>();
  let origin = '';

  async function accept(request: IncomingMessage): Promise<PushMessage> {
    const body = await readBody(request);
    if (request.method !== 'POST') refuse('only POST delivers a push', 405);
    if (!/^\/push\/[\w-]+$/.test(request.url ?? '')) refuse('no such endpoint', 404);
    const endpoint = origin + request.url;
    const subscription = subscriptions.get(endpoint);
    if (!subscription) refuse('no such subscription', 404);
    const status = statuses.get(endpoint) ?? 201;
    if (status !== 201) refuse(`respondWith(${status})`, status);

    // Flattened (only set-cookie can repeat), so every value is a string.
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]),
    );
    if (headers['content-encoding'] !== 'aes128gcm') refuse(`Content-Encoding is ${headers['content-encoding']}, not aes128gcm`);
    if (!/^\d+$/.test(headers.ttl ?? '')) refuse('TTL header is missing or not a number of seconds');
    if (headers.urgency !== undefined && !['very-low', 'low', 'normal', 'high'].includes(headers.urgency)) {
      refuse(`Urgency ${headers.urgency} is not one of very-low, low, normal, high`);
    }
    if (body.length > MAX_BODY) refuse(`body is ${body.length} bytes, more than ${MAX_BODY}`, 413);
    const vapid = checkVapid(headers.authorization, origin);
    const text = decrypt(body, subscription).toString('utf8');
    let payload: unknown = text;
    try {
      payload = JSON.parse(text);
    } catch {
      // not JSON: the text is the payload
    }
    return { endpoint, headers, payload, text, vapid };
  }

  const server = createServer((request, response) => {
    accept(request).then(
      (message) => {
        received.push(message);
        for (const waiter of waiters) waiter(message);
        // RFC 8030 §5: 201 Created, Location naming the push message resource.
        response.writeHead(201, { Location: `${origin}/message/${randomBytes(8).toString('hex')}` }).end();
      },
      (error: unknown) => {
        const status = error instanceof Refused ? error.status : 500;
        const reason = error instanceof Error ? error.message : String(error);
        refused.push(`${request.method} ${request.url}: ${status} ${reason}`);
        response.writeHead(status, { 'Content-Type': 'text/plain' }).end(reason);
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    received,
    subscribe() {
      const ecdh = createECDH('prime256v1');
      const publicKey = ecdh.generateKeys(); // uncompressed: 0x04 | x | y, 65 bytes
      const auth = randomBytes(16);
      const endpoint = `${origin}/push/${randomBytes(12).toString('base64url')}`;
      subscriptions.set(endpoint, { ecdh, publicKey, auth });
      return { endpoint, expirationTime: null, keys: { p256dh: publicKey.toString('base64url'), auth: auth.toString('base64url') } };
    },
    waitFor(predicate, timeoutMs = 10_000) {
      const found = received.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = (message: PushMessage) => {
          if (!predicate(message)) return;
          waiters.delete(waiter);
          clearTimeout(timer);
          resolve(message);
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          const arrived = received.map((m) => `  ${m.endpoint}: ${m.text}`).join('\n') || '  (none)';
          const turnedDown = refused.map((line) => `  ${line}`).join('\n') || '  (none)';
          reject(new Error(`No matching push within ${timeoutMs} ms.\nReceived:\n${arrived}\nRefused:\n${turnedDown}`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    respondWith(endpoint, status) {
      statuses.set(endpoint, status);
    },
    async close() {
      const closed = new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
      server.closeAllConnections(); // fetch keeps connections alive, which close() alone would wait for
      await closed;
    },
  };
}

/**
 * A browser's push subscription at `endpoint` (by default one at FCM, where the app sends nothing
 * in a test that never sends): a real P-256 key and auth secret, for tests that only store it.
 */
export function browserSubscription(
  endpoint = `https://fcm.googleapis.com/fcm/send/${randomBytes(12).toString('hex')}`,
): PushSubscriptionJson {
  const ecdh = createECDH('prime256v1');
  return {
    endpoint,
    expirationTime: null,
    keys: { p256dh: ecdh.generateKeys().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}
