import { z } from 'zod';
import { zRowId } from '../ids';
import { defineCall } from '../call';
import { secondFactorCodeShape } from '../entities/second-factor';
import { ZClientType } from '../enums';
import {
  CHANGE_REASON_MAX_LENGTH,
  SIGNATURE_PASSWORD_MAX_LENGTH as PASSWORD_MAX_LENGTH,
  ZExcursionAlarm,
  ZSignatureMeaning,
} from '../entities/alarms';
import type { TPermissionName } from '../permissions';

/**
 * What a person does with alarms (spec section 7, "xt1 devices"):
 * acknowledge (with a required comment) and dismiss. Both work in the
 * session's organization; another organization's ids answer 404.
 * Decisions: docs/decisions/alarm-actions.md.
 *
 * The bodies are the spec's "Acknowledgement request" and "Alarm dismissal
 * upload" (entities/alarms.ts), bounded: ids are decimal text, at most
 * {@link MAX_ALARM_ACTION_IDS} of each; the comment is trimmed, 1 to
 * {@link ALARM_COMMENT_MAX_LENGTH} characters.
 */

/** Longest acknowledgement comment. */
export const ALARM_COMMENT_MAX_LENGTH = 2000;
/** Most record ids, and most alarm ids, one call names. */
export const MAX_ALARM_ACTION_IDS = 1000;

/**
 * Who may dismiss their own notifications (`scope: NOTIFICATIONS`): whoever
 * receives them.
 */
export const NOTIFICATION_DISMISS_PERMISSION = 'notifyReceive' satisfies TPermissionName;

/**
 * What a dismissal dismisses: the alarms, for the organization (default), or
 * only the caller's own bell notifications of them (domain rules section 5).
 */
export const DISMISS_SCOPES = ['ORGANIZATION', 'NOTIFICATIONS'] as const;

/**
 * Who may acknowledge and dismiss alarms: acknowledgements and dismissals are
 * what the record's report states about its alarms (the alarm table of the
 * report), so whoever may create or edit reports. With the built-in roles:
 * Operators, Managers and Administrators; not Viewers.
 */
export const ALARM_ACTION_PERMISSIONS = [
  'sysReportCreate',
  'sysReportEdit',
] as const satisfies readonly TPermissionName[];

const zId = zRowId();
const zIds = z
  .array(zId)
  .min(1, 'must name at least one id')
  .max(MAX_ALARM_ACTION_IDS, `must name at most ${MAX_ALARM_ACTION_IDS} ids`);

interface Named {
  record_ids?: readonly string[] | undefined;
  alarm_ids?: readonly string[] | undefined;
}

/** The call names alarms (alarm_ids) or records (record_ids), or both. */
function checkNamesSomething(value: Named, ctx: z.core.$RefinementCtx): void {
  if (value.record_ids === undefined && value.alarm_ids === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['record_ids'],
      message: 'record_ids or alarm_ids is required',
      input: undefined,
    });
  }
}

/**
 * Acknowledgement request (spec section 3): comment and client_type are
 * required. alarm_ids names the alarms; without it, every unacknowledged
 * alarm of record_ids that still holds. With both, the alarms must belong to
 * those records. timestamp is the client's time; the acknowledgement is
 * stamped with the server's.
 */
