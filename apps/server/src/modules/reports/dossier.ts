import { strToU8, zipSync, type Zippable } from 'fflate';
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  lastAnchorNaming,
  readChain,
  recordEvidenceRows,
  signText,
  type ChainEntry,
  type EvidenceRow,
  type SigningKey,
  type StoredAnchor,
} from '../evidence';
import { pointMs, type ReportData, type ReportSignature } from './report-model';
import { renderPdf } from './render-pdf';

/**
 * The shipment dossier (issue 37 item 2; format in docs/dossier.md): one zip
 * of a record's whole evidence (the series, every alarm with each of its
 * versions, the signatures, the release decisions, the stability budget, the
 * calibration, the trail about it, the PDF report) with the record's evidence
 * chain and the rows as they are hashed, and a manifest of every file's
 * SHA-256 signed with the organization's Ed25519 key. `tools/verify-dossier`
 * checks it without the server.
 */

export const DOSSIER_FORMAT = 'coldtrace-dossier';
export const DOSSIER_VERSION = 1;

/** What the dossier carries of the evidence chain, read in the same snapshot as the rest. */
export interface DossierEvidence {
  chain: ChainEntry[];
  rows: EvidenceRow[];
  anchor: StoredAnchor | null;
}

export async function readDossierEvidence(
  db: Db,
  organizationId: string,
  recordId: number,
): Promise<DossierEvidence> {
  // Floats as the triggers print them, so that each row's content hashes to its digest.
  await db.execute(sql`SET LOCAL extra_float_digits = 1`);
  const chain = `record:${recordId}`;
  return {
    chain: await readChain(db, chain),
    rows: await recordEvidenceRows(db, organizationId, recordId),
    anchor: await lastAnchorNaming(db, organizationId, chain),
  };
}

