/**
 * The lists module's entry (issue 38): the list calls of the read side
 * (records with the search, tags, scans, alarms, statistics, compact series),
 * one file each; other modules import it from here only.
 */
export { MAX_SEARCH_TAGS } from './search';
export { MAX_SEARCH_WORDS } from './records-list';
export type { Statistics } from './statistics';
