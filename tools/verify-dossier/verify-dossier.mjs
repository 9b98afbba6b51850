#!/usr/bin/env node
// Verifies a Coldtrace shipment dossier without the server (issue 37 item 2;
// the format: docs/dossier.md). Plain Node (20.19 or later), no dependencies:
// copy this one file anywhere and run
//
//   node verify-dossier.mjs <dossier.zip> [--key <public key, base64>] [--json]
//
// It checks that the manifest is signed by the key it names (and by --key when
// given: the organization's key from GET /api/evidence/key/?organization_id=…),
// that every file is the one the manifest lists, that the record's evidence
// chain links entry to entry up to the signed head, that every row hashes to
// its last chained version, that the last anchor (signed by the server) holds
// an entry of the chain, and that the readable files (series, record, alarms,
// signatures, decisions, trail) say what the hashed rows say. It prints each
// problem found, and exits 0 when there is none, 1 when there is one, 2 when it
// cannot read its arguments.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { crc32, inflateRawSync } from 'node:zlib';

export const FORMAT = 'coldtrace-dossier';
export const VERSION = 1;
/** Points per stored series chunk (the server's SERIES_CHUNK_SIZE). */
export const CHUNK_SIZE = 1024;

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

// ---------------------------------------------------------------- the zip

/** A problem of the zip itself, naming the member it is in ('(zip)' for the whole file). */
class ZipError extends Error {
  constructor(file, message) {
    super(message);
    this.file = file;
  }
}

/** The files of a zip (stored or deflated, no ZIP64): name → bytes. */
export function readZip(buffer) {
  const eocd = buffer.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || eocd + 22 > buffer.length) throw new ZipError('(zip)', 'is not a zip file');
  const count = buffer.readUInt16LE(eocd + 10);
  let at = buffer.readUInt32LE(eocd + 16);
  const files = new Map();
  for (let i = 0; i < count; i++) {
    if (at + 46 > buffer.length || buffer.readUInt32LE(at) !== 0x02014b50) {
      throw new ZipError('(zip)', 'its directory is damaged');
    }
    const method = buffer.readUInt16LE(at + 10);
    const crc = buffer.readUInt32LE(at + 16);
    const compressed = buffer.readUInt32LE(at + 20);
    const nameLength = buffer.readUInt16LE(at + 28);
    const extraLength = buffer.readUInt16LE(at + 30);
    const commentLength = buffer.readUInt16LE(at + 32);
    const local = buffer.readUInt32LE(at + 42);
    const name = buffer.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (local + 30 > buffer.length || buffer.readUInt32LE(local) !== 0x04034b50) {
      throw new ZipError(name, 'its entry in the zip is damaged');
    }
    const start = local + 30 + buffer.readUInt16LE(local + 26) + buffer.readUInt16LE(local + 28);
    const raw = buffer.subarray(start, start + compressed);
    let bytes;
    if (method === 0) bytes = raw;
    else if (method === 8) {
      try {
        bytes = inflateRawSync(raw);
      } catch {
        throw new ZipError(name, 'its compressed bytes are damaged');
      }
    } else throw new ZipError(name, `compression method ${method} is not one a dossier uses`);
    if (crc32(bytes) !== crc) throw new ZipError(name, "its bytes do not match the zip's checksum");
    files.set(name, bytes);
  }
  return files;
}

// ---------------------------------------------------------------- the chain

/** An entry's hash: SHA-256 of the previous hash and the entry's fields (the server's chain.ts). */
export function entryHash(previousHashHex, e) {
  const fields = [
    e.chain,
    String(e.seq),
    e.organizationId,
    e.source,
    e.rowKey,
    e.op,
    e.occurredMicros,
    String(e.contentVersion),
    e.digestHex ?? '',
  ].join('\n');
  return createHash('sha256')
    .update(Buffer.from(previousHashHex ?? '', 'hex'))
    .update(fields, 'utf8')
    .digest('hex');
}

function keyIdOf(publicKey) {
  return sha256(Buffer.from(publicKey, 'base64')).slice(0, 16);
}

