/**
 * What the top of the house mounts from the identity module (`app.ts`, `workers.ts`):
 * its routes and job workers. Other modules import its entry, `index.ts`.
 */
export { authRoutes } from './auth/routes';
export { keysRoutes } from './keys/routes';
export { tokenRoutes } from './tokens/routes';
export { passwordRoutes } from './password/routes';
export { passwordResetWorker } from './password/worker';
export { secondFactorRoutes } from './second-factor/routes';
