import { z } from 'zod';

/**
 * The Content-Security-Policy allows no `eval` (script-src 'self'). Zod 4
 * probes for it (`new Function`) when an object schema is built, to compile a
 * faster parser; under the CSP that probe is a reported violation. Parse
 * without it. Imported first by `main.tsx`, before any schema is built.
 */
z.config({ jitless: true });