function signatureValid(publicKey, bytes, signature) {
  try {
    const key = createPublicKey({
      key: Buffer.from(publicKey, 'base64'),
      format: 'der',
      type: 'spki',
    });
    return verify(null, bytes, key, Buffer.from(signature.trim(), 'base64'));
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- comparing

/** `{1.5,NULL,2}` (PostgreSQL's text of a real[]) as numbers and nulls. */
function arrayValues(text) {
  const inner = text.replace(/^\{|\}$/g, '');
  if (inner === '') return [];
  return inner.split(',').map((v) => (v === 'NULL' ? null : Number(v)));
}

/** Equal to the API's precision: it rounds temperatures and what is computed from them to 4 decimals. */
const sameNumber = (a, b) => Math.abs(a - b) <= 0.00005 + 1e-9 * Math.max(1, Math.abs(a));
const ISO_TIME = /^\d{4}-\d\d-\d\dT/;

/**
 * The fields a readable file shares with its hashed row (same name, both plain
 * values; times are microseconds in the row and text in the file, compared as
 * instants) that differ.
 */
function differingFields(row, shown) {
  const out = [];
  for (const [field, value] of Object.entries(row)) {
    if (!(field in shown)) continue;
    const other = shown[field];
    if (value === null || other === null || other === undefined) {
      if ((value ?? null) !== (other ?? null)) out.push(field);
    } else if (typeof value === 'number' && typeof other === 'string' && ISO_TIME.test(other)) {
      if (Math.floor(value / 1000) !== Date.parse(other)) out.push(field);
    } else if (typeof value === 'number' && typeof other === 'string') {
      // Ids: numbers in the row, text in the API.
      if (String(value) !== other) out.push(field);
    } else if (typeof value === 'number' && typeof other === 'number') {
      if (!sameNumber(value, other)) out.push(field);
    } else if (typeof value !== 'object' && typeof other !== 'object' && value !== other) {
      out.push(field);
    }
  }
  return out;
}

// ---------------------------------------------------------------- the checks

/**
 * Verifies a dossier's bytes. Answers `{ ok, facts, problems }`: facts are what
 * it established (the signer's key id, the head, counts), problems each thing
 * that does not match, named by file.
 */
export function verifyDossier(bytes, { key } = {}) {
  const problems = [];
  const facts = {};
  const problem = (file, message) => problems.push({ file, message });
  let files;
  try {
    files = readZip(bytes);
  } catch (error) {
    if (!(error instanceof ZipError)) throw error;
    problem(error.file, error.message);
    return { ok: false, facts, problems };
  }
  const manifestBytes = files.get('manifest.json');
  const signature = files.get('manifest.sig');
  if (!manifestBytes || !signature) {
    problem('manifest.json', 'the dossier has no manifest.json or no manifest.sig');
    return { ok: false, facts, problems };
  }
  let manifest;
  try {
    manifest = JSON.parse(manifestBytes.toString('utf8'));
  } catch {
    problem('manifest.json', 'is not JSON');
    return { ok: false, facts, problems };
  }
  if (manifest.format !== FORMAT || manifest.version !== VERSION) {
    problem('manifest.json', `is not a ${FORMAT} of version ${VERSION}`);
    return { ok: false, facts, problems };
  }
  facts.record_id = manifest.record_id;
  facts.organization = manifest.organization;
  facts.generated_at = manifest.generated_at;
  facts.signer_key_id = manifest.signer?.key_id;

  // The signature, by the key the manifest names, and that key the one expected.
  const publicKey = manifest.signer?.public_key ?? '';
  if (!signatureValid(publicKey, manifestBytes, signature.toString('utf8'))) {
    problem('manifest.sig', 'is not the signature of manifest.json by the key it names');
  }
  if (keyIdOf(publicKey) !== manifest.signer?.key_id) {
    problem('manifest.json', "the signer's key id is not its key's");
  }
  if (key !== undefined && key.trim() !== publicKey) {
    problem('manifest.json', `is signed by key ${keyIdOf(publicKey)}, not by the key given`);
  }

  // Every file as listed, and nothing else.
  const listed = new Set(['manifest.json', 'manifest.sig']);
  for (const { path, bytes: size, sha256: digest } of manifest.files ?? []) {
    listed.add(path);
    const content = files.get(path);
    if (!content) problem(path, 'is listed in the manifest but missing');
    else if (content.length !== size || sha256(content) !== digest) {
      problem(path, 'is not the file the manifest lists (its SHA-256 differs)');
    }
  }
  for (const name of files.keys()) {
    if (!listed.has(name)) problem(name, 'is in the dossier but not in the manifest');
  }
  const readJson = (path) => {
    try {
      return JSON.parse(files.get(path)?.toString('utf8') ?? 'null');
    } catch {
      problem(path, 'is not JSON');
      return null;
    }
  };
  const chain = readJson('evidence/chain.json') ?? [];
  const rows = readJson('evidence/rows.json') ?? [];
  checkChain(chain, manifest, problem, facts);
  const current = checkRows(chain, rows, problem);
  checkAnchor(readJson('evidence/anchor.json'), chain, manifest, problem, facts);
  checkReadable(files, readJson, current, problem);
  return { ok: problems.length === 0, facts, problems };
}

function checkChain(chain, manifest, problem, facts) {
  const file = 'evidence/chain.json';
  let previous = null;
  chain.forEach((entry, i) => {
    if (entry.chain !== manifest.evidence?.chain) {
      problem(file, `entry ${entry.seq} belongs to ${entry.chain}, not to the record's chain`);
    }
    if (entry.seq !== i + 1) problem(file, `entry ${i + 1} is missing (found ${entry.seq})`);
    if (entryHash(previous, entry) !== entry.hashHex) {
      problem(
        file,
        `entry ${entry.seq} (${entry.source} ${entry.rowKey}) does not hash to its hash`,
      );
    }
    if (entry.contentText !== null && sha256(Buffer.from(entry.contentText)) !== entry.digestHex) {
      problem(file, `the kept version in entry ${entry.seq} is not the one its digest names`);
    }
    previous = entry.hashHex;
  });
  const head = chain.at(-1);
  const signed = manifest.evidence?.head ?? null;
  if (
    (head ? `${head.seq}:${head.hashHex}` : null) !==
    (signed ? `${signed.seq}:${signed.hash}` : null)
  ) {
    problem(file, 'does not end at the head the manifest signs');
  }
  facts.chain = manifest.evidence?.chain;
  facts.entries = chain.length;
  facts.head = signed;
}

/** Each row must hash to its row's last entry, and each row the chain holds must be there. */
function checkRows(chain, rows, problem) {
  const file = 'evidence/rows.json';
  const last = new Map();
  for (const e of chain) last.set(`${e.source} ${e.rowKey}`, e);
  const current = new Map();
  for (const row of rows) {
    const id = `${row.source} ${row.key}`;
    const entry = last.get(id);
    if (!entry) problem(file, `${id} has no entry in the chain`);
    else if (entry.op === 'D') problem(file, `${id} was removed (entry ${entry.seq}) but is here`);
    else if (sha256(Buffer.from(row.content)) !== entry.digestHex) {
      problem(file, `${id} is not the version of entry ${entry.seq} (its digest differs)`);
    }
    try {
      current.set(id, { ...row, value: JSON.parse(row.content) });
    } catch {
      problem(file, `${id}: its content is not JSON`);
    }
  }
  for (const [id, entry] of last) {
    if (entry.op !== 'D' && !current.has(id)) {
      problem(file, `${id} is missing (entry ${entry.seq} holds it)`);
    }
  }
  return [...current.values()];
}

function checkAnchor(anchor, chain, manifest, problem, facts) {
  const file = 'evidence/anchor.json';
  if (anchor === null) {
    facts.anchor = null;
    return;
  }
  if (!signatureValid(anchor.public_key, Buffer.from(anchor.payload, 'utf8'), anchor.signature)) {
    problem(file, 'its signature does not match its content');
    return;
  }
  const payload = JSON.parse(anchor.payload);
  const head = (payload.heads ?? []).find(([c]) => c === manifest.evidence?.chain);
  const entry = head ? chain.find((e) => e.seq === head[1]) : undefined;
  if (!head) problem(file, 'signs no head of the record chain');
  else if (!entry || entry.hashHex !== head[2]) {
    problem(file, `entry ${head[1]}, which the anchor signed, is not in the chain as signed`);
  }
  facts.anchor = {
    anchored_at: payload.anchored_at,
    server_key_id: keyIdOf(anchor.public_key),
    seq: head?.[1] ?? null,
  };
}

/** The readable files against the hashed rows they come from. */
function checkReadable(files, readJson, rows, problem) {
  const of = (source) => rows.filter((r) => r.source === source);
  // The series, point by point, against the chunks.
  const stored = [];
  for (const { value } of of('record_series_chunks')) {
    arrayValues(value.temps).forEach((v, j) => (stored[value.chunk_no * CHUNK_SIZE + j] = v));
  }
  const lines = (files.get('series.csv')?.toString('utf8') ?? '').trim().split('\n').slice(1);
  const shown = lines.filter((l) => l !== '').map((l) => l.split(','));
  const length = Math.max(stored.length, shown.length);
  let differing = 0;
  let first = null;
  for (let i = 0; i < length; i++) {
    const text = shown[i]?.[2];
    const a = text === undefined || text === '' ? null : Number(text);
    const b = stored[i] ?? null;
    if (a === null ? b !== null : b === null || !sameNumber(a, b)) {
      differing++;
      first ??= i;
    }
  }
  if (differing > 0) {
    problem(
      'series.csv',
      `${differing} readings differ from the stored series (the first at index ${first})`,
    );
  }
  const record = readJson('record.json') ?? {};
  const [summary] = of('records');
  if (!summary) problem('evidence/rows.json', "has no row of the record's summary");
  else {
    const fields = differingFields(summary.value, record);
    if (fields.length > 0)
      problem('record.json', `differs from the stored record: ${fields.join(', ')}`);
  }
  const alarms = readJson('alarms.json') ?? [];
  const alarmRows = new Map(of('alarms').map((r) => [String(r.value.id), r.value]));
  if (alarms.length !== alarmRows.size) {
    problem('alarms.json', `lists ${alarms.length} alarms, the stored rows ${alarmRows.size}`);
  }
  const signatures = of('alarm_signatures').map((r) => r.value);
  for (const alarm of alarms) {
    const row = alarmRows.get(String(alarm.id));
    const fields = row ? differingFields(row, alarm) : ['(no stored row)'];
    if (fields.length > 0)
      problem('alarms.json', `alarm ${alarm.id} differs: ${fields.join(', ')}`);
    for (const s of [alarm.signature, alarm.close_signature].filter(Boolean)) {
      const match = signatures.some(
        (r) =>
          String(r.alarm_id) === String(alarm.id) &&
          r.printed_name === s.printed_name &&
          r.meaning === s.meaning &&
          Math.floor(r.signed_at / 1000) === Date.parse(s.signed_at),
      );
      if (!match) problem('alarms.json', `a signature of alarm ${alarm.id} is not a stored one`);
    }
  }
  const decisions = JSON.stringify(readJson('decisions.json'));
  if (decisions !== JSON.stringify(of('record_dispositions').map((r) => r.value))) {
    problem('decisions.json', 'differs from the stored release decisions');
  }
  const audit = readJson('audit.json') ?? [];
  const actions = (list) => [...list].sort().join('\n');
  if (
    actions(audit.map((a) => a.action)) !== actions(of('audit_events').map((r) => r.value.action))
  ) {
    problem('audit.json', 'differs from the stored trail about the record');
  }
}

// ---------------------------------------------------------------- the command

function main(argv) {
  const args = argv.slice(2);
  const json = args.includes('--json');
  const keyAt = args.indexOf('--key');
  const key = keyAt >= 0 ? args[keyAt + 1] : undefined;
  const file = args.find((a, i) => !a.startsWith('--') && (keyAt < 0 || i !== keyAt + 1));
  if (!file || (keyAt >= 0 && !key)) {
    process.stderr.write('usage: verify-dossier <dossier.zip> [--key <public key>] [--json]\n');
    return 2;
  }
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    process.stderr.write(`cannot read ${file}: ${error.message}\n`);
    return 2;
  }
  const result = verifyDossier(bytes, { key });
  if (json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    const f = result.facts;
    const out = [`Dossier of record ${f.record_id ?? '?'} (${f.organization?.name ?? '?'})`];
    if (f.signer_key_id) out.push(`  signed by key ${f.signer_key_id} on ${f.generated_at}`);
    if (f.head) out.push(`  ${f.chain}: ${f.entries} entries, head ${f.head.seq} ${f.head.hash}`);
    if (f.anchor) {
      out.push(
        `  anchored ${f.anchor.anchored_at} (entry ${f.anchor.seq}) by server key ${f.anchor.server_key_id}`,
      );
    }
    if (key === undefined && f.signer_key_id) {
      out.push(
        '  Compare the key id with GET /api/evidence/key/?organization_id=' +
          `${f.organization?.id ?? '…'} on the server, or pass --key.`,
      );
    }
    for (const p of result.problems) out.push(`NOT VERIFIED  ${p.file}: ${p.message}`);
    const verified =
      key === undefined
        ? `VERIFIED: every file is as key ${f.signer_key_id} signed it.`
        : "VERIFIED: every file is as the organization's key signed it.";
    out.push(result.ok ? verified : `${result.problems.length} problem(s): NOT VERIFIED.`);
    process.stdout.write(`${out.join('\n')}\n`);
  }
  return result.ok ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv);
}
