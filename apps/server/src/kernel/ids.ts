/**
 * The two kinds of id a call may name, defined once in the contract
 * (packages/contract/src/ids.ts) for the schemas, the server and the web.
 */
export { isUuid, parseRowId, ROW_ID } from '@coldtrace/contract';
