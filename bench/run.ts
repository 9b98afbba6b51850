/**
 * Runs every benchmark under bench/ (or the ones named on the command line) and
 * prints its figures. Each benchmark measures a baseline in the same run and
 * prints ratios against it, so figures compare across machines.
 */
import { compressionBench } from './compression';
import { filterGrammarBench } from './filter-grammar';
import { ingestBench } from './ingest';
import { listsBench } from './lists';
import { liveBench } from './live';
import { packetsBench } from './packets';
import { passwordHashBench } from './password-hash';
import { reportsBench } from './reports';
import { seriesBench } from './series';
import { webBench } from './web';

const benches: Record<string, () => Promise<void>> = {
  compression: compressionBench,
  'filter-grammar': filterGrammarBench,
  ingest: ingestBench,
  lists: listsBench,
  live: liveBench,
  packets: packetsBench,
  'password-hash': passwordHashBench,
  reports: reportsBench,
  series: seriesBench,
  web: webBench,
};

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(benches)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  console.log(`\n== ${name}`);
  await run();
}
