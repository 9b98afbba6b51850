// Starts the product for the browser tests on a fresh data folder, so every run
// begins from the first-start seed exactly as a newcomer's does.
import { rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = path.join(root, '.e2e-data');
rmSync(dataDir, { recursive: true, force: true });
const child = spawn(
  process.execPath,
  [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'apps/server/src/server.ts'],
  { cwd: root, stdio: 'inherit', env: { ...process.env, DATA_DIR: dataDir } },
);
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code) => process.exit(code ?? 0));
