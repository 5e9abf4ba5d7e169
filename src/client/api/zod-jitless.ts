import { z } from 'zod';

/**
 * zod compiles object parsers with new Function when it may. The page policy allows no eval, so
 * its probe is a reported CSP violation (Lighthouse's best practices, issue 28) before it falls
 * back to parsing without it, as it now does from the start. Imported by answers.ts before the
 * schemas, which probe as they are made.
 */
z.config({ jitless: true });
