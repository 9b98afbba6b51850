/**
 * The display-rules module's entry: other modules import it from here only (issue 12).
 */
export { effectiveDisplayRule } from './service';