export interface DossierInput {
  data: ReportData;
  evidence: DossierEvidence;
  organizationId: string;
  /** The organization's key (organizationKeyFrom), which signs the manifest. */
  key: SigningKey;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** `index,time_utc,temperature_c`: every point as stored (°C, empty for a gap). */
function seriesCsv(data: ReportData): string {
  const lines = ['index,time_utc,temperature_c'];
  data.temps.forEach((t, i) => {
    const ms = pointMs(data.timing, i);
    lines.push(`${i},${ms === null ? '' : new Date(ms).toISOString()},${t ?? ''}`);
  });
  return `${lines.join('\n')}\n`;
}

/** Each alarm as the API gives it, with every version the chain kept of it (oldest first). */
function alarmsWithVersions(data: ReportData, chain: readonly ChainEntry[]) {
  const versions = new Map<string, { seq: number; at: string; op: string; content: unknown }[]>();
  for (const e of chain) {
    if (e.source !== 'alarms') continue;
    const list = versions.get(e.rowKey) ?? [];
    list.push({
      seq: e.seq,
      at: new Date(Number(BigInt(e.occurredMicros) / 1000n)).toISOString(),
      op: e.op,
      content: e.contentText === null ? null : JSON.parse(e.contentText),
    });
    versions.set(e.rowKey, list);
  }
  return data.alarms.map(({ signature, closeSignature, ...a }) => ({
    ...a,
    signature: signatureJson(signature),
    close_signature: signatureJson(closeSignature),
    versions: versions.get(String(a.id)) ?? [],
  }));
}

/** A signature as the API gives it (contract `AlarmSignature`). */
const signatureJson = (s: ReportSignature | null | undefined) =>
  s
    ? {
        printed_name: s.printedName,
        signed_at: s.signedAt?.toISOString() ?? null,
        meaning: s.meaning,
        comment: s.comment,
      }
    : null;

const contentsOf = (rows: readonly EvidenceRow[], source: EvidenceRow['source']) =>
  rows.filter((r) => r.source === source).map((r) => JSON.parse(r.content) as unknown);

/** The certificate in force at the start, and how many readings fall after its due date. */
function calibration(data: ReportData) {
  const { record } = data;
  const dueMs = record.calibration_due ? Date.parse(record.calibration_due) : null;
  let readingsAfterDue = 0;
  if (dueMs !== null) {
    data.temps.forEach((t, i) => {
      const ms = pointMs(data.timing, i);
      if (t !== null && ms !== null && ms > dueMs) readingsAfterDue++;
    });
  }
  return {
    tag_serial_number: record.tag_serial_number ?? null,
    calibration_state_at_start: record.calibration_state ?? null,
    calibration_due: record.calibration_due ?? null,
    calibration_warning: record.calibration_warning ?? null,
    certificate: record.tag_calibration ?? null,
    readings_after_due: readingsAfterDue,
  };
}

const README = `Coldtrace shipment dossier (format ${DOSSIER_FORMAT} ${DOSSIER_VERSION})

manifest.json   what is in this file: each file's size and SHA-256, the record's
                evidence chain head, and the key that signed it
manifest.sig    the Ed25519 signature of manifest.json (base64)
record.json     the record as the API gives it
series.csv      every reading: index, time (UTC), temperature (degrees Celsius)
alarms.json     every alarm, its signatures, and each version the chain kept
decisions.json  every release decision, oldest first
stability-budget.json, calibration.json, audit.json
report.pdf      the PDF report
evidence/       the record's evidence chain, its rows as hashed, the last anchor

Verify it without the server:  node tools/verify-dossier/verify-dossier.mjs <this file>
(from the Coldtrace repository; no dependencies). Compare the key id it prints
with GET /api/evidence/key/?organization_id=<the organization's id>.
Format: docs/dossier.md.
`;

export async function renderDossier({
  data,
  evidence,
  organizationId,
  key,
}: DossierInput): Promise<Buffer> {
  const files: Record<string, Uint8Array> = {
    'README.txt': strToU8(README),
    'record.json': strToU8(json(data.record)),
    'series.csv': strToU8(seriesCsv(data)),
    'alarms.json': strToU8(json(alarmsWithVersions(data, evidence.chain))),
    'decisions.json': strToU8(json(contentsOf(evidence.rows, 'record_dispositions'))),
    'stability-budget.json': strToU8(json(data.record.stability_budget ?? null)),
    'calibration.json': strToU8(json(calibration(data))),
    'audit.json': strToU8(json(data.audit)),
    'report.pdf': new Uint8Array(await renderPdf(data)),
    'evidence/chain.json': strToU8(json(evidence.chain)),
    'evidence/rows.json': strToU8(json(evidence.rows)),
    'evidence/anchor.json': strToU8(json(evidence.anchor)),
  };
  const head = evidence.chain.at(-1);
  const manifest = json({
    format: DOSSIER_FORMAT,
    version: DOSSIER_VERSION,
    record_id: data.record.id,
    organization: { id: organizationId, name: data.organizationName },
    generated_at: data.generatedAt.toISOString(),
    generated_by: data.generatedBy,
    signer: {
      algorithm: 'Ed25519',
      public_key: key.publicKey,
      key_id: key.keyId,
      published_at: `/api/evidence/key/?organization_id=${organizationId}`,
    },
    evidence: {
      chain: `record:${data.record.id}`,
      head: head ? { seq: head.seq, hash: head.hashHex } : null,
    },
    files: Object.entries(files).map(([path, bytes]) => ({
      path,
      bytes: bytes.length,
      sha256: sha256(bytes),
    })),
  });
  const mtime = data.generatedAt;
  const zippable: Zippable = {
    'manifest.json': [strToU8(manifest), { mtime }],
    'manifest.sig': [strToU8(`${signText(key, manifest)}\n`), { mtime }],
  };
  for (const [path, bytes] of Object.entries(files)) {
    // The PDF is compressed already.
    zippable[path] = [bytes, { mtime, level: path.endsWith('.pdf') ? 0 : 6 }];
  }
  return Buffer.from(zipSync(zippable));
}
