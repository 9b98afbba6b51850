import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { openApiDocument } from '../../apps/server/scripts/openapi-document';

/**
 * Lint the OpenAPI document as integrators' tools read it (issue 36 item 7):
 * generated fresh from the contract (what GET /api/schema/ serves; the committed
 * docs/openapi.json is checked equal to it by apps/server/test/openapi.test.ts),
 * then
 * - Spectral with `spectral:oas` (.spectral.yaml): no error and no warning;
 * - Redocly with `recommended` (redocly.yaml): no error; warnings are reported.
 * A rule either config turns off says why there.
 *
 *   npm run lint:openapi            (exit 1 when a check fails)
 *   npm run lint:openapi -- file    (lint that file instead)
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'node_modules/.bin');

export interface Finding {
  tool: 'spectral' | 'redocly';
  severity: 'error' | 'warning' | 'info' | 'hint';
  rule: string;
  message: string;
  /** A JSON pointer (Redocly) or a path (Spectral) into the document. */
  where: string;
}

export interface LintReport {
  spectral: Finding[];
  redocly: Finding[];
  /** Spectral found nothing, and Redocly no error. */
  ok: boolean;
}

const run = promisify(execFile);

/** Run a CLI that exits non-zero when it finds problems: its stdout either way. */
async function output(bin: string, args: string[]): Promise<string> {
  try {
    return (await run(path.join(BIN, bin), args, { cwd: ROOT, maxBuffer: 64 << 20 })).stdout;
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    if (stdout?.trim()) return stdout;
    throw new Error(`${bin} failed: ${stderr ?? String(err)}`, { cause: err });
  }
}

const SPECTRAL_SEVERITY = ['error', 'warning', 'info', 'hint'] as const;

async function spectral(file: string): Promise<Finding[]> {
  const out = await output('spectral', [
    'lint',
    file,
    '--ruleset',
    path.join(ROOT, '.spectral.yaml'),
    '--format',
    'json',
    '--quiet',
    '--fail-severity=warn',
  ]);
  const results = JSON.parse(out.trim() === '' ? '[]' : out) as {
    code: string;
    message: string;
    severity: number;
    path: string[];
  }[];
  return results.map((r) => ({
    tool: 'spectral',
    severity: SPECTRAL_SEVERITY[r.severity] ?? 'error',
    rule: r.code,
    message: r.message,
    where: r.path.join('.'),
  }));
}

async function redocly(file: string): Promise<Finding[]> {
  const out = await output('redocly', [
    'lint',
    file,
    '--config',
    path.join(ROOT, 'redocly.yaml'),
    '--format',
    'json',
  ]);
  const { problems } = JSON.parse(out) as {
    problems: {
      ruleId: string;
      severity: 'error' | 'warn';
      message: string;
      location: { pointer?: string }[];
    }[];
  };
  return problems.map((p) => ({
    tool: 'redocly',
    severity: p.severity === 'warn' ? 'warning' : 'error',
    rule: p.ruleId,
    message: p.message,
    where: p.location[0]?.pointer ?? '',
  }));
}

/** Lint `file`, or the document generated fresh from the contract. */
export async function lintOpenApi(file?: string): Promise<LintReport> {
  let dir: string | undefined;
  try {
    if (file === undefined) {
      dir = await mkdtemp(path.join(tmpdir(), 'coldtrace-openapi-'));
      file = path.join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(await openApiDocument(), null, 2));
    }
    const [s, r] = await Promise.all([spectral(file), redocly(file)]);
    return {
      spectral: s,
      redocly: r,
      ok: s.length === 0 && !r.some((f) => f.severity === 'error'),
    };
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

function summary(tool: string, findings: Finding[]): string {
  const count = (severity: Finding['severity']) =>
    findings.filter((f) => f.severity === severity).length;
  return `${tool}: ${count('error')} errors, ${count('warning')} warnings`;
}

async function main(): Promise<void> {
  const file = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
  const report = await lintOpenApi(file);
  for (const f of [...report.spectral, ...report.redocly]) {
    process.stdout.write(`${f.tool} ${f.severity} ${f.rule}: ${f.message} (${f.where})\n`);
  }
  process.stdout.write(
    `${file ? path.relative(process.cwd(), file) : 'the document generated from the contract'}\n` +
      `${summary('Spectral (spectral:oas, no warning allowed)', report.spectral)}\n` +
      `${summary('Redocly (recommended, no error allowed)', report.redocly)}\n`,
  );
  process.exitCode = report.ok ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await main();
}
