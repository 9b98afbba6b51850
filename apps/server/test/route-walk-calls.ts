import { allCalls, type CallDef } from '@coldtrace/contract';
import { TEST_PASSWORD, uid } from './helpers';
import { epoch, iso, xt1Body } from './shipment-factories';

/**
 * The route walk (issue 5 item 7, issue 10 "Done when"): every call of the
 * contract's route table, made as
 *   - an anonymous visitor,
 *   - a Viewer of the victim organization (a low-privilege member),
 *   - an Administrator of another organization, with a session and with a user token,
 *   - another organization's API key (both header forms),
 *   - another organization's device token (a user token of an Operator-like member,
 *     as the phone app uses for rt and nanotag uploads).
 * Requests carry valid-shaped bodies naming the victim's ids, tags and serial
 * numbers, so a 2xx would be a real leak. Every victim value (ids, names, e-mails,
 * serial numbers, references, key prefix) carries a unique marker, and every
 * numeric id of the victim lies in a range no other row uses; no body of an
 * attacker's request may contain any of them (unless the request itself named
 * it: an echo is not a leak). After the walks, every row of the victim
 * organization is as it was.
 */

/** Calls anyone may make, and why that is safe. */
export const PUBLIC_CALLS: Record<string, string> = {
  authCsrf: 'hands out the CSRF token the sign-in form needs',
  authLogin: 'signing in (throttled; wrong credentials answer 400)',
  authLogout: 'ends the caller’s own session, if any',
  authPublicLogin: 'the configured public account only (404 when none is configured)',
  authTosGet: 'the terms of use are shown before sign-in',
  authPrivacyPolicyGet: 'the privacy policy is shown before sign-in',
  authPasswordReset: 'same reply whether the address exists or not',
  authPasswordResetConfirm: 'needs the uuid and token of a live reset link',
  authPasswordResetValidate: 'needs the uuid and token of a live reset link',
  authInvitationValidate: 'needs the uuid and token of a live invitation link',
  authInvitationRegister: 'needs the uuid and token of a live invitation link',
  authInvitationDecline: 'needs the uuid and token of a live invitation link',
  healthGet: 'says whether the database answers, nothing else',
  evidenceKey: "the server's public signing key: public by design, so anyone can check a signature",
};

/**
 * Calls that may answer 2xx to another organization naming the victim's serial
 * number: they write into the caller's own organization (a serial number names a
 * tag within an organization). The end-of-walk check proves nothing of the
 * victim's changed, and the leak check that no victim value came back.
 */
export const WRITES_OWN = new Set([
  'xt1ScanUpload',
  'xt1StartAction',
  'xt1StopAction',
  'xt1ConfigureAction',
  'xt1CreateShipmentAction',
  'rtConfigureAction',
  'rtStartAction',
  'rtStopAction',
  'rtPackets',
  'rtConfigureRequest',
  'rtStartRequest',
  'rtStopRequest',
  'nanotagGeneralizedData',
  'nanotagConfigureAction',
  'nanotagFirstSampleAction',
  'nanotagHealthAction',
  'nanotagPackets',
  'nanotagStatusAction',
  'nanotagTransmitInterval',
]);

/**
 * Calls whose reply lists what the caller itself wrote earlier in the walk: the
 * caller's own pending invitations repeat the victim member's e-mail address or
 * username that the caller typed into its own invitations (issue 34). A value the
 * caller sent before is no leak here; anything else of the victim still is.
 */
export const ECHOES_OWN_WRITES = new Set(['authInvitationsList']);

/** The background jobs the victim's data sets off (alarm fan-out and e-mails, reports). */
export const JOBS = [
  'alarm.raised',
  'trip.event',
  'mail.send',
  'report.generate',
  'password.reset-request',
  'webhook.event',
  'webhook.deliver',
];

/** Every victim row id is in [VICTIM_IDS, LATER_IDS); rows made later start at LATER_IDS. */
export const VICTIM_IDS = 7_700_000_000;
export const LATER_IDS = 8_800_000_000;

export const REFUSED = (status: number) => [401, 403, 404].includes(status);
/** Another organization's id: any 4xx (400 when it answers "no such ... in this organization"). */
export const TURNED_AWAY = (status: number) => status >= 400 && status < 500;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const HASH_LIKE = /^[A-Za-z0-9+/=_-]{32,}$/;

