/**
 * A push device's id (issue 30): its endpoint's SHA-256 in hex, the first 32 characters. The
 * server keys devices by it; the browser finds its own device's row by it (to remove it when
 * signing out). Web Crypto, which browsers and Node both have.
 */
export async function deviceIdOf(endpoint: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(endpoint));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0'))
    .join('')
    .slice(0, 32);
}
