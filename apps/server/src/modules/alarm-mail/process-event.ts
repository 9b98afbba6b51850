import { evaluateRuleGroup, type RuleSubject } from '@coldtrace/domain';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import type { AlarmMailEventRow, NotificationSettingRow } from '../../db/schema-alarm-mail';
import type { AlarmRow, RecordRow } from '../../db/schema-shipments';
import { queueMail } from '../mail';
import {
  DEFAULT_BODIES,
  DEFAULT_SUBJECTS,
  planMessages,
  renderTemplate,
  subjectLine,
  type PersonSource,
  type PlannedMessage,
  type SettingSource,
} from './compose';
import { scheduleEscalations } from './escalation';
import * as repo from './repository';
import { templateValues } from './template-values';

/**
 * Processing one notification event (an alarm raised, a departure, an
 * arrival) in the caller's transaction, which holds the event's row lock:
 * who gets which e-mail (compose.ts), one notification log entry per e-mail,
 * the e-mails queued in the mail outbox (delivered by the `mail.send` job,
 * exactly once per outbox row), and the event marked processed. All or
 * nothing: a crash before the commit leaves the event pending, to be
 * processed again from the start; after it, nothing is processed twice.
 */

export const SOURCE_RECIPIENTS = 'alarm recipients of the record';
export const SOURCE_ANY = 'any alarm in this organization';
export const SOURCE_MY_SCANS = 'alarms on my scans';
export const sourceRule = (name: string) => `notification rule '${name}'`;

/** The record as notification rules see it (spec field names). */
export function ruleSubjectOf(record: RecordRow): RuleSubject {
  return {
    product_designation: record.productDesignation,
    carrier: record.carrier,
    program_name: record.programName,
    primary_reference: record.primaryReference,
    secondary_reference: record.secondaryReference,
    shipping_reference: record.shippingReference,
    po_number: record.poNumber,
    tag_serial_number: record.tagSerialNumber,
    tag_type: record.tagType,
    shipper_name_address:
      record.shipperLocationId === null ? null : String(record.shipperLocationId),
    receiver_name_address:
      record.receiverLocationId === null ? null : String(record.receiverLocationId),
    status: record.status,
    trip_status: record.tripStatus,
    high_threshold: record.highThreshold,
    low_threshold: record.lowThreshold,
  };
}

const sameText = (a: string | null, b: string): boolean =>
  a === null || a.trim() === '' || a.trim().toLowerCase() === b.trim().toLowerCase();

/** Whether a setting's product, carrier, origin and destination filters let the record through. */
export function settingMatches(setting: NotificationSettingRow, record: RecordRow): boolean {
  return (
    sameText(setting.productName, record.productDesignation) &&
    sameText(setting.carrierName, record.carrier) &&
    (setting.originLocationId === null || setting.originLocationId === record.shipperLocationId) &&
    (setting.destinationLocationId === null ||
      setting.destinationLocationId === record.receiverLocationId)
  );
}

/** The people named for an alarm: alarm recipients, subscribed members, matching rules. */
async function alarmPeople(tx: Db, record: RecordRow): Promise<PersonSource[]> {
  const people: PersonSource[] = record.alarmRecipients.map((email) => ({
    email,
    source: SOURCE_RECIPIENTS,
  }));
  const subscribed = await repo.notifiableMembers(tx, record.organizationId, {
    subscribedOnly: true,
  });
  const scanners = subscribed.some((m) => m.myScans)
    ? await repo.scanningUserIds(tx, record.id)
    : new Set<string>();
  for (const member of subscribed) {
    if (member.anyScans) people.push({ email: member.email, source: SOURCE_ANY });
    if (member.myScans && scanners.has(member.userId)) {
      people.push({ email: member.email, source: SOURCE_MY_SCANS });
    }
  }
  const subject = ruleSubjectOf(record);
  for (const rule of await repo.listRules(tx, record.organizationId)) {
    if (!evaluateRuleGroup(rule.rootRule, subject)) continue;
    const members = await repo.notifiableMembers(tx, record.organizationId, {
      userIds: rule.userIds,
    });
    for (const member of members)
      people.push({ email: member.email, source: sourceRule(rule.name) });
  }
  return people;
}