export const ZAlarmAcknowledgeUpload = z
  .object({
    record_ids: zIds.optional(),
    alarm_ids: zIds.optional(),
    comment: z
      .string()
      .trim()
      .min(1, 'A comment is required')
      .max(ALARM_COMMENT_MAX_LENGTH, `must be at most ${ALARM_COMMENT_MAX_LENGTH} characters`),
    timestamp: z.iso.datetime({ offset: true }).optional(),
    client_type: ZClientType,
    /**
     * The electronic signature (ours, 21 CFR Part 11): the signer's password,
     * entered again, and what the signature means.
     */
    password: z
      .string({ error: 'Enter your password to sign' })
      .min(1, 'Enter your password to sign')
      .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`),
    meaning: ZSignatureMeaning,
    ...secondFactorCodeShape,
  })
  .superRefine(checkNamesSomething)
  .meta({ id: 'AlarmAcknowledgeUpload' });
export type TAlarmAcknowledgeUpload = z.infer<typeof ZAlarmAcknowledgeUpload>;

/**
 * Alarm dismissal upload (spec section 3): client_type (the web app sends
 * WEB) and record_ids; alarm_ids (ours) names single alarms. Without
 * alarm_ids, every alarm of record_ids that still holds is dismissed.
 * Dismissing for the organization needs a `reason` (ours: a dismissal is no
 * lighter than an acknowledgement); dismissing one's own notifications does not.
 */
export const ZAlarmDismissUpload = z
  .object({
    client_type: ZClientType.optional(),
    record_ids: zIds.optional(),
    alarm_ids: zIds.optional(),
    scope: z
      .enum(DISMISS_SCOPES)
      .optional()
      .meta({
        description:
          'ORGANIZATION (default): dismiss the alarms for everyone. NOTIFICATIONS: dismiss only ' +
          "the caller's bell notifications of them; the alarms stay.",
      }),
    reason: z
      .string()
      .trim()
      .min(1, 'A reason is required to dismiss alarms')
      .max(CHANGE_REASON_MAX_LENGTH, `must be at most ${CHANGE_REASON_MAX_LENGTH} characters`)
      .optional()
      .meta({ description: 'Why the alarms are dismissed: required with scope ORGANIZATION' }),
  })
  .superRefine(checkNamesSomething)
  .superRefine((value, ctx) => {
    if (value.scope !== 'NOTIFICATIONS' && value.reason === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['reason'],
        message: 'A reason is required to dismiss alarms',
        input: undefined,
      });
    }
  })
  .meta({ id: 'AlarmDismissUpload' });
export type TAlarmDismissUpload = z.infer<typeof ZAlarmDismissUpload>;

const XT1 = '/api/devices/xt1/';
const PERMISSION_NOTE = `Needs ${ALARM_ACTION_PERMISSIONS.join(' or ')}.`;

export const xt1AlarmAcknowledge = defineCall({
  operationId: 'xt1AlarmAcknowledge',
  method: 'POST',
  path: `${XT1}alarm-acknowledge/`,
  summary: 'Acknowledge alarms with an electronic signature; answers the alarms as they are now',
  description:
    'Stores who (the session user), when (server time, UTC), the comment and the client type, ' +
    'and a signature (printed name, time, meaning, comment) once the re-entered password is ' +
    'verified (a wrong one: 400 naming password; repeated failures are throttled like sign-in). ' +
    'An alarm already acknowledged keeps its first acknowledgement. Without alarm_ids, every ' +
    `unacknowledged alarm of record_ids that still holds is acknowledged. ${PERMISSION_NOTE}`,
  tag: 'xt1',
  auth: 'session',
  scope: 'organization',
  permission: ALARM_ACTION_PERMISSIONS,
  body: ZAlarmAcknowledgeUpload,
  reply: z.array(ZExcursionAlarm),
});

export const xt1AlarmDismiss = defineCall({
  operationId: 'xt1AlarmDismiss',
  method: 'POST',
  path: `${XT1}alarm-dismiss/`,
  summary: 'Dismiss alarms for the organization; answers the alarms as they are now',
  description:
    "Dismissed alarms leave the default alarm lists and no longer count in the record's " +
    'computed_status (recomputed here). An alarm already dismissed keeps its first dismissal. ' +
    `Without alarm_ids, every alarm of record_ids that still holds is dismissed. ${PERMISSION_NOTE} ` +
    "The caller's own notifications of the alarms are dismissed too. scope NOTIFICATIONS " +
    `dismisses only those (the bell; needs ${NOTIFICATION_DISMISS_PERMISSION}).`,
  tag: 'xt1',
  auth: 'session',
  scope: 'organization',
  permission: [...ALARM_ACTION_PERMISSIONS, NOTIFICATION_DISMISS_PERMISSION],
  body: ZAlarmDismissUpload,
  reply: z.array(ZExcursionAlarm),
});

export const alarmCalls = [xt1AlarmAcknowledge, xt1AlarmDismiss] as const;
