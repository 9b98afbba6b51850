// `npm start`: build what is not current (build.mjs), then run the built server.
//
// A build is current when its stamp matches its sources (build.mjs), so a second
// start goes straight to the server. What is stale is rebuilt when its tool is
// installed; in a production install (`npm ci --omit=dev`: no Vite, and no esbuild
// once nothing depends on it) a current build is simply run, a stale one is run with
// a warning (nothing here can rebuild it), and a missing one is an error.
//
// Plain JavaScript: Node runs it without tsx.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  buildTarget,
  inputHash,
  isCurrent,
  ROOT,
  SERVER_MAIN,
  TARGETS,
  toolInstalled,
} from './build.mjs';

/**
 * The flags the server always runs with (a larger young generation: fewer scavenges under
 * load), in node-flags.json so that the bench starts the server with the same.
 */
const NODE_FLAGS = JSON.parse(readFileSync(new URL('./node-flags.json', import.meta.url), 'utf8'));

async function buildStale() {
  for (const target of TARGETS) {
    // WEB_DIST names a web build made elsewhere: the server serves it as it is.
    if (target.name === 'web' && (process.env.WEB_DIST ?? '').trim() !== '') continue;
    if (isCurrent(target, inputHash(target))) continue;
    if (toolInstalled(target)) {
      await buildTarget(target);
    } else if (existsSync(target.main)) {
      console.warn(
        `warning: the ${target.name} build is older than its sources, and ${target.tool} is ` +
          'not installed to rebuild it (an install without dev dependencies): starting the ' +
          'build as it is. Run `npm run build` where the dev dependencies are installed.',
      );
    } else {
      throw new Error(
        `There is no ${target.name} build, and ${target.tool} is not installed to make one ` +
          '(an install without dev dependencies). Run `npm install && npm run build` first.',
      );
    }
  }
}

/**
 * With OTEL_EXPORTER_OTLP_ENDPOINT the tracing set-up is preloaded: a bundle loads
 * `pg` and `http` before any of its own code, too late for their instrumentation
 * (docs/decisions/observability.md). Workers forked by cluster.ts inherit the flag.
 */
function tracingFlags() {
  if ((process.env.OTEL_EXPORTER_OTLP_ENDPOINT ?? '').trim() === '') return [];
  return ['--import', pathToFileURL(path.join(path.dirname(SERVER_MAIN), 'tracing-init.js')).href];
}

function runServer() {
  const args = [...NODE_FLAGS, ...tracingFlags(), SERVER_MAIN, ...process.argv.slice(2)];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: 'inherit',
  });
  // The server shuts down gracefully on these; this process only passes them on and
  // waits (a terminal's Ctrl-C reaches both: the server ignores the second one).
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else {
      process.exit(code ?? 1);
    }
  });
}

buildStale().then(runServer, (err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
