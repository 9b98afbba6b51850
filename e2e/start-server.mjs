// Starts the product for the browser tests on a fresh data folder, so every run
// begins from the first-start seed exactly as a newcomer's does.
import { rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// E2E_DATA_DIR: a folder of its own, for runs side by side in one checkout.
const dataDir = process.env.E2E_DATA_DIR ?? path.join(root, '.e2e-data');
rmSync(dataDir, { recursive: true, force: true });
// Mail goes to an in-process SMTP sink; e2e/mail.ts reads it over HTTP.
const port = Number(process.env.PORT ?? 8123);
const { startMailSink } = await import('./mail-sink.mjs');
const sink = await startMailSink({ smtpPort: port + 2, httpPort: port + 3 });
const child = spawn(
  process.execPath,
  [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'apps/server/src/server.ts'],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      SMTP_URL: sink.smtpUrl,
      MAIL_RETRY_DELAY_SECONDS: '1',
      // Webhook receivers of the browser tests listen on 127.0.0.1.
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_DELAY_SECONDS: '1',
      PUBLIC_ORIGIN: process.env.PUBLIC_ORIGIN ?? `http://127.0.0.1:${port}`,
    },
  },
);
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code) => process.exit(code ?? 0));
