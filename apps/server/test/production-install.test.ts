import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  symlinkSync,
  unlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config';
import { freePort } from './smtp-sink';

/**
 * Issue 36 item 3, "done when": `npm run build && npm ci --omit=dev && npm start`
 * serves the app. On a copy of the checkout (the files git knows, committed or
 * not): the build runs with this checkout's node_modules linked in, the links
 * are removed, `npm ci --omit=dev` installs the production dependencies only
 * (no tsx-less surprise: no Vite, no Vitest, no TypeScript), and `npm start`
 * must serve the API and the web app from the build, without rebuilding.
 * Slow (the install: about 40 s with npm's cache warm).
 */

const hasGit = existsSync(path.join(REPO_ROOT, '.git'));

/** The environment without npm's variables: a child npm must work on the copy, not on this checkout. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) || key === 'INIT_CWD') continue;
    if (['DATABASE_URL', 'MIGRATION_DATABASE_URL', 'WEB_DIST', 'PORT', 'DATA_DIR'].includes(key))
      continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

/** Copies every file git lists (tracked, and untracked but not ignored) into `dest`. */
function copyCheckout(dest: string): void {
  const listed = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: REPO_ROOT,
      maxBuffer: 64 * 1024 * 1024,
    },
  )
    .toString()
    .split('\0')
    .filter(Boolean);
  for (const file of listed) {
    const from = path.join(REPO_ROOT, file);
    // Deleted in the working tree but still tracked: not part of the checkout as it is.
    if (!existsSync(from) || !statSync(from).isFile()) continue;
    mkdirSync(path.dirname(path.join(dest, file)), { recursive: true });
    copyFileSync(from, path.join(dest, file));
  }
}

/** The folders holding a node_modules: the root and each workspace. */
function packageFolders(): string[] {
  const { workspaces } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    workspaces: string[];
  };
  return ['.', ...workspaces].filter((w) => existsSync(path.join(REPO_ROOT, w, 'node_modules')));
}

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, {
    cwd,
    env: cleanEnv(),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
}

describe.skipIf(!hasGit)('a production install [FEAT-DEPLOYMENT]', () => {
  const copy = mkdtempSync(path.join(tmpdir(), 'pb-install-'));
  // As root the embedded PostgreSQL runs as the 'postgres' user, who must reach DATA_DIR.
  chmodSync(copy, 0o755);
  let server: ChildProcess | undefined;
  /** Resolves when every process of the group is gone: the last one closes the output pipes. */
  let closed: Promise<void> | undefined;

  /** npm, start.mjs, the server and its PostgreSQL are one process group: SIGTERM to all. */
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-server!.pid!, signal);
    } catch {
      // gone already
    }
  };
  const stopServer = async () => {
    if (!server || !closed) return;
    signalGroup('SIGTERM');
    const late = setTimeout(() => signalGroup('SIGKILL'), 25_000);
    await closed;
    clearTimeout(late);
    server = undefined;
  };

  afterAll(async () => {
    await stopServer();
    // Removing the installed node_modules takes a while: in the background, not in the test's time.
    spawn('rm', ['-rf', copy], { detached: true, stdio: 'ignore' }).unref();
  });

  it(
    'builds, installs without dev dependencies and serves the app',
    { timeout: 240_000 },
    async () => {
      const timings: string[] = [];
      let since = Date.now();
      const timed = (step: string) => {
        timings.push(`${step} ${((Date.now() - since) / 1000).toFixed(1)} s`);
        since = Date.now();
      };
      copyCheckout(copy);
      timed('copy');

      // npm run build, with the dev dependencies of this checkout.
      const linked = packageFolders().map((folder) => {
        const link = path.join(copy, folder, 'node_modules');
        symlinkSync(path.join(REPO_ROOT, folder, 'node_modules'), link, 'dir');
        return link;
      });
      try {
        run('npm', ['run', 'build'], copy);
      } finally {
        // Before npm ci, which would empty the linked folders.
        for (const link of linked) unlinkSync(link);
      }
      timed('build');
      expect(existsSync(path.join(copy, 'apps/server/dist/server.js'))).toBe(true);
      expect(existsSync(path.join(copy, 'apps/web/dist/index.html'))).toBe(true);

      run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], copy);
      timed('npm ci --omit=dev');
      // No build tools of the dev dependencies.
      for (const dev of ['vite', 'vitest', 'typescript', '@vitejs/plugin-react']) {
        expect(existsSync(path.join(copy, 'node_modules', dev)), dev).toBe(false);
      }

      const port = await freePort();
      const output: string[] = [];
      server = spawn('npm', ['start'], {
        cwd: copy,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: cleanEnv({
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: path.join(copy, 'data'),
          SEED_DEMO: 'false',
          ADMIN_PASSWORD: 'production-install-password',
          SECRET_KEY: 'production-install-secret-key-production-install',
          ARGON2_MEMORY_KIB: '64',
          ARGON2_TIME_COST: '1',
        }),
      });
      server.stdout?.on('data', (d: Buffer) => output.push(d.toString()));
      server.stderr?.on('data', (d: Buffer) => output.push(d.toString()));
      closed = new Promise((resolve) => server!.once('close', () => resolve()));

      let health = 0;
      for (let waited = 0; waited < 60_000 && server.exitCode === null; waited += 250) {
        health = await fetch(`http://127.0.0.1:${port}/api/health/`).then(
          (r) => r.status,
          () => 0,
        );
        if (health === 200) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(health, output.join('')).toBe(200);
      timed('npm start until healthy');

      const page = await fetch(`http://127.0.0.1:${port}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await page.text();
      expect(html).toContain('<div id="root"></div>');
      expect(html).toMatch(/<script type="module" crossorigin src="\/assets\/[^"]+\.js"/);

      // The build was current: nothing was rebuilt, nothing reported stale.
      const log = output.join('');
      expect(log).not.toMatch(/^built (server|web)/m);
      expect(log).not.toContain('older than its sources');

      await stopServer();
      timed('stop');
      console.info(`production install: ${timings.join(', ')}`);
      // The server shut down as on any SIGTERM (npm itself may end by the signal).
      expect(output.join('')).toMatch(/"msg":"stopped"/);
    },
  );
});