/**
 * The alarms of an Alarm event this event announces: those not announced yet,
 * claimed by it (another event may have claimed some first).
 */
async function claimedAlarms(
  tx: Db,
  event: AlarmMailEventRow,
  record: RecordRow,
): Promise<AlarmRow[]> {
  const candidates = await repo.alarmsToAnnounce(
    tx,
    event.organizationId,
    record.id,
    event.alarmIds,
  );
  const claimed = new Set(
    await repo.claimAlarms(
      tx,
      event.id,
      candidates.map((a) => a.id),
    ),
  );
  return candidates.filter((a) => claimed.has(a.id));
}

/** A matching setting as the message planner reads it. */
const settingSource = (s: NotificationSettingRow): SettingSource => ({
  id: s.id,
  status: s.status === 'Test' ? 'Test' : 'Enabled',
  to: s.toList,
  cc: s.ccList,
  bcc: s.bccList,
  subjectTemplate: s.customTemplateSubject,
  bodyTemplate: s.customTemplateEmail,
});

/** Each planned message: logged once (its key), and queued as mail unless it is a test. */
async function sendMessages(
  app: FastifyInstance,
  tx: Db,
  event: AlarmMailEventRow,
  record: RecordRow,
  messages: readonly PlannedMessage[],
  alarms: readonly AlarmRow[],
): Promise<void> {
  const locationIds = [record.shipperLocationId, record.receiverLocationId].filter(
    (id): id is number => id !== null,
  );
  const locations = await repo.locationNames(tx, event.organizationId, locationIds);
  const values = templateValues(app, event, record, locations, alarms);
  const destination =
    record.receiverLocationId === null ? null : (locations.get(record.receiverLocationId) ?? null);

  for (const message of messages) {
    const subject = subjectLine(
      renderTemplate(
        message.subjectTemplate?.trim() || DEFAULT_SUBJECTS[event.notificationType],
        values,
      ),
    );
    const body = renderTemplate(
      message.bodyTemplate?.trim() || DEFAULT_BODIES[event.notificationType],
      values,
    );
    const written = await repo.insertLogEntry(tx, {
      organizationId: event.organizationId,
      notificationType: event.notificationType,
      timestamp: event.occurredAt,
      destination,
      toList: message.to,
      ccList: message.cc,
      bccList: message.bcc,
      comment: message.comment,
      serialNumber: record.tagSerialNumber,
      customTemplateEmail: body,
      customTemplateSubject: subject,
      recordId: record.id,
      eventId: event.id,
      messageKey: message.key,
      settingId: message.settingId,
      status: message.test ? 'test' : 'sent',
    });
    if (!written || message.test) continue;
    await queueMail(app, tx, {
      to: message.to,
      cc: message.cc,
      bcc: message.bcc,
      subject,
      text: body,
      organizationId: event.organizationId,
      dedupeKey: `alarm-mail:${event.id}:${message.key}`,
    });
  }
}

/** Process a locked, pending event (see the module comment). */
export async function processEvent(
  app: FastifyInstance,
  tx: Db,
  event: AlarmMailEventRow,
): Promise<void> {
  const done = () => repo.markEventProcessed(tx, event.id);
  const record = await repo.findRecord(tx, event.organizationId, event.recordId);
  if (!record) return done();

  let alarms: AlarmRow[] = [];
  if (event.notificationType === 'Alarm') {
    alarms = await claimedAlarms(tx, event, record);
    // Every alarm was already announced by another event: nothing to send.
    if (alarms.length === 0) return done();
  }

  const matching = (
    await repo.activeSettings(tx, event.organizationId, event.notificationType)
  ).filter((s) => settingMatches(s, record));
  // Escalation (issue 14): reminders and escalations of these alarms, at their times.
  if (alarms.length > 0) await scheduleEscalations(app, tx, alarms, matching);
  const people = event.notificationType === 'Alarm' ? await alarmPeople(tx, record) : [];
  const messages = planMessages(matching.map(settingSource), people);
  if (messages.length === 0) return done();
  await sendMessages(app, tx, event, record, messages, alarms);
  return done();
}
