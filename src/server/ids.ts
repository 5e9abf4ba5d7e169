import { randomBytes } from 'node:crypto';

/** A new random id: 96 bits, URL-safe, 16 characters. Unguessable, so ids reveal nothing. */
export function newId(): string {
  return randomBytes(12).toString('base64url');
}
