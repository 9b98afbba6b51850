import { z } from 'zod';
import { defineCall } from '../call';
import { ZClientType } from '../enums';
import { secondFactorCodeShape } from '../entities/second-factor';
import { zRowId } from '../ids';
import { SIGNATURE_PASSWORD_MAX_LENGTH, ZSignatureMeaning } from '../entities/alarms';
import {
  DISPOSITION_MEANINGS,
  TRANSIT_REASON_MAX_LENGTH,
  ZDispositionDecision,
  ZRecordDisposition,
} from '../entities/disposition';
import { ZRecord } from '../entities/records';
import type { TPermissionName } from '../permissions';

/**
 * The release decision of a record (issue 14 item 2; ours, beyond the spec).
 * Decisions: docs/decisions/disposition.md.
 */

/** Longest decision comment. */
export const DISPOSITION_COMMENT_MAX_LENGTH = 2000;

/**
 * Who may decide: whoever may edit reports (the decision is the report's
 * verdict). With the built-in roles: Managers and Administrators. Operators,
 * who may acknowledge alarms (sysReportCreate), may not release the goods:
 * the one who reviews the alarms is not alone in deciding.
 */
export const DISPOSITION_PERMISSION = 'sysReportEdit' satisfies TPermissionName;

/** Who may read the decisions: whoever may read the record. */
export const DISPOSITION_READ_PERMISSION = 'sysDataRead' satisfies TPermissionName;

export const ZDispositionUpload = z
  .object({
    record_id: zRowId(),
    decision: ZDispositionDecision,
    comment: z
      .string({ error: 'A comment is required' })
      .trim()
      .min(1, 'A comment is required')
      .max(
        DISPOSITION_COMMENT_MAX_LENGTH,
        `must be at most ${DISPOSITION_COMMENT_MAX_LENGTH} characters`,
      ),
    client_type: ZClientType.optional(),
    /**
     * Why the goods are released before the trip ended: required for RELEASED
     * while the trip has not ended (and only allowed then, with the organization's
     * allow_release_in_transit); ignored otherwise.
     */
    transit_reason: z
      .string()
      .trim()
      .max(TRANSIT_REASON_MAX_LENGTH, `must be at most ${TRANSIT_REASON_MAX_LENGTH} characters`)
      .optional()
      .describe(
        'Why the goods are released before the trip has ended (arrived, or the record stopped): ' +
          "required then, when the organization's allow_release_in_transit is on",
      ),
    /** The electronic signature: the signer's password, entered again. */
    password: z
      .string({ error: 'Enter your password to sign' })
      .min(1, 'Enter your password to sign')
      .max(
        SIGNATURE_PASSWORD_MAX_LENGTH,
        `must be at most ${SIGNATURE_PASSWORD_MAX_LENGTH} characters`,
      ),
    meaning: ZSignatureMeaning.optional().describe(
      'Follows from the decision (RELEASED: APPROVED, QUARANTINED: REVIEWED, REJECTED: ' +
        'REJECTED); may be left out, and another is refused (400 naming meaning)',
    ),
    ...secondFactorCodeShape,
  })
  .superRefine((body, ctx) => {
    const expected = DISPOSITION_MEANINGS[body.decision];
    if (body.meaning !== undefined && body.meaning !== expected) {
      ctx.addIssue({
        code: 'custom',
        path: ['meaning'],
        message: `A ${body.decision} decision is signed with the meaning ${expected}`,
      });
    }
  })
  .meta({ id: 'DispositionUpload' });
export type TDispositionUpload = z.infer<typeof ZDispositionUpload>;

const XT1 = '/api/devices/xt1/';

export const xt1RecordDisposition = defineCall({
  operationId: 'xt1RecordDisposition',
  method: 'POST',
  path: `${XT1}records/disposition/`,
  summary: 'Sign a release decision for a record; answers the record as it is now',
  description:
    'decision RELEASED, QUARANTINED or REJECTED, with a comment and an electronic signature ' +
    '(the re-entered password; a wrong password: 400 naming password, repeated failures ' +
    'throttled like sign-in). The signature means what the decision is: RELEASED APPROVED, ' +
    'QUARANTINED REVIEWED, REJECTED REJECTED (meaning may be left out; another is a 400). ' +
    'RELEASED is refused (409 naming decision) while any alarm of the record is unacknowledged ' +
    '(dismissed alarms do not count), and while its trip has not ended (not ARRIVED and the ' +
    "record not stopped) unless the organization's allow_release_in_transit is on and a " +
    'transit_reason is given. A decision is never ' +
    'edited: a later signed decision supersedes it, and every one stays in the history. ' +
    `Needs ${DISPOSITION_PERMISSION}; not open to API keys (a key never signs).`,
  tag: 'xt1',
  auth: 'session',
  scope: 'organization',
  permission: DISPOSITION_PERMISSION,
  body: ZDispositionUpload,
  reply: ZRecord,
});

export const xt1RecordDispositions = defineCall({
  operationId: 'xt1RecordDispositions',
  method: 'GET',
  path: `${XT1}records/dispositions/`,
  summary: "A record's signed release decisions, newest first (the first is the current one)",
  tag: 'xt1',
  auth: 'session',
  scope: 'organization',
  permission: DISPOSITION_READ_PERMISSION,
  query: z.object({ record_id: zRowId() }),
  reply: z.array(ZRecordDisposition),
});

export const dispositionCalls = [xt1RecordDisposition, xt1RecordDispositions] as const;
