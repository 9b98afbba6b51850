import type {
  TNotificationLogEntry,
  TNotificationRule,
  TNotificationSetting,
} from '@coldtrace/contract';
import type {
  NotificationLogRow,
  NotificationRuleRow,
  NotificationSettingRow,
} from '../../db/schema-alarm-mail';

/** Rows of the alarm-mail tables as the contract's entities. */

const idText = (id: number | null): string | null => (id === null ? null : String(id));

export function presentSetting(row: NotificationSettingRow): TNotificationSetting {
  return {
    id: String(row.id),
    created: row.created.toISOString(),
    product_name: row.productName,
    carrier_name: row.carrierName,
    notification_type: row.notificationType,
    status: row.status,
    schedule: row.schedule,
    to_list: row.toList,
    cc_list: row.ccList,
    bcc_list: row.bccList,
    sms_list: row.smsList,
    comment: row.comment,
    custom_template_email: row.customTemplateEmail,
    custom_template_subject: row.customTemplateSubject,
    custom_template_sms: row.customTemplateSms,
    custom_template_attachment: row.customTemplateAttachment,
    organization: row.organizationId,
    origin: idText(row.originLocationId),
    destination: idText(row.destinationLocationId),
    remind_after_minutes: row.remindAfterMinutes,
    escalate_after_minutes: row.escalateAfterMinutes,
    escalation_emails: row.escalationEmails,
  };
}

export function presentRule(row: NotificationRuleRow): TNotificationRule {
  return {
    id: String(row.id),
    name: row.name,
    users: row.userIds,
    root_rule: row.rootRule,
  };
}

export function presentLogEntry(row: NotificationLogRow): TNotificationLogEntry {
  return {
    id: String(row.id),
    created: row.created.toISOString(),
    notification_type: row.notificationType,
    timestamp: row.timestamp.toISOString(),
    destination: row.destination,
    to_list: row.toList,
    cc_list: row.ccList,
    bcc_list: row.bccList,
    sms_list: row.smsList,
    comment: row.comment,
    serial_number: row.serialNumber,
    custom_template_email: row.customTemplateEmail,
    custom_template_subject: row.customTemplateSubject,
    custom_template_sms: row.customTemplateSms,
    custom_template_attachment: row.customTemplateAttachment,
    organization: row.organizationId,
    record: idText(row.recordId),
    alarm: idText(row.alarmId),
    step: row.step,
    period: row.period,
  };
}
