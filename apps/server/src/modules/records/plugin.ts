/**
 * What the top of the house mounts from the records module (`app.ts`, `workers.ts`):
 * its routes and job workers (the folds of piled counts and tag sets). Other modules import its entry, `index.ts`.
 */
export { recordsRoutes } from './routes';
export { foldPiledCounts } from './kept-counts';
export { foldPiledTagSets } from './tag-sets';
