/**
 * A new key for one form (issue 26: a double-submitted upload made two posts): 32 hex digits
 * from the browser's random source. crypto.randomUUID exists only on HTTPS and localhost;
 * getRandomValues everywhere.
 */
export function newFormKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
