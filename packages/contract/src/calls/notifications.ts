import { z } from 'zod';
import { zRowId } from '../ids';
import { defineCall, DOWNLOAD_MEDIA_TYPES, fileReply } from '../call';
import { ZNotification } from '../entities/alarms';
import { ZEvidenceKey, ZEvidenceVerification } from '../entities/evidence';
import { MAX_PAGE_NUMBER, MAX_PAGE_SIZE, zQueryInt } from './devices-query';

/**
 * The notifications bell (spec sections 2 and 7: GET notifications/) and the
 * audit trail (ours: domain rules section 6). Decisions:
 * docs/decisions/notifications.md.
 */

const paging = {
  page_number: zQueryInt(1, MAX_PAGE_NUMBER)
    .optional()
    .meta({ description: '1-based page number (default 1)' }),
  page_size: zQueryInt(1, MAX_PAGE_SIZE)
    .optional()
    .meta({ description: `Rows per page, 1 to ${MAX_PAGE_SIZE} (default 20)` }),
};
const zRecordId = zRowId();

export const xt1Notifications = defineCall({
  operationId: 'xt1Notifications',
  method: 'GET',
  path: '/api/devices/xt1/notifications/',
  summary: "The session user's notifications not yet dismissed, newest first, paged",
  description:
    'A notification is an alarm-type item carrying record_id: the alarm (id is the alarm id) ' +
    'that raised it, with occurred_at (when the alarm happened), primary_reference and reference ' +
    '(the primary reference, else the record id). Newest first: by occurred_at, then by alarm id. ' +
    'Acknowledging an alarm clears its notifications for everyone. Paged: page_number is 1-based, page_size 1..1000 (default 20); the total ' +
    'is in the x-total-count header. Needs notifyReceive.',
  tag: 'xt1',
  auth: 'session',
  scope: 'organization',
  permission: 'notifyReceive',
  query: z.object({ ...paging, record_id: zRecordId.optional() }),
  reply: z.array(ZNotification),
});

/** One entry of the audit trail: who, when (UTC), what, old value, new value, why. */
export const ZAuditEvent = z
  .object({
    id: z.string(),
    occurred_at: z.string(),
    actor_user_id: z.string().nullable(),
    actor_name: z.string(),
    client_type: z.string().nullable(),
    action: z.string(),
    entity_type: z.string(),
    entity_id: z.string(),
    record_id: z.string().nullable(),
    field: z.string().nullable(),
    old_value: z.unknown(),
    new_value: z.unknown(),
    reason: z.string().nullable(),
  })
  .meta({ id: 'AuditEvent' });
export type TAuditEvent = z.infer<typeof ZAuditEvent>;

const auditFilter = {
  record_id: zRecordId.optional().meta({ description: 'Only entries about this record' }),
  entity: z
    .string()
    .trim()
    .regex(/^[a-z_.]{1,40}$/, 'must be an entity type such as alarm or record')
    .optional()
    .meta({ description: 'Only entries about this entity type (alarm, record, product, ...)' }),
};

export const auditList = defineCall({
  operationId: 'auditList',
  method: 'GET',
  path: '/api/audit/',
  summary: "The organization's audit trail, newest first, paged",
  description:
    'Paged: page_number is 1-based, page_size 1..1000 (default 20); the total is in the ' +
    'x-total-count header. A record of another organization answers 404. Needs sysDataRead.',
  tag: 'audit',
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  permission: 'sysDataRead',
  query: z.object({ ...paging, ...auditFilter }),
  reply: z.array(ZAuditEvent),
});

export const auditCsv = defineCall({
  operationId: 'auditCsv',
  method: 'GET',
  path: '/api/audit/csv/',
  summary: 'The audit trail as CSV (same filters, every matching entry, oldest first)',
  description:
    'Cells starting with =, +, -, @, tab or carriage return are prefixed with an apostrophe. ' +
    'Needs sysDataRead.',
  tag: 'audit',
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  permission: 'sysDataRead',
  query: z.object(auditFilter),
  reply: fileReply(DOWNLOAD_MEDIA_TYPES.csv, 'The CSV file (UTF-8 with a byte order mark)'),
  download: DOWNLOAD_MEDIA_TYPES.csv,
});

export const auditVerify = defineCall({
  operationId: 'auditVerify',
  method: 'GET',
  path: '/api/audit/verify/',
  summary: "Verify the organization's evidence chain and name the first broken link",
  description:
    'Walks every chain of the organization (its audit trail, signatures, release decisions, and ' +
    "each record's summary, series and alarm versions), recomputes each entry's hash, and " +
    'compares every evidence row with its last chained version. Costs what the organization has ' +
    'stored: meant for audits, not for polling. Needs sysAdminUser.',
  tag: 'audit',
  auth: 'session',
  scope: 'organization',
  permission: 'sysAdminUser',
  reply: ZEvidenceVerification,
});

export const evidenceKey = defineCall({
  operationId: 'evidenceKey',
  method: 'GET',
  path: '/api/evidence/key/',
  summary: "The server's public key (its anchors) or an organization's (its dossiers)",
  description:
    'Ed25519, as SubjectPublicKeyInfo DER in base64 (PEM without its armour). Without ' +
    "organization_id: the server's key, which signs the evidence anchors. With it: that " +
    "organization's key, which signs its shipment dossiers (derived from the server's secret " +
    'for any id, so the answer says nothing of which organizations exist). Anyone may read it: ' +
    'a verifier compares it with the key a signed anchor or dossier carries.',
  tag: 'audit',
  auth: 'public',
  query: z.object({
    organization_id: z.uuid('must be an organization id (a UUID)').optional(),
  }),
  reply: ZEvidenceKey,
});

export const notificationCalls = [
  xt1Notifications,
  auditList,
  auditCsv,
  auditVerify,
  evidenceKey,
] as const;
