import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, LOG_BUFFER_BYTES, LOG_FLUSH_MS } from './logger';

/**
 * The server's log lines are gathered and written in batches
 * (list-performance.md, "Twentieth pass"): none is lost, a request line waits
 * at most LOG_FLUSH_MS, an error is written at once, and what is gathered is
 * written when the process exits.
 */

const dir = mkdtempSync(path.join(tmpdir(), 'coldtrace-log-'));
const opened: number[] = [];

afterEach(() => {
  vi.useRealTimers();
});
afterAll(() => {
  for (const fd of opened) closeSync(fd);
  rmSync(dir, { recursive: true, force: true });
});

/** A log file and the server's logger writing to it (with its flush timer faked). */
async function logToFile(name: string) {
  // Only setInterval is faked: the destination's own writes and this file's waits are real.
  vi.useFakeTimers({ toFake: ['setInterval'] });
  const file = path.join(dir, name);
  const fd = openSync(file, 'w');
  opened.push(fd);
  const log = createLogger('info', fd);
  await new Promise((resolve) => setImmediate(resolve)); // the destination is ready
  const lines = () =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { msg: string }).msg);
  return { log, lines };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean): Promise<void> {
  for (let waited = 0; !check(); waited += 10) {
    if (waited > 10_000) throw new Error('the lines were not written');
    await pause(10);
  }
}

describe('the server log, written in batches', () => {
  it('gathers request lines and writes them within LOG_FLUSH_MS, in order', async () => {
    const { log, lines } = await logToFile('gathered.log');
    log.info('first');
    log.info({ responseTime: 1.5 }, 'second');
    await pause(100);
    // Under LOG_BUFFER_BYTES and before the flush timer: nothing written yet.
    expect(lines()).toEqual([]);
    vi.advanceTimersByTime(LOG_FLUSH_MS);
    await until(() => lines().length === 2);
    expect(lines()).toEqual(['first', 'second']);
  });

  it('writes a full batch without waiting for the timer', async () => {
    const { log, lines } = await logToFile('full.log');
    const text = 'x'.repeat(200);
    const count = Math.ceil(LOG_BUFFER_BYTES / text.length) + 5;
    for (let i = 0; i < count; i++) log.info(`${i} ${text}`);
    await until(() => lines().length > 0);
    expect(lines()[0]).toBe(`0 ${text}`);
  });

  it('writes an error at once, with the lines gathered before it', async () => {
    const { log, lines } = await logToFile('error.log');
    log.info('before the error');
    // A child's lines too (Fastify logs each request through one).
    log.child({ reqId: 'r1' }).error('request errored');
    await until(() => lines().length === 2);
    expect(lines()).toEqual(['before the error', 'request errored']);
  });

  /** The messages a child process wrote that logs `lines` (code using `log`), then exits at once. */
  const loggedBeforeExit = (lines: string) => {
    const script = [
      `import { createLogger } from ${JSON.stringify(path.join(import.meta.dirname, 'logger.ts'))};`,
      "const log = createLogger('info');",
      lines,
      'process.exit(1);',
    ].join('\n');
    let out: string;
    try {
      out = execFileSync(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script],
        {
          encoding: 'utf8',
        },
      );
    } catch (err) {
      out = (err as { stdout: string }).stdout;
    }
    return out
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { msg: string }).msg);
  };

  it('writes what it gathered when the process exits', () => {
    expect(loggedBeforeExit("for (let i = 0; i < 3; i++) log.info('line ' + i);")).toEqual([
      'line 0',
      'line 1',
      'line 2',
    ]);
    // A fatal line's write under way as the process exits (the server's uncaught exception).
    expect(loggedBeforeExit("log.info('before'); log.fatal('uncaught exception: boom');")).toEqual([
      'before',
      'uncaught exception: boom',
    ]);
  });
});
