import { execFileSync } from 'node:child_process';
import fs, { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, LOG_BUFFER_BYTES, LOG_FLUSH_MS, LOG_WRITE_MAX_BYTES } from './logger';

/**
 * The server's log lines are gathered and written in batches
 * (list-performance.md, "Log batching"): none is lost, a request line waits
 * about LOG_FLUSH_MS, an error is written at once, and what is gathered is
 * written when the process exits.
 */

const dir = mkdtempSync(path.join(tmpdir(), 'coldtrace-log-'));
/** The destinations of this file's loggers, ended after each test (each closes its file). */
const destinations: { end(): void; on(event: 'close', f: () => void): void }[] = [];

afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await Promise.all(
    destinations.splice(0).map(
      (d) =>
        new Promise<void>((resolve) => {
          d.on('close', resolve);
          d.end();
        }),
    ),
  );
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A log file and the server's logger writing to it (with its flush timer faked). */
async function logToFile(name: string) {
  // Only setInterval is faked: the destination's own writes and this file's waits are real.
  vi.useFakeTimers({ toFake: ['setInterval'] });
  const file = path.join(dir, name);
  const log = createLogger('info', openSync(file, 'w'));
  const stream = (log as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
  destinations.push(stream as (typeof destinations)[number]);
  await new Promise((resolve) => setImmediate(resolve)); // the destination is ready
  const lines = () =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { msg: string }).msg);
  return { log, lines };
}

/** Lines of 200 characters, `extra` more than LOG_BUFFER_BYTES takes: a batch whose write starts at once. */
function logFullBatch(log: { info(msg: string): void }, extra: number) {
  const text = 'x'.repeat(200);
  const count = Math.ceil(LOG_BUFFER_BYTES / text.length) + extra;
  for (let i = 0; i < count; i++) log.info(`${i} ${text}`);
  return { text, count };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean): Promise<void> {
  for (let waited = 0; !check(); waited += 10) {
    if (waited > 10_000) throw new Error('the lines were not written');
    await pause(10);
  }
}

describe('the server log, written in batches [FEAT-OBSERVABILITY]', () => {
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
    const { text } = logFullBatch(log, 5);
    await until(() => lines().length > 0);
    expect(lines()[0]).toBe(`0 ${text}`);
  });

  it('writes whole lines of at most PIPE_BUF bytes at a time, so processes sharing a pipe never interleave', async () => {
    const writes: string[] = [];
    const write = fs.write;
    vi.spyOn(fs, 'write').mockImplementation(((...args: Parameters<typeof fs.write>) => {
      // (A flush with nothing gathered writes an empty string: not a batch.)
      if (typeof args[1] === 'string' && args[1] !== '') writes.push(args[1]);
      return (write as (...a: unknown[]) => void)(...args);
    }) as typeof fs.write);
    const { log, lines } = await logToFile('pipe.log');
    const count = 200;
    for (let i = 0; i < count; i++)
      log.info({ url: `/api/devices/xt1/records/?n=${i}` }, `line ${i}`);
    // What is left after the writes under way goes at the next ticks of the flush timer.
    await until(() => {
      vi.advanceTimersByTime(LOG_FLUSH_MS);
      return lines().length === count;
    });
    expect(lines()).toEqual(Array.from({ length: count }, (_, i) => `line ${i}`));
    expect(writes.length).toBeGreaterThan(1);
    for (const data of writes) {
      expect(Buffer.byteLength(data)).toBeLessThanOrEqual(LOG_WRITE_MAX_BYTES);
      expect(data.endsWith('\n')).toBe(true);
    }
    // Batches, not a write per line.
    expect(writes.length).toBeLessThan(count / 5);
  });

  it('writes an error at once, with the lines gathered before it', async () => {
    const { log, lines } = await logToFile('error.log');
    log.info('before the error');
    // A child's lines too (Fastify logs each request through one).
    log.child({ reqId: 'r1' }).error('request errored');
    await until(() => lines().length === 2);
    expect(lines()).toEqual(['before the error', 'request errored']);
  });

  it('writes an error logged while a batch is being written as soon as that write is done', async () => {
    const { log, lines } = await logToFile('error-busy.log');
    // A full batch: its write starts now and is under way while the error comes.
    const { count: batch } = logFullBatch(log, 1);
    log.error('request errored');
    // No tick of the flush timer (faked): the error goes out after the batch.
    await until(() => lines().length === batch + 1);
    expect(lines().at(-1)).toBe('request errored');
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
