import { afterAll } from 'vitest';
import { disposeAll } from './processes.js';

// Runs before every test file (vitest setupFiles). Registered first, so it runs after the file's
// own afterAll hooks (they run in reverse): whatever those left running or on disk goes here.
afterAll(disposeAll, 30_000);
