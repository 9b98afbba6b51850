/** The changelog. The page loads lazily through `./routes`. */
export { changelogQueryOptions, useChangelog } from './api/get-changelog';
