import {
  ZExcursionAlarm,
  ZRecord,
  ZRecordDisposition,
  ZSecondFactorStatus,
  ZUser,
  type TExcursionAlarm,
  type TRecord,
  type TRecordDisposition,
  type TSecondFactorStatus,
  type TUser,
} from '@coldtrace/contract';

/**
 * Contract-shaped bodies for component tests: each builder parses its result
 * with the contract's schema, so a test cannot answer what the server never would.
 */

/** The signed-in user: Dana Quinn in organization 1, with the permissions given. */
export function sessionUser(
  over: Partial<TUser> & { permissions?: readonly string[] } = {},
): TUser {
  const { permissions = ['sysDataRead', 'sysReportCreate', 'sysReportEdit'], ...rest } = over;
  return ZUser.parse({
    id: '7',
    username: 'dana.quinn',
    first_name: 'Dana',
    last_name: 'Quinn',
    organizations: [{ id: '1', name: 'Northwind Pharma' }],
    role_memberships: [{ id: '1', role_id: '2', role_name: 'Manager', organization_id: '1' }],
    current_session_permissions: [...permissions],
    last_session_org_id: '1',
    settings: { degrees_unit: 'C', timezone: 'UTC' },
    org_settings: { alarm_notify_my_scans_orgs: [], alarm_notify_any_scans_orgs: [] },
    has_agreed_to_tos: true,
    ...rest,
  });
}

/** The user's second factor: none enrolled, not required by the organization. */
export function secondFactorStatus(over: Partial<TSecondFactorStatus> = {}): TSecondFactorStatus {
  return ZSecondFactorStatus.parse({
    enabled: false,
    pending: false,
    enabled_at: null,
    recovery_codes_left: 0,
    required_for_signing: false,
    required_for_administrators: false,
    ...over,
  });
}

/** An open high excursion of record 101: 30 min above 8.0 °C, peak 9.4 °C. */
export function excursionAlarm(over: Partial<TExcursionAlarm> = {}): TExcursionAlarm {
  return ZExcursionAlarm.parse({
    id: '11',
    record_id: '101',
    kind: 'excursion',
    state: 'OPEN',
    above_or_below: 'ABOVE',
    start_time: '2026-11-20T08:00:00Z',
    end_time: '2026-11-20T08:30:00Z',
    duration: 1800,
    degree_minutes: 21,
    high_threshold: 8,
    low_threshold: 2,
    highest_recorded_temperature: 9.4,
    lowest_recorded_temperature: 8.1,
    acknowledged: false,
    dismissed: false,
    ...over,
  });
}

/** Record 101, an xt1 tag whose trip has arrived. */
export function recordOf(over: Partial<TRecord> = {}): TRecord & { id: string } {
  const record = ZRecord.parse({
    id: '101',
    tag_serial_number: 'XT1-0042',
    tag_type: 'XT1_NFC_MU',
    stop_time: '2026-11-21T10:00:00Z',
    trip: {
      begin_time: '2026-11-20T06:00:00Z',
      end_time: '2026-11-21T09:00:00Z',
      trip_status: 'ARRIVED',
    },
    ...over,
  });
  return { ...record, id: record.id ?? '101' };
}

/** A signed release decision. */
export function dispositionOf(over: Partial<TRecordDisposition> = {}): TRecordDisposition {
  return ZRecordDisposition.parse({
    id: '5',
    decision: 'QUARANTINED',
    comment: 'Hold until QA has read the excursion',
    meaning: 'REVIEWED',
    transit_reason: null,
    signed_by: 'Dana Quinn',
    signed_at: '2026-11-21T12:00:00Z',
    second_factor: null,
    ...over,
  });
}
