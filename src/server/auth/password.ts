import { hash, verify, type Options } from '@node-rs/argon2';

/**
 * argon2id at the OWASP Password Storage Cheat Sheet's recommended minimum:
 * 19 MiB of memory, 2 iterations, 1 lane.
 */
const ARGON2ID: Options = {
  // Algorithm.Argon2id; the package exports it as a const enum, which isolated modules can't read.
  algorithm: 2,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let decoyHash: Promise<string> | undefined;

/**
 * Spends the same time as a real check, for sign-ins to accounts that don't exist, so response
 * times don't reveal which e-mail addresses are registered.
 */
export async function verifyDecoy(password: string): Promise<false> {
  decoyHash ??= hashPassword('decoy password that matches nothing');
  await verifyPassword(await decoyHash, password);
  return false;
}
