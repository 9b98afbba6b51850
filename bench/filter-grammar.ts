import { parseFilter, serializeFilter, type FilterItem } from '@coldtrace/domain';
import { fmt, opsPerSecond } from './measure';

/** Filter grammar round trip against JSON of the same items (the baseline). */
export async function filterGrammarBench(): Promise<void> {
  const items: FilterItem[] = [
    { field: 'primary_reference', operator: 'contains', value: 'ACME^|=,\\ 42' },
    { field: 'high_threshold', operator: '>=', value: '8' },
    { field: 'tag_type', operator: 'isAnyOf', value: ['XT1_RT', 'NanoTag'] },
    { field: 'po_number', operator: 'isEmpty' },
  ];
  const grammar = await opsPerSecond(() => parseFilter(serializeFilter(items, 'and')));
  const json = await opsPerSecond(() => JSON.parse(JSON.stringify({ items, logic: 'and' })));
  console.log(
    `serialize+parse: ${fmt(grammar, 0)} ops/s; JSON baseline ${fmt(json, 0)} ops/s; ratio ${fmt(grammar / json, 2)}`,
  );
}
