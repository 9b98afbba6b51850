import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../src/config';

/**
 * Shell blocks of a Markdown page, for tests that run a page's commands as they
 * are written. A block is marked for a test by an HTML comment right before its
 * fence, which a reader of the rendered page does not see:
 *
 *     <!-- test: pitr -->
 *
 *     ```sh
 *     npm run restore -- --from ... \
 *       --to-data-dir ...
 *     ```
 *
 * Also the environment such a command runs in, and the server it starts
 * (`npm start`, run here on the sources).
 */

export const readDoc = (relative: string) => readFileSync(path.join(REPO_ROOT, relative), 'utf8');

/**
 * The commands of the ```sh / ```bash block marked `<!-- test: name -->`: lines
 * continued with a backslash joined, comments and blank lines left out.
 * Throws when the page has no such block, or more than one.
 */
export function markedBlock(markdown: string, name: string): string[] {
  const marker = new RegExp(
    `<!-- test: ${name} -->\\s*\`\`\`(?:sh|bash)\\n([\\s\\S]*?)\`\`\``,
    'g',
  );
  const found = [...markdown.matchAll(marker)];
  if (found.length !== 1) {
    throw new Error(
      `expected one shell block marked "<!-- test: ${name} -->", found ${found.length}`,
    );
  }
  return found[0]![1]!
    .replace(/[ \t]*\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.replace(/\s+#\s.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/**
 * `VAR=value ... npm start`: the variables set in front of it (an empty object
 * for a plain `npm start`); undefined for any other command.
 */
export function npmStart(command: string): Record<string, string> | undefined {
  const match = /^((?:[A-Z_][A-Z0-9_]*=\S+\s+)*)npm start$/.exec(command);
  if (!match) return undefined;
  return Object.fromEntries(
    [...match[1]!.matchAll(/([A-Z_][A-Z0-9_]*)=(\S+)/g)].map((m) => [m[1]!, m[2]!]),
  );
}

/** The environment without npm's own variables and without another database or archive. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) || key === 'INIT_CWD') continue;
    if (['DATABASE_URL', 'MIGRATION_DATABASE_URL', 'BACKUP_WAL_DIR', 'DATA_DIR'].includes(key)) {
      continue;
    }
    env[key] = value;
  }
  return { ...env, NODE_ENV: 'test', LOG_LEVEL: 'warn', ...extra };
}

export interface DocServer {
  child: ChildProcess;
  port: number;
  /** What it wrote (stdout and stderr), for a failure's message. */
  output: string[];
  exited: Promise<void>;
}

/**
 * `npm start` on the sources (the server as `npm run dev` runs it, without the
 * build `npm start` makes first and without the reload): the server's process,
 * its embedded PostgreSQL a child of it. Resolves once GET /api/health/ answers
 * 200 (60 s at most); rejects if the server exits first.
 */
export async function startDocServer(env: NodeJS.ProcessEnv): Promise<DocServer> {
  const port = Number(env.PORT);
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (d: Buffer) => output.push(d.toString()));
  child.stderr?.on('data', (d: Buffer) => output.push(d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const server = { child, port, output, exited };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server exited during start-up:\n${output.join('')}`);
    }
    const ok = await fetch(`http://127.0.0.1:${port}/api/health/`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return server;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stopDocServer(server);
  throw new Error(`no health 200 on port ${port} within 60 s:\n${output.join('')}`);
}

/**
 * A clean stop (SIGTERM: the server stops its PostgreSQL, which archives its
 * last WAL segment); SIGKILL after `ms` if it does not exit.
 */
export async function stopDocServer(server: DocServer | undefined, ms = 30_000): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  const late = setTimeout(() => server.child.kill('SIGKILL'), ms);
  await server.exited;
  clearTimeout(late);
}
