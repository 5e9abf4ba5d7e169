import { z } from 'zod';

/**
 * Before any schema is made: zod's fast path compiles parsers with `new Function`, which our CSP
 * (script-src 'self') forbids; even its probe for eval is reported as a CSP violation (Lighthouse
 * best practices). Answers are small, so the interpreted parser costs nothing we can see.
 */
z.config({ jitless: true });
