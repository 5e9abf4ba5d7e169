import { describe, expect, it } from 'vitest';
import { refusal } from '../helpers/config.js';
import { loadConfig } from '../../src/server/config.js';
import { DEFAULT_PUSH_SERVICES, isAllowedEndpoint, pushServiceEntry } from '../../src/server/config/push-services.js';

/**
 * Which push services a device may subscribe through (issue 30, PUSH_SERVICES): the server sends
 * a request to every subscription's endpoint, so an endpoint anywhere else is refused, whatever
 * the browser claims.
 */

describe('pushServiceEntry: one entry of PUSH_SERVICES', () => {
  it('is an https origin, a wildcard only as the first label, written in any case', () => {
    expect(pushServiceEntry('https://fcm.googleapis.com')).toBe('https://fcm.googleapis.com');
    expect(pushServiceEntry('https://*.push.apple.com')).toBe('https://*.push.apple.com');
    expect(pushServiceEntry('  HTTPS://Updates.Push.Services.Mozilla.com ')).toBe('https://updates.push.services.mozilla.com');
    expect(pushServiceEntry('https://push.example.com:8443')).toBe('https://push.example.com:8443');
    for (const entry of DEFAULT_PUSH_SERVICES) expect(pushServiceEntry(entry)).toBe(entry);
  });

  it('plain http only on the loopback, with its port', () => {
    expect(pushServiceEntry('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(pushServiceEntry('http://localhost:9000')).toBe('http://localhost:9000');
    expect(pushServiceEntry('http://[::1]:9000')).toBe('http://[::1]:9000');
    expect(pushServiceEntry('http://push.example.com')).toBeUndefined();
    expect(pushServiceEntry('http://10.0.0.5:8080')).toBeUndefined();
    expect(pushServiceEntry('http://127.0.0.2:8080')).toBeUndefined();
  });

  it('refuses anything but an origin: a path, a slash, a query, credentials, another scheme, a bad port', () => {
    for (const entry of [
      '',
      'fcm.googleapis.com',
      '*.push.apple.com',
      'https://fcm.googleapis.com/',
      'https://fcm.googleapis.com/fcm/send',
      'https://fcm.googleapis.com?x=1',
      'https://fcm.googleapis.com#x',
      'https://user@fcm.googleapis.com',
      'https://user:pw@fcm.googleapis.com',
      'ftp://fcm.googleapis.com',
      'javascript:alert(1)',
      'https://push.*.example.com',
      'https://*.*.example.com',
      'https://*',
      'https://push_service.example.com',
      'https://push.example.com:',
      'https://push.example.com:http',
      'https://push.example.com:123456',
    ]) {
      expect(pushServiceEntry(entry), entry).toBeUndefined();
    }
  });

  // A port past 65535 would start the server, then make isAllowedEndpoint's `new URL(service)`
  // throw on every subscription (a 500 for POST /api/me/push-devices).
  it('refuses a port no URL can have (past 65535), which would make every endpoint check throw', () => {
    expect(pushServiceEntry('https://push.example.com:65536')).toBeUndefined();
    expect(pushServiceEntry('https://push.example.com:99999')).toBeUndefined();
    expect(pushServiceEntry('https://push.example.com:0')).toBeUndefined();
  });

  it('refuses a wildcard over a top-level domain', () => {
    expect(pushServiceEntry('https://*.com')).toBeUndefined();
    expect(pushServiceEntry('https://*.push.apple.com')).toBe('https://*.push.apple.com');
  });
});

describe('isAllowedEndpoint', () => {
  const allowedByDefault = (endpoint: string) => isAllowedEndpoint(DEFAULT_PUSH_SERVICES, endpoint);

  it("accepts the browser makers' endpoints by default, as their browsers hand them out", () => {
    for (const endpoint of [
      // Chrome, Edge on Android, Opera
      'https://fcm.googleapis.com/fcm/send/eKClbVeEyGs:APA91bHqyF5TMP3oXyDz5fVL7RUX7xyXgNd5W2zqXc3Lr8mSFPvFbW3DBtQNVxKJgm3qgDh2',
      'https://fcm.googleapis.com/wp/dFQ2Mw6xT2c:APA91bGkV3Kx',
      // Firefox
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABnQ3bXh9Ofq4ZqWz8kBYG2N-lHnJ2yH5rUuP_0',
      // Edge on Windows
      'https://wns2-par02p.notify.windows.com/w/?token=BQYAAADMd0h%2fWjgVQ8cgQ1Xt%2bHKzL0w6',
      'https://db5p.notify.windows.com/w/?token=AwYAAAB',
      // Safari on macOS and iOS
      'https://web.push.apple.com/QGx4a9dnMCYUkMI6Y-EQ0W1VbEfHOGGy8_oJr8Pm4P8lLJ0N',
      // Hosts are case-insensitive; the default port is no port.
      'https://FCM.GoogleAPIs.com/fcm/send/abc',
      'https://fcm.googleapis.com:443/fcm/send/abc',
    ]) {
      expect(allowedByDefault(endpoint), endpoint).toBe(true);
    }
  });

  it('refuses other hosts, look-alikes and plain http', () => {
    for (const endpoint of [
      'https://evil.example/push',
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://fcm.googleapis.com.evil.example/fcm/send/abc',
      'https://evilfcm.googleapis.com/fcm/send/abc',
      'https://googleapis.com/fcm/send/abc',
      'https://xpush.apple.com/abc',
      'https://evil-push.apple.com/abc',
      'https://web.push.apple.com.evil.example/abc',
      'https://169.254.169.254/latest/meta-data/',
      'http://127.0.0.1:5432/',
      'http://localhost/',
    ]) {
      expect(allowedByDefault(endpoint), endpoint).toBe(false);
    }
  });

  it('a wildcard needs a subdomain: the bare domain is not one of its hosts', () => {
    expect(allowedByDefault('https://push.apple.com/abc')).toBe(false);
    expect(allowedByDefault('https://notify.windows.com/w/?token=x')).toBe(false);
    expect(allowedByDefault('https://.push.apple.com/abc')).toBe(false);
    expect(allowedByDefault('https://a.b.push.apple.com/abc')).toBe(true);
  });

  it('the port must match the entry, the default port being no port', () => {
    expect(allowedByDefault('https://fcm.googleapis.com:8443/fcm/send/abc')).toBe(false);
    expect(allowedByDefault('https://web.push.apple.com:8443/abc')).toBe(false);
    const services = ['https://push.example.com:8443', 'http://127.0.0.1:8080'];
    expect(isAllowedEndpoint(services, 'https://push.example.com:8443/x')).toBe(true);
    expect(isAllowedEndpoint(services, 'https://push.example.com/x')).toBe(false);
    expect(isAllowedEndpoint(services, 'https://push.example.com:8444/x')).toBe(false);
    expect(isAllowedEndpoint(services, 'http://127.0.0.1:8080/push/abc')).toBe(true);
    expect(isAllowedEndpoint(services, 'http://127.0.0.1:8081/push/abc')).toBe(false);
    expect(isAllowedEndpoint(services, 'http://127.0.0.1/push/abc')).toBe(false);
    // The scheme and the host as written: https on the same port, or localhost for 127.0.0.1, are other origins.
    expect(isAllowedEndpoint(services, 'https://127.0.0.1:8080/push/abc')).toBe(false);
    expect(isAllowedEndpoint(services, 'http://localhost:8080/push/abc')).toBe(false);
    expect(isAllowedEndpoint(['http://[::1]:9000'], 'http://[::1]:9000/push/abc')).toBe(true);
    expect(isAllowedEndpoint(['http://[::1]:9000'], 'http://[::1]:9001/push/abc')).toBe(false);
  });

  it('refuses userinfo, even at an allowed host', () => {
    expect(allowedByDefault('https://user@fcm.googleapis.com/fcm/send/abc')).toBe(false);
    expect(allowedByDefault('https://user:secret@fcm.googleapis.com/fcm/send/abc')).toBe(false);
    expect(allowedByDefault('https://:secret@web.push.apple.com/abc')).toBe(false);
    expect(isAllowedEndpoint(['http://127.0.0.1:8080'], 'http://a:b@127.0.0.1:8080/push/abc')).toBe(false);
    // Credentials that name an allowed host before the real one.
    expect(allowedByDefault('https://fcm.googleapis.com@evil.example/fcm/send/abc')).toBe(false);
  });

  it('refuses what is not an http(s) URL', () => {
    for (const endpoint of ['', 'not a url', '/fcm/send/abc', 'javascript:alert(1)', 'data:text/plain,hi', 'file:///etc/passwd']) {
      expect(allowedByDefault(endpoint), endpoint).toBe(false);
    }
  });

  it('with no services at all, refuses everything', () => {
    expect(isAllowedEndpoint([], 'https://fcm.googleapis.com/fcm/send/abc')).toBe(false);
  });
});

describe('PUSH_SERVICES through loadConfig', () => {
  it("unset: the browser makers' four services", () => {
    expect(loadConfig({}).notifications.pushServices).toEqual([
      'https://fcm.googleapis.com',
      'https://updates.push.services.mozilla.com',
      'https://*.notify.windows.com',
      'https://*.push.apple.com',
    ]);
  });

  it('a comma-separated list of origins, spaces and empty entries ignored, written in lower case', () => {
    expect(
      loadConfig({ PUSH_SERVICES: ' https://Push.Example.com , https://*.push.example.net:8443,, http://127.0.0.1:4000 ' }).notifications,
    ).toMatchObject({ pushServices: ['https://push.example.com', 'https://*.push.example.net:8443', 'http://127.0.0.1:4000'] });
    // Empty is unset, as for every setting.
    expect(loadConfig({ PUSH_SERVICES: '' }).notifications.pushServices).toEqual(DEFAULT_PUSH_SERVICES);
  });

  it('refuses an entry that is not an origin, naming the variable and the entry', () => {
    const reason = (entry: string) =>
      `PUSH_SERVICES: ${JSON.stringify(entry)} is not an https origin (https://push.example.com, https://*.example.com) or a loopback http one`;
    expect(refusal({ PUSH_SERVICES: 'http://push.example.com' })).toBe(reason('http://push.example.com'));
    expect(refusal({ PUSH_SERVICES: 'https://fcm.googleapis.com, https://push.example.com/send' })).toBe(
      reason('https://push.example.com/send'),
    );
    expect(refusal({ PUSH_SERVICES: '*.push.apple.com' })).toBe(reason('*.push.apple.com'));
  });

  // The same, through the setting: the server refuses to start.
  it('refuses a port past 65535', () => {
    expect(refusal({ PUSH_SERVICES: 'https://push.example.com:99999' })).toBeDefined();
  });
});
