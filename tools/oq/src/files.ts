import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { reportPdf } from './report-pdf';
import {
  buildReport,
  reportBytes,
  reportHtml,
  signingKey,
  signReport,
  verifyReport,
  type OqReport,
  type ReportSignature,
} from './report';
import type { OqResult } from './suite';

export const REPORT_FILES = {
  json: 'oq-report.json',
  signature: 'oq-report.sig.json',
  html: 'oq-report.html',
  pdf: 'oq-report.pdf',
} as const;

/** The version of the suite: the repository's (package.json at its root). */
export function suiteVersion(): string {
  const manifest = path.resolve(import.meta.dirname, '../../../package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version ?? 'unknown';
}

/** Writes the four report files into `dir`; answers the report and its signature. */
export async function writeReportFiles(
  dir: string,
  result: OqResult,
  options: { operatorLabel?: string; signingKeyPem?: string },
): Promise<{ report: OqReport; signature: ReportSignature; files: string[] }> {
  mkdirSync(dir, { recursive: true });
  const report = buildReport(result, {
    operatorLabel: options.operatorLabel,
    suiteVersion: suiteVersion(),
  });
  const bytes = reportBytes(report);
  const { key, source } = signingKey(options.signingKeyPem);
  const signature = signReport(bytes, REPORT_FILES.json, key, source);
  const files = Object.values(REPORT_FILES).map((f) => path.join(dir, f));
  writeFileSync(path.join(dir, REPORT_FILES.json), bytes);
  writeFileSync(path.join(dir, REPORT_FILES.signature), `${JSON.stringify(signature, null, 2)}\n`);
  writeFileSync(path.join(dir, REPORT_FILES.html), reportHtml(report, signature));
  writeFileSync(path.join(dir, REPORT_FILES.pdf), await reportPdf(report, signature));
  return { report, signature, files };
}

/** Checks a written report against the signature file next to it; answers the problems. */
export function verifyReportFile(jsonFile: string, expectedFingerprint?: string): string[] {
  const signatureFile = path.join(path.dirname(jsonFile), REPORT_FILES.signature);
  if (!existsSync(signatureFile)) return [`no signature file ${signatureFile}`];
  const signature = JSON.parse(readFileSync(signatureFile, 'utf8')) as ReportSignature;
  return verifyReport(readFileSync(jsonFile), signature, expectedFingerprint);
}
