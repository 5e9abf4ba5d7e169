import { hash, verify, type Options } from '@node-rs/argon2';
import { OWASP_ARGON2ID, type Argon2Cost } from '../config.js';

function options(cost: Argon2Cost): Options {
  // Algorithm.Argon2id; the package exports it as a const enum, which isolated modules can't read.
  return { algorithm: 2, memoryCost: cost.memoryCost, timeCost: cost.timeCost, parallelism: 1 };
}

export function hashPassword(password: string, cost: Argon2Cost = OWASP_ARGON2ID): Promise<string> {
  return hash(password, options(cost));
}

/** The cost is read from the hash itself, so a check costs what the hash was made with. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** One decoy per cost: the decoy must cost what the real hashes of the same server cost. */
const decoyHashes = new Map<string, Promise<string>>();

/**
 * Spends the same time as a real check, for sign-ins to accounts that don't exist, so response
 * times don't reveal which e-mail addresses are registered.
 */
export async function verifyDecoy(password: string, cost: Argon2Cost = OWASP_ARGON2ID): Promise<false> {
  const key = `${cost.memoryCost},${cost.timeCost}`;
  let decoy = decoyHashes.get(key);
  if (!decoy) decoyHashes.set(key, (decoy = hashPassword('decoy password that matches nothing', cost)));
  await verifyPassword(await decoy, password);
  return false;
}
