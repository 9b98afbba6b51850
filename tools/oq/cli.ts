/**
 * npm run oq -- --base-url <url> --admin <e-mail> [options]: the operational
 * qualification (OQ) of a running Coldtrace instance, through its public API.
 * See --help and docs/oq.md.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPORT_FILES, verifyReportFile, writeReportFiles } from './src/files';
import { readPassword } from './src/password';
import { runOq } from './src/suite';

const HELP = `Coldtrace OQ: the operational qualification of a running instance.

Usage: npm run oq -- --base-url <url> --admin <e-mail> [options]
       npm run oq -- --verify <folder>/oq-report.json [--key-fingerprint <hex>]

Signs in as a server administrator, creates a test organization named
"OQ test organization <time> (operational qualification; not for use)", a product
with a stability budget, and three scripted shipments with values worked out by
hand; reads every figure back through the API and compares it (excursions,
degree-minutes, MKT, cumulative alarms, trips, stability budget, signatures,
release refusals, the audit trail and the evidence chain). Nothing is deleted:
the organization stays, with its records and trail.

Writes oq-report.json (the record), oq-report.sig.json (its Ed25519 signature),
oq-report.html and oq-report.pdf. Exit status 0 when every check passed, 1 when
one failed, 2 for a usage or connection error.

Options:
  --base-url <url>         the instance, e.g. https://coldtrace.example.com
  --admin <e-mail>         a server administrator's e-mail or username; the password
                           comes from OQ_PASSWORD, else it is asked for (not echoed)
  --operator <text>        who runs the OQ, as the report names them
                           (default: the signed-in user's name and e-mail)
  --out <folder>           where the report goes (default ./oq-report-<time>)
  --signing-key <pem>      an Ed25519 private key (PKCS#8 PEM) to sign the report;
                           default: a key made for this run (its fingerprint is printed)
  --verify <json>          check a report against its signature file, then exit
  --key-fingerprint <hex>  with --verify: the key the report must be signed with
  -h, --help               this help
`;

function fail(message: string): never {
  process.stderr.write(`oq: ${message}\n(see npm run oq -- --help)\n`);
  process.exit(2);
}

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        'base-url': { type: 'string' },
        admin: { type: 'string' },
        operator: { type: 'string' },
        out: { type: 'string' },
        'signing-key': { type: 'string' },
        verify: { type: 'string' },
        'key-fingerprint': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowPositionals: false,
    });
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
})();

const log = (message: string) => process.stdout.write(`${message}\n`);

function verifyOnly(file: string): number {
  const problems = verifyReportFile(path.resolve(file), values['key-fingerprint']);
  if (problems.length === 0) {
    log(`${file}: the signature verifies`);
    return 0;
  }
  for (const p of problems) log(`${file}: ${p}`);
  return 1;
}

async function main(): Promise<number> {
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (values.verify !== undefined) return verifyOnly(values.verify);
  const baseUrl = values['base-url'] ?? fail('--base-url is required');
  if (!/^https?:\/\//.test(baseUrl))
    fail(`--base-url must start with http:// or https://, got '${baseUrl}'`);
  const admin = values.admin ?? fail('--admin is required');
  const signingKeyPem =
    values['signing-key'] === undefined ? undefined : readFileSync(values['signing-key'], 'utf8');
  const password = process.env.OQ_PASSWORD ?? (await readPassword(`Password of ${admin}: `));
  if (!password) fail('no password: set OQ_PASSWORD or type it when asked');

  const now = new Date();
  const out = path.resolve(
    values.out ?? `oq-report-${now.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`,
  );
  let result;
  try {
    result = await runOq({ baseUrl, email: admin, password, now, log });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    fail(
      `${cause ? `${cause} (is ${baseUrl} reachable?)` : err instanceof Error ? err.message : String(err)}`,
    );
  }
  const { report, signature } = await writeReportFiles(out, result, {
    operatorLabel: values.operator,
    signingKeyPem,
  });
  for (const c of report.checks.filter((x) => !x.pass)) {
    log(`FAIL ${c.id}: expected ${JSON.stringify(c.expected)}, got ${JSON.stringify(c.actual)}`);
  }
  log(`${report.result}: ${report.totals.passed} of ${report.totals.checks} checks passed`);
  log(`report: ${path.join(out, REPORT_FILES.pdf)} (and .json, .sig.json, .html)`);
  log(`SHA-256 of oq-report.json: ${signature.sha256}`);
  log(`signed with Ed25519 key ${signature.key_fingerprint} (${signature.key_source})`);
  log(`test organization left in place: ${report.organization.name}`);
  return report.result === 'PASS' ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(
      `oq: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(2);
  },
);
