import { readFileSync, writeFileSync } from 'node:fs';
import { ARCHITECTURE_DOC, withCurrentTable } from './module-graph';

/** Rewrites the module table of docs/ARCHITECTURE.md from the imports. */
writeFileSync(ARCHITECTURE_DOC, withCurrentTable(readFileSync(ARCHITECTURE_DOC, 'utf8')));
console.log('wrote docs/ARCHITECTURE.md (module table)');
