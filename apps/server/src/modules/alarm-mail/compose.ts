import type { TNotificationType } from '@coldtrace/contract';

/**
 * Pure parts of the alarm e-mails: who gets which message (one e-mail per
 * person per event, whatever the number of sources naming them) and the text
 * of a message (templates with `{placeholder}`s).
 */

/** A setting that applies to the event (already filtered by type, status and match). */
export interface SettingSource {
  id: number;
  status: 'Enabled' | 'Test';
  to: readonly string[];
  cc: readonly string[];
  bcc: readonly string[];
  subjectTemplate: string | null;
  bodyTemplate: string | null;
}

/** A person named by one source (alarm recipients, a user setting, a rule). */
export interface PersonSource {
  email: string;
  /** Why, e.g. "alarm recipients of the record", "any alarm in this organization". */
  source: string;
}

export interface PlannedMessage {
  /** Unique within the event: `setting:{id}` or `person:{address}`. */
  key: string;
  settingId: number | null;
  /** Test settings: written to the log, never sent. */
  test: boolean;
  to: string[];
  cc: string[];
  bcc: string[];
  subjectTemplate: string | null;
  bodyTemplate: string | null;
  /** The sources, for the log's comment. */
  comment: string;
}

/** The comparable form of an address: trimmed, lower case. */
export const addressKey = (email: string): string => email.trim().toLowerCase();

/**
 * The messages of one event. Enabled settings first (in the given order),
 * each with its to, cc and bcc lists less whoever an earlier message already
 * reaches (a person listed twice in one setting is kept in the first of to,
 * cc, bcc); then one message per remaining person of the personal sources,
 * naming every source that named them. Test settings become log-only
 * messages and reach nobody, so the people they list are still e-mailed by
 * their other sources. Every address is reached at most once, and every
 * address of an Enabled setting or a personal source exactly once.
 */
export function planMessages(
  settings: readonly SettingSource[],
  people: readonly PersonSource[],
): PlannedMessage[] {
  const reached = new Set<string>();
  const take = (list: readonly string[]): string[] => {
    const out: string[] = [];
    for (const raw of list) {
      const email = raw.trim();
      const key = addressKey(email);
      if (key === '' || reached.has(key)) continue;
      reached.add(key);
      out.push(email);
    }
    return out;
  };
  const messages: PlannedMessage[] = [];
  for (const setting of settings) {
    if (setting.status === 'Test') {
      messages.push({
        key: `setting:${setting.id}`,
        settingId: setting.id,
        test: true,
        to: [...setting.to],
        cc: [...setting.cc],
        bcc: [...setting.bcc],
        subjectTemplate: setting.subjectTemplate,
        bodyTemplate: setting.bodyTemplate,
        comment: `Notification setting ${setting.id} (Test): not sent`,
      });
      continue;
    }
    const to = take(setting.to);
    const cc = take(setting.cc);
    const bcc = take(setting.bcc);
    if (to.length + cc.length + bcc.length === 0) continue;
    messages.push({
      key: `setting:${setting.id}`,
      settingId: setting.id,
      test: false,
      to,
      cc,
      bcc,
      subjectTemplate: setting.subjectTemplate,
      bodyTemplate: setting.bodyTemplate,
      comment: `Notification setting ${setting.id}`,
    });
  }
  const byPerson = new Map<string, { email: string; sources: string[] }>();
  for (const person of people) {
    const key = addressKey(person.email);
    if (key === '' || reached.has(key)) continue;
    const entry = byPerson.get(key);
    if (entry) {
      if (!entry.sources.includes(person.source)) entry.sources.push(person.source);
    } else {
      byPerson.set(key, { email: person.email.trim(), sources: [person.source] });
    }
  }
  for (const [key, { email, sources }] of byPerson) {
    reached.add(key);
    messages.push({
      key: `person:${key}`,
      settingId: null,
      test: false,
      to: [email],
      cc: [],
      bcc: [],
      subjectTemplate: null,
      bodyTemplate: null,
      comment: sources.join('; '),
    });
  }
  return messages;
}

/** Placeholder values of one event (see NOTIFICATION_PLACEHOLDERS in the contract). */
export type TemplateValues = Readonly<Record<string, string>>;

/** Replaces `{name}` by its value; an unknown `{name}` stays as written. */
export function renderTemplate(template: string, values: TemplateValues): string {
  return template.replace(/\{([a-z_]+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? values[name]! : whole,
  );
}

/** A subject on one line (a header cannot hold a line break), at most 250 characters. */
export function subjectLine(text: string): string {
  return text
    .replace(/[\r\n\t]+/g, ' ')
    .trim()
    .slice(0, 250);
}

export const DEFAULT_SUBJECTS: Record<TNotificationType, string> = {
  Alarm: 'Record {record_id} has an alarm (tag {serial_number})',
  Departure: 'Record {record_id} has departed (tag {serial_number})',
  Arrival: 'Record {record_id} has arrived (tag {serial_number})',
};

const SUMMARY = [
  'Tag: {serial_number}',
  'Product: {product}',
  'Carrier: {carrier}',
  'Primary reference: {primary_reference}',
  'Shipping reference: {shipping_reference}',
  'Shipper: {origin}',
  'Receiver: {destination}',
  'Thresholds: low {low_threshold} °C, high {high_threshold} °C',
  'Highest recorded temperature: {highest} °C',
  'Lowest recorded temperature: {lowest} °C',
  'Trip status: {trip_status}',
].join('\n');

export const DEFAULT_BODIES: Record<TNotificationType, string> = {
  Alarm: `Record {record_id} has an alarm.\n\n{alarms}\n\n${SUMMARY}\n\nOpen the record: {link}\n`,
  Departure: `Record {record_id} has departed at {time}.\n\n${SUMMARY}\n\nOpen the record: {link}\n`,
  Arrival: `Record {record_id} has arrived at {time}.\n\n${SUMMARY}\n\nOpen the record: {link}\n`,
};

/**
 * Reminder and escalation e-mails (issue 14, docs/decisions/escalation.md):
 * the alarm is still unacknowledged; `{minutes}` is the setting's delay.
 */
export const ESCALATION_SUBJECTS = {
  reminder: 'Reminder: record {record_id} has an unacknowledged alarm (tag {serial_number})',
  escalation:
    'Escalation: record {record_id} has an alarm unacknowledged for {minutes} minutes (tag {serial_number})',
} as const;

export const ESCALATION_BODY =
  'Record {record_id} has an alarm that nobody has acknowledged for {minutes} minutes.\n\n' +
  `{alarms}\n\n${SUMMARY}\n\nOpen the record to review and acknowledge it: {link}\n`;
