import { z } from 'zod/v4';

/**
 * The client's zod (vite.config.ts resolves 'zod' to this module): zod itself, set up before any
 * schema is made, whichever chunk makes it first. zod compiles object parsers with new Function
 * when it may. The page policy allows no eval, so its probe is a reported CSP violation
 * (Lighthouse's best practices, issue 28) before it falls back to parsing without it, as it now
 * does from the start.
 */
z.config({ jitless: true });

export * from 'zod/v4';