export const permissionsOf = (call: CallDef): string[] =>
  call.permission === undefined
    ? []
    : typeof call.permission === 'string'
      ? [call.permission]
      : [...call.permission];

/** Logout last: it ends the caller's session. */
export const CALLS = [...allCalls].sort(
  (a, b) => Number(a.operationId === 'authLogout') - Number(b.operationId === 'authLogout'),
) as CallDef[];

export interface Victim {
  marker: string;
  orgId: string;
  adminId: string;
  memberId: string;
  memberEmail: string;
  memberUsername: string;
  /** A pending invitation of the victim organization. */
  invitationId: string;
  roleIds: Record<string, string>;
  xt1: { serial: string; recordId: string; tagId: number; alarmIds: string[] };
  rt: { serial: string; recordId: string };
  nanotag: { serial: string; recordId: string };
  recordIds: number[];
  carrier: Record<string, unknown>;
  product: Record<string, unknown>;
  travelLocation: Record<string, unknown>;
  keyPrefix: string;
  /** The listed id of the victim admin's user token. */
  tokenId: string;
  reportId: string;
  calibration: { pdfId: string; deviceId: number };
  displayRuleId: string;
  settingId: string;
  notificationRuleId: string;
  webhookId: string;
  /** A delivery in the victim webhook's log. */
  deliveryId: string;
}

export interface VictimRequest {
  query?: Record<string, string>;
  body?: unknown;
  /** 2xx allowed: the call writes into the caller's own organization. */
  writesOwn?: boolean;
}

