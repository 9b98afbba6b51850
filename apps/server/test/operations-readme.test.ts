import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config';
import { cleanEnv, startDocServer, stopDocServer, type DocServer } from './doc-blocks';
import { freePort } from './smtp-sink';

/**
 * Issue 36, "done when": the README's "Backup and restore" section, followed
 * literally. Its shell blocks are read from README.md and run as they are
 * written, with only the example folders (`/backups/...`, `/srv/coldtrace-data`)
 * moved under a temporary folder: a backup of a running server (with its demo
 * data), a restore into an empty folder, the verification against the
 * backup's manifest, and `npm start` on the restored folder (run here as the
 * server's process, on ports of its own, until its health check answers 200).
 */

const README = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');

/** The ```sh blocks of one README section, each as its lines (comments and blanks left out). */
function shellBlocks(heading: string): string[][] {
  const start = README.indexOf(`\n## ${heading}\n`);
  expect(start, `README section "${heading}"`).toBeGreaterThan(0);
  const end = README.indexOf('\n## ', start + 1);
  const section = README.slice(start, end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) =>
    m[1]!
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
}

describe("the README's backup and restore, followed literally [FEAT-BACKUP-RESTORE]", () => {
  const root = mkdtempSync(path.join(tmpdir(), 'ops-readme-'));
  // As root the embedded PostgreSQL runs as 'postgres', which must enter the folder.
  chmodSync(root, 0o755);
  const servers: DocServer[] = [];
  afterAll(async () => {
    for (const server of servers) await stopDocServer(server);
    rmSync(root, { recursive: true, force: true });
  });

  it('backs up the running server, restores, verifies and starts on the restored folder', async () => {
    const [backupBlock, restoreBlock] = shellBlocks('Backup and restore');
    expect(backupBlock).toEqual([expect.stringMatching(/^npm run backup -- --to \/backups\//)]);
    expect(restoreBlock).toHaveLength(3);

    const [port, pgPort, restoredPort, restoredPgPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const dataDir = path.join(root, 'data');
    servers.push(
      await startDocServer(
        cleanEnv({ DATA_DIR: dataDir, PORT: String(port), EMBEDDED_PG_PORT: String(pgPort) }),
      ),
    );

    // The example folders, under this test's folder; everything else as written.
    // (One pass: a replacement is never replaced again.)
    const local = (line: string) =>
      line.replace(
        /\/backups\/coldtrace-20261202T0400Z|\/backups\/|\/srv\/coldtrace-data/g,
        (found) =>
          found === '/backups/'
            ? `${root}/backups/`
            : found === '/srv/coldtrace-data'
              ? `${root}/restored`
              : `${root}/backups/coldtrace-*`,
      );
    const sh = (line: string, env: Record<string, string>) =>
      execFileSync('bash', ['-c', local(line)], {
        cwd: REPO_ROOT,
        env: cleanEnv(env),
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        maxBuffer: 16 * 1024 * 1024,
      });

    // With the server's environment, as the README says.
    sh(backupBlock![0]!, { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort) });
    const backups = readdirSync(path.join(root, 'backups'));
    expect(backups).toEqual([expect.stringMatching(/^coldtrace-\d{8}T\d{4}Z$/)]);

    const [restoreLine, verifyLine, startLine] = restoreBlock!;
    expect(startLine).toBe('DATA_DIR=/srv/coldtrace-data npm start');
    const restoredEnv = { EMBEDDED_PG_PORT: String(restoredPgPort) };
    sh(restoreLine!, restoredEnv);
    const verified = sh(verifyLine!, restoredEnv);
    // The counts of the table the verification prints, the demo data's records among them.
    expect(verified).toMatch(/records/i);
    expect(verified).not.toMatch(/missing|mismatch|FAIL/i);

    servers.push(
      await startDocServer(
        cleanEnv({
          DATA_DIR: path.join(root, 'restored'),
          PORT: String(restoredPort),
          EMBEDDED_PG_PORT: String(restoredPgPort),
        }),
      ),
    );
  }, 180_000);
});
