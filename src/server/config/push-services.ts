/**
 * Which push services a device may subscribe through (PUSH_SERVICES). The server sends a request
 * to every subscription's endpoint, so an endpoint is a URL a user chose: without this list it
 * could name any host the server reaches (the database's, a cloud's metadata service). Only the
 * browser makers' services are allowed by default; plain http only on the loopback (tests).
 */
export const DEFAULT_PUSH_SERVICES = [
  'https://fcm.googleapis.com',
  'https://updates.push.services.mozilla.com',
  'https://*.notify.windows.com',
  'https://*.push.apple.com',
];

const HOST = /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** An entry's origin as written (`https://*.push.apple.com`), or undefined when it is not one. */
export function pushServiceEntry(entry: string): string | undefined {
  const match = /^(https?):\/\/([^/:]+|\[::1\])(:\d{1,5})?$/.exec(entry.trim().toLowerCase());
  if (!match) return undefined;
  const [, scheme, host, port = ''] = match as unknown as [string, string, string, string | undefined];
  if (!(HOST.test(host) || host === '[::1]')) return undefined;
  // A wildcard names the subdomains of a registered name (*.push.apple.com), never of a TLD.
  if (host.startsWith('*.') && !host.slice(2).includes('.')) return undefined;
  if (port !== '' && (Number(port.slice(1)) < 1 || Number(port.slice(1)) > 65535)) return undefined;
  if (scheme === 'http' && !LOOPBACK.has(host)) return undefined;
  return `${scheme}://${host}${port}`;
}

/** Whether `endpoint` is an https (or listed loopback http) URL at one of the `services`. */
export function isAllowedEndpoint(services: readonly string[], endpoint: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  return services.some((service) => {
    const allowed = new URL(service.replace('://*.', '://wildcard.'));
    if (url.protocol !== allowed.protocol || url.port !== allowed.port) return false;
    if (!service.includes('://*.')) return url.hostname === allowed.hostname;
    const suffix = allowed.hostname.slice('wildcard'.length);
    return url.hostname.endsWith(suffix) && url.hostname.length > suffix.length;
  });
}