/** Requests naming the victim's data, for the calls that take an id, a serial or an organization. */
export function victimRequests(
  v: Victim,
  own: { orgId?: string; roleId?: string },
): Record<string, VictimRequest[]> {
  const now = epoch(new Date());
  const strip = ({ id: _id, ...rest }: Record<string, unknown>) => rest;
  const xt1 = (overrides: Record<string, unknown> = {}): VictimRequest[] => [
    { body: xt1Body(v.xt1.serial, { start_time_seconds: now - 7200, ...overrides }) },
  ];
  const rt = (body: Record<string, unknown>): VictimRequest[] => [
    { body: { tag_id: v.rt.serial, ...body } },
  ];
  const nano = (body: Record<string, unknown>): VictimRequest[] => [
    { body: { tag_id: v.nanotag.serial, ...body } },
  ];
  const recordQuery = (name: string): VictimRequest[] => [{ query: { [name]: v.xt1.recordId } }];
  return {
    authSessionSwitch: [{ body: { id: v.orgId } }],
    productsCarrierDefinitionsUpdate: [
      { query: { carrier_id: String(v.carrier.id) }, body: strip(v.carrier) },
    ],
    productsProductDefinitionsUpdate: [
      { query: { product_id: String(v.product.id) }, body: strip(v.product) },
    ],
    productsTravelLocationsUpdate: [
      {
        query: { travel_location_id: String(v.travelLocation.id) },
        body: strip(v.travelLocation),
      },
    ],
    xt1Record: recordQuery('record_id'),
    xt1LatestRecord: [
      { query: { tag_id_or_serial_number: v.xt1.serial } },
      { query: { tag_id_or_serial_number: String(v.xt1.tagId) } },
    ],
    xt1RecordActions: recordQuery('record_ids'),
    xt1RecordScans: recordQuery('record_ids'),
    xt1Alarms: [
      {
        query: {
          record_id: v.xt1.recordId,
          include_acknowledged: 'true',
          include_dismissed: 'true',
        },
      },
    ],
    xt1Notifications: recordQuery('record_id'),
    notificationLogList: recordQuery('record_id'),
    auditList: recordQuery('record_id'),
    auditCsv: recordQuery('record_id'),
    aggregateLocations: [{ query: { record_ids: v.recordIds.join(',') } }],
    aggregateRecordTemperatures: [{ query: { record_ids: v.recordIds.join(',') } }],
    aggregateRecordSeries: [{ query: { record_id: v.xt1.recordId, width: '400' } }],
    xt1ScanUpload: xt1({ temps: [99.9, 99.9, 99.9] }),
    xt1StartAction: xt1(),
    xt1StopAction: xt1({ record_id: v.xt1.recordId, stop_time_seconds: now }),
    xt1ConfigureAction: xt1({ high_threshold: 99 }),
    xt1CreateShipmentAction: xt1({ primary_reference: 'STOLEN' }),
    xt1UpdateShipmentAction: xt1({ record_id: v.xt1.recordId, primary_reference: 'STOLEN' }),
    xt1TripEdit: [{ body: { record_id: v.xt1.recordId, begin_time: iso(now - 3600) } }],
    xt1AlarmAcknowledge: [
      {
        body: {
          record_ids: [v.xt1.recordId],
          alarm_ids: v.xt1.alarmIds,
          comment: 'not mine',
          client_type: 'WEB',
          // The caller's own signature: every test user has TEST_PASSWORD.
          password: TEST_PASSWORD,
          meaning: 'REVIEWED',
        },
      },
    ],
    xt1AlarmDismiss: [
      { body: { record_ids: [v.xt1.recordId], client_type: 'WEB' } },
      { body: { alarm_ids: v.xt1.alarmIds, client_type: 'WEB' } },
    ],
    xt1AlarmRecipients: [
      { body: { record_id: v.xt1.recordId, alarm_recipients: ['thief@example.test'] } },
    ],
    xt1ReportPdfCreate: [{ body: { record_id: v.xt1.recordId } }],
    xt1ReportCsvCreate: [{ body: { record_id: v.xt1.recordId } }],
    xt1ReportXlsxCreate: [{ body: { record_id: v.xt1.recordId } }],
    xt1ReportPdfGet: [{ query: { report_id: v.reportId } }],
    xt1ReportCsvGet: [{ query: { report_id: v.reportId } }],
    xt1ReportXlsxGet: [{ query: { report_id: v.reportId } }],
    xt1CalibrationList: [{ query: { device_id: String(v.calibration.deviceId) } }],
    xt1CalibrationPdf: [
      {
        query: {
          calibration_pdf_id: v.calibration.pdfId,
          device_id: String(v.calibration.deviceId),
        },
      },
    ],
    // JSON is no PDF (400); certificate-file.test.ts sends another organization a real one (404).
    xt1CalibrationFileUpload: [{ query: { calibration_pdf_id: v.calibration.pdfId }, body: {} }],
    xt1CalibrationUpload: [
      {
        body: {
          model_name: 'stolen',
          equipment: [],
          specifications: [],
          calibrated_devices: [
            {
              device_id: v.xt1.tagId,
              tag_type: 'XT1_NFC_MU',
              calibration_timestamp: '2026-06-15T09:30:00Z',
            },
          ],
        },
      },
    ],
    dataDisplayRulesCreate: [{ body: { role_id: v.roleIds.Viewer, temperature_decimals: 0 } }],
    dataDisplayRulesUpdate: [{ body: { rule_id: v.displayRuleId, temperature_decimals: 0 } }],
    notificationSettingsUpdate: [
      { query: { setting_id: v.settingId }, body: { status: 'Disabled' } },
    ],
    notificationSettingsDelete: [{ query: { setting_id: v.settingId } }],
    integrationsWebhooksUpdate: [
      { query: { webhook_id: v.webhookId }, body: { active: true, rotate_secret: true } },
    ],
    integrationsWebhooksDelete: [{ query: { webhook_id: v.webhookId } }],
    integrationsWebhookDeliveries: [{ query: { webhook_id: v.webhookId } }],
    integrationsWebhookRedeliver: [{ body: { delivery_id: v.deliveryId } }],
    notificationRulesCreate: [
      {
        body: {
          name: 'steal',
          users: [v.adminId],
          root_rule: { operator: 'AND', unary_children: [] },
        },
      },
    ],
    notificationRulesUpdate: [{ query: { rule_id: v.notificationRuleId }, body: { name: 'x' } }],
    notificationRulesDelete: [{ query: { rule_id: v.notificationRuleId } }],
    authUsersRegister: [
      {
        body: {
          username: `intruder_${uid()}`,
          first_name: 'In',
          last_name: 'Truder',
          email: `intruder_${uid()}@example.test`,
          organization_id: v.orgId,
          role_id: v.roleIds.Administrator,
        },
      },
      // Issue 34: registering the victim's member by e-mail or by username into the
      // caller's own organization only sends an invitation: nothing of the victim
      // changes, and the reply names nothing of the account.
      ...(own.orgId && own.roleId
        ? [
            { email: v.memberEmail, username: `intruder_${uid()}` },
            { email: `intruder_${uid()}@example.test`, username: v.memberUsername },
          ].map((who) => ({
            body: {
              ...who,
              first_name: 'In',
              last_name: 'Truder',
              organization_id: own.orgId,
              role_id: own.roleId,
            },
            writesOwn: true,
          }))
        : []),
    ],
    authUserRoles: [{ body: { user_id: v.memberId, role_id: v.roleIds.Administrator } }],
    authUserLock: [{ body: { user_id: v.memberId, is_locked: true } }],
    authUserSuspend: [{ body: { user_id: v.memberId, is_suspended: true } }],
    authInvitationRevoke: [{ body: { invitation_id: v.invitationId } }],
    authInvitationValidate: [{ body: { uuid: v.invitationId, token: 'guessed-token' } }],
    authInvitationAccept: [{ body: { uuid: v.invitationId, token: 'g'.repeat(43) } }],
    authInvitationDecline: [{ body: { uuid: v.invitationId, token: 'g'.repeat(43) } }],
    authInvitationRegister: [
      {
        body: {
          uuid: v.invitationId,
          token: 'g'.repeat(43),
          username: `intruder_${uid()}`,
          first_name: 'In',
          last_name: 'Truder',
          new_password: 'Stolen password 99!',
        },
      },
    ],
    keysGenerate: [{ body: { name: 'stolen', role_id: v.roleIds.Administrator } }],
    keysRevoke: [{ body: { prefix: v.keyPrefix } }],
    authTokenRevoke: [{ body: { id: v.tokenId } }],
    xt1AssignTags: [
      { body: { organization_id: v.orgId, tag_ids: [v.xt1.serial] } },
      ...(own.orgId
        ? [
            {
              body: {
                organization_id: own.orgId,
                tag_ids: [v.xt1.serial, v.rt.serial, String(v.xt1.tagId)],
              },
              writesOwn: true,
            },
          ]
        : []),
    ],
    authPasswordResetConfirm: [
      { body: { uuid: v.adminId, token: 'guessed-token', new_password: 'Stolen password 99!' } },
    ],
    authPasswordResetValidate: [{ body: { uuid: v.adminId, token: 'guessed-token' } }],
    rtConfigureAction: rt({
      request_id: 'steal-1',
      high_threshold: 99,
      low_threshold: -99,
      measurement_interval: 60,
      max_transmit_interval: 600,
    }),
    rtStartAction: rt({ request_id: 'steal-2', start_time_seconds: now - 7200 }),
    rtStopAction: rt({ request_id: 'steal-3', stop_time_seconds: now }),
    rtPackets: rt({
      start_time_seconds: now - 7200,
      temperatures_offset_index: 0,
      temps: [99.9, 99.9, 99.9],
    }),
    rtConfigureRequest: rt({}),
    rtStartRequest: rt({}),
    rtStopRequest: rt({}),
    nanotagGeneralizedData: nano({
      high_threshold: 99,
      low_threshold: -99,
      measurement_interval: 60,
      start_delay: 0,
      num_consecutive_excursions: 1,
    }),
    nanotagConfigureAction: nano({ record_period_seconds: 60, report_period_seconds: 600 }),
    nanotagFirstSampleAction: nano({ first_sample_timestamp: iso(now - 7200) }),
    nanotagHealthAction: nano({ battery_health: 'CRITICAL' }),
    nanotagPackets: nano({ temps: [99.9, 99.9], packet_end_time_seconds: now - 60, frame_id: 'x' }),
    nanotagStatusAction: nano({ last_sample_number: 1, last_sample_timestamp: iso(now - 60) }),
    nanotagTransmitInterval: nano({ transmit_interval: 60 }),
  };
}

/** Valid-shaped filler for calls without a victim id (the guard decides before the body matters). */
export function fillerRequest(call: CallDef): VictimRequest {
  if (call.method === 'GET' || call.method === 'DELETE') return {};
  return { body: {} };
}

export function urlOf(call: CallDef, query?: Record<string, string>): string {
  return query ? `${call.path}?${new URLSearchParams(query).toString()}` : call.path;
}
