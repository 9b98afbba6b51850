import type {
  TAlarmRecipients,
  TAlarmRecipientsUpload,
  TNotificationLogEntry,
  TNotificationRule,
  TNotificationRuleCreate,
  TNotificationRuleUpdate,
  TNotificationSetting,
  TNotificationSettingCreate,
  TNotificationSettingUpdate,
} from '@coldtrace/contract';
import type { Database, Db } from '../../db/client';
import type { NotificationRuleRow, NotificationSettingRow } from '../../db/schema-alarm-mail';
import { actorOf, changedFields, recordAudit, type AuditContext } from '../../kernel/audit';
import type { OrganizationRequest } from '../../kernel/context';
import { AppError, notFound } from '../../kernel/errors';
import { pageOf } from '../../kernel/paging';
import { addressKey } from './compose';
import { presentLogEntry, presentRule, presentSetting } from './presenter';
import * as repo from './repository';

/**
 * The calls of the alarm-mail module (docs/decisions/alarm-mail.md): alarm
 * recipients of a record, notification settings and rules (every change
 * audited in the same transaction), and the notification log. Everything in
 * the organization the call works in; another organization's id answers 404.
 */

function auditContext(ctx: OrganizationRequest): AuditContext {
  return {
    organizationId: ctx.organizationId,
    actor: actorOf(ctx.principal),
    requestId: ctx.requestId,
  };
}

/** Trimmed addresses, repeats (ignoring case) dropped, first spelling kept. */
export function uniqueAddresses(list: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of list) {
    const email = raw.trim();
    const key = addressKey(email);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(email);
  }
  return out;
}

const blankToNull = (value: string | null | undefined): string | null | undefined =>
  value === undefined ? undefined : value === null || value.trim() === '' ? null : value.trim();

/** Only the keys present in `body` (PATCH leaves the rest alone). */
function settingValues(
  body: TNotificationSettingUpdate,
  createdByUserId?: string,
): Partial<repo.SettingValues> {
  const values: Partial<repo.SettingValues> = {};
  if (createdByUserId !== undefined) values.createdByUserId = createdByUserId;
  if (body.product_name !== undefined) values.productName = blankToNull(body.product_name) ?? null;
  if (body.carrier_name !== undefined) values.carrierName = blankToNull(body.carrier_name) ?? null;
  if (body.notification_type !== undefined) values.notificationType = body.notification_type;
  if (body.status !== undefined) values.status = body.status;
  if (body.schedule !== undefined) values.schedule = body.schedule;
  if (body.to_list !== undefined) values.toList = uniqueAddresses(body.to_list);
  if (body.cc_list !== undefined) values.ccList = uniqueAddresses(body.cc_list);
  if (body.bcc_list !== undefined) values.bccList = uniqueAddresses(body.bcc_list);
  if (body.sms_list !== undefined) values.smsList = body.sms_list.filter((s) => s !== '');
  if (body.comment !== undefined) values.comment = blankToNull(body.comment) ?? null;
  if (body.custom_template_email !== undefined)
    values.customTemplateEmail = blankToNull(body.custom_template_email) ?? null;
  if (body.custom_template_subject !== undefined)
    values.customTemplateSubject = blankToNull(body.custom_template_subject) ?? null;
  if (body.custom_template_sms !== undefined)
    values.customTemplateSms = blankToNull(body.custom_template_sms) ?? null;
  if (body.custom_template_attachment !== undefined)
    values.customTemplateAttachment = blankToNull(body.custom_template_attachment) ?? null;
  if (body.origin !== undefined)
    values.originLocationId = body.origin === null ? null : Number(body.origin);
  if (body.destination !== undefined)
    values.destinationLocationId = body.destination === null ? null : Number(body.destination);
  if (body.remind_after_minutes !== undefined)
    values.remindAfterMinutes = body.remind_after_minutes;
  if (body.escalate_after_minutes !== undefined)
    values.escalateAfterMinutes = body.escalate_after_minutes;
  if (body.escalation_emails !== undefined)
    values.escalationEmails = uniqueAddresses(body.escalation_emails);
  return values;
}

const refused = (field: string, message: string) =>
  new AppError('VALIDATION_ERROR', `${field}: ${message}`, { [field]: message });

/**
 * The escalation fields of a setting as it will be stored (issue 14,
 * docs/decisions/escalation.md): only Alarm settings escalate, escalation
 * needs its addresses and addresses need a delay, and escalation comes after
 * the reminder. 400 naming the field.
 */
export function checkEscalation(setting: {
  notificationType: string;
  remindAfterMinutes: number | null;
  escalateAfterMinutes: number | null;
  escalationEmails: readonly string[];
}): void {
  const { remindAfterMinutes: remind, escalateAfterMinutes: escalate } = setting;
  if (setting.notificationType !== 'Alarm') {
    for (const [field, value] of [
      ['remind_after_minutes', remind],
      ['escalate_after_minutes', escalate],
    ] as const) {
      if (value !== null) throw refused(field, 'only Alarm settings remind or escalate');
    }
    if (setting.escalationEmails.length > 0)
      throw refused('escalation_emails', 'only Alarm settings escalate');
    return;
  }
  if (escalate !== null && setting.escalationEmails.length === 0)
    throw refused('escalation_emails', 'must list at least one address to escalate to');
  if (escalate === null && setting.escalationEmails.length > 0)
    throw refused('escalate_after_minutes', 'must be set when escalation_emails lists addresses');
  if (escalate !== null && remind !== null && escalate <= remind)
    throw refused(
      'escalate_after_minutes',
      `must be later than remind_after_minutes (${remind} minutes)`,
    );
}

/**
 * The schedule of a setting as it will be stored (issue 15,
 * docs/decisions/scheduled-reports.md): a Summary needs one, the other types
 * have none. 400 naming schedule.
 */
export function checkSchedule(setting: {
  notificationType: string;
  schedule: string | null;
}): void {
  if (setting.notificationType === 'Summary' && setting.schedule === null)
    throw refused('schedule', 'is required for a Summary setting (DAILY or WEEKLY)');
  if (setting.notificationType !== 'Summary' && setting.schedule !== null)
    throw refused('schedule', 'only Summary settings have a schedule');
}

const ESCALATION_KEYS = [
  'notification_type',
  'remind_after_minutes',
  'escalate_after_minutes',
  'escalation_emails',
] as const;

async function checkLocations(
  db: Database,
  organizationId: string,
  values: Partial<repo.SettingValues>,
): Promise<void> {
  for (const [field, id] of [
    ['origin', values.originLocationId],
    ['destination', values.destinationLocationId],
  ] as const) {
    if (id === undefined || id === null) continue;
    if (!(await repo.locationsExist(db, organizationId, [id]))) {
      throw notFound(`Travel location '${id}'`, field);
    }
  }
}

async function checkRuleUsers(
  db: Database,
  organizationId: string,
  users: readonly string[] | undefined,
): Promise<void> {
  if (users === undefined) return;
  const members = await repo.memberIds(db, organizationId, users);
  const missing = users.filter((id) => !members.has(id));
  if (missing.length > 0) {
    throw notFound(`User ${missing.map((id) => `'${id}'`).join(', ')}`, 'users');
  }
}

/** A table of organization rows whose every change is audited (settings, rules). */
interface AuditedRows<Row, View, Values> {
  rows: {
    find(db: Db, organizationId: string, id: number): Promise<Row | undefined>;
    insert(db: Db, organizationId: string, values: Values): Promise<Row>;
    update(
      db: Db,
      organizationId: string,
      id: number,
      values: Partial<Values>,
    ): Promise<Row | undefined>;
    delete(db: Db, organizationId: string, id: number): Promise<boolean>;
  };
  present(row: Row): View;
  entityType: string;
  /** 'Notification setting': how a 404 names it. */
  what: string;
  /** The query parameter that carries the id. */
  idField: string;
}

const SETTINGS: AuditedRows<NotificationSettingRow, TNotificationSetting, repo.SettingValues> = {
  rows: repo.settingRows,
  present: presentSetting,
  entityType: 'notification_setting',
  what: 'Notification setting',
  idField: 'setting_id',
};

const RULES: AuditedRows<NotificationRuleRow, TNotificationRule, repo.RuleValues> = {
  rows: repo.ruleRows,
  present: presentRule,
  entityType: 'notification_rule',
  what: 'Notification rule',
  idField: 'rule_id',
};

/** Create, update and delete of audited rows: one audit entry per change, in the same transaction. */
type AuditedWrites = ReturnType<typeof auditedWrites>;

function auditedWrites(db: Database) {
  return {
    async create<Row, View extends { id?: string | undefined }, Values>(
      ctx: OrganizationRequest,
      e: AuditedRows<Row, View, Values>,
      values: Values,
    ): Promise<View> {
      const audit = auditContext(ctx);
      return db.transaction(async (tx) => {
        const view = e.present(await e.rows.insert(tx, audit.organizationId, values));
        await recordAudit(tx, audit, [
          {
            action: `${e.entityType}.create`,
            entityType: e.entityType,
            entityId: view.id!,
            newValue: view,
          },
        ]);
        return view;
      });
    },

    async update<Row, View extends Record<string, unknown>, Values>(
      ctx: OrganizationRequest,
      e: AuditedRows<Row, View, Values>,
      id: string,
      values: Partial<Values>,
    ): Promise<View> {
      const audit = auditContext(ctx);
      return db.transaction(async (tx) => {
        const before = await e.rows.find(tx, audit.organizationId, Number(id));
        if (!before) throw notFound(`${e.what} '${id}'`, e.idField);
        const after = e.present(
          (await e.rows.update(tx, audit.organizationId, Number(id), values))!,
        );
        await recordAudit(
          tx,
          audit,
          changedFields(e.present(before), after, {
            action: `${e.entityType}.update`,
            entityType: e.entityType,
            entityId: id,
          }),
        );
        return after;
      });
    },

    async delete<Row, View, Values>(
      ctx: OrganizationRequest,
      e: AuditedRows<Row, View, Values>,
      id: string,
    ): Promise<void> {
      const audit = auditContext(ctx);
      await db.transaction(async (tx) => {
        const before = await e.rows.find(tx, audit.organizationId, Number(id));
        if (!before) throw notFound(`${e.what} '${id}'`, e.idField);
        await e.rows.delete(tx, audit.organizationId, Number(id));
        await recordAudit(tx, audit, [
          {
            action: `${e.entityType}.delete`,
            entityType: e.entityType,
            entityId: id,
            oldValue: e.present(before),
          },
        ]);
      });
    },
  };
}

// ------------------------------------------------------------ alarm recipients
async function setAlarmRecipients(
  db: Database,
  ctx: OrganizationRequest,
  body: TAlarmRecipientsUpload,
): Promise<TAlarmRecipients> {
  const audit = auditContext(ctx);
  const recipients = uniqueAddresses(body.alarm_recipients);
  return db.transaction(async (tx) => {
    const record = await repo.lockRecordRecipients(
      tx,
      audit.organizationId,
      Number(body.record_id),
    );
    if (!record) throw notFound(`Record '${body.record_id}'`, 'record_id');
    await repo.setAlarmRecipients(tx, audit.organizationId, record.id, recipients);
    await recordAudit(
      tx,
      audit,
      changedFields(
        { alarm_recipients: record.alarmRecipients },
        { alarm_recipients: recipients },
        {
          action: 'record.alarm_recipients.update',
          entityType: 'record',
          entityId: record.id,
          recordId: record.id,
        },
      ),
    );
    return { record_id: String(record.id), alarm_recipients: recipients };
  });
}

// ------------------------------------------------------------ settings
async function listSettings(
  db: Database,
  ctx: OrganizationRequest,
): Promise<TNotificationSetting[]> {
  return (await repo.listSettings(db, ctx.organizationId)).map(presentSetting);
}

async function createSetting(
  db: Database,
  audited: AuditedWrites,
  ctx: OrganizationRequest,
  body: TNotificationSettingCreate,
): Promise<TNotificationSetting> {
  const values = settingValues(body, ctx.principal.user.id) as repo.SettingValues;
  checkEscalation({
    notificationType: values.notificationType,
    remindAfterMinutes: values.remindAfterMinutes ?? null,
    escalateAfterMinutes: values.escalateAfterMinutes ?? null,
    escalationEmails: values.escalationEmails ?? [],
  });
  checkSchedule({
    notificationType: values.notificationType,
    schedule: values.schedule ?? null,
  });
  await checkLocations(db, ctx.organizationId, values);
  return audited.create(ctx, SETTINGS, values);
}

async function updateSetting(
  db: Database,
  audited: AuditedWrites,
  ctx: OrganizationRequest,
  id: string,
  body: TNotificationSettingUpdate,
): Promise<TNotificationSetting> {
  const values = settingValues(body);
  if ([...ESCALATION_KEYS, 'schedule' as const].some((key) => body[key] !== undefined)) {
    // Checked against the setting as it will be (another organization's id: 404 below).
    const before = await repo.settingRows.find(db, ctx.organizationId, Number(id));
    if (before) {
      checkEscalation({ ...before, ...values });
      checkSchedule({ ...before, ...values });
    }
  }
  await checkLocations(db, ctx.organizationId, values);
  return audited.update(ctx, SETTINGS, id, values);
}

async function deleteSetting(
  audited: AuditedWrites,
  ctx: OrganizationRequest,
  id: string,
): Promise<void> {
  await audited.delete(ctx, SETTINGS, id);
}

// ------------------------------------------------------------ rules
async function listRules(db: Database, ctx: OrganizationRequest): Promise<TNotificationRule[]> {
  return (await repo.listRules(db, ctx.organizationId)).map(presentRule);
}

async function createRule(
  db: Database,
  audited: AuditedWrites,
  ctx: OrganizationRequest,
  body: TNotificationRuleCreate,
): Promise<TNotificationRule> {
  const users = [...new Set(body.users)];
  await checkRuleUsers(db, ctx.organizationId, users);
  return audited.create(ctx, RULES, {
    name: body.name,
    userIds: users,
    rootRule: body.root_rule,
  });
}

async function updateRule(
  db: Database,
  audited: AuditedWrites,
  ctx: OrganizationRequest,
  id: string,
  body: TNotificationRuleUpdate,
): Promise<TNotificationRule> {
  const users = body.users === undefined ? undefined : [...new Set(body.users)];
  await checkRuleUsers(db, ctx.organizationId, users);
  return audited.update(ctx, RULES, id, {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(users !== undefined ? { userIds: users } : {}),
    ...(body.root_rule !== undefined ? { rootRule: body.root_rule } : {}),
  });
}

async function deleteRule(
  audited: AuditedWrites,
  ctx: OrganizationRequest,
  id: string,
): Promise<void> {
  await audited.delete(ctx, RULES, id);
}

// ------------------------------------------------------------ log
async function listLog(
  db: Database,
  ctx: OrganizationRequest,
  query: { page_number?: number; page_size?: number; record_id?: string },
): Promise<{ entries: TNotificationLogEntry[]; total: number }> {
  const organizationId = ctx.organizationId;
  const page = pageOf(query);
  if (query.record_id !== undefined) {
    const record = await repo.findRecord(db, organizationId, Number(query.record_id));
    if (!record) throw notFound(`Record '${query.record_id}'`, 'record_id');
  }
  const { rows, total } = await repo.listLog(db, organizationId, {
    ...(query.record_id !== undefined ? { recordId: Number(query.record_id) } : {}),
    limit: page.size,
    offset: page.offset,
  });
  return { entries: rows.map(presentLogEntry), total };
}

export function createAlarmMailService(db: Database) {
  const audited = auditedWrites(db);
  return {
    setAlarmRecipients: (ctx: OrganizationRequest, body: TAlarmRecipientsUpload) =>
      setAlarmRecipients(db, ctx, body),
    listSettings: (ctx: OrganizationRequest) => listSettings(db, ctx),
    createSetting: (ctx: OrganizationRequest, body: TNotificationSettingCreate) =>
      createSetting(db, audited, ctx, body),
    updateSetting: (ctx: OrganizationRequest, id: string, body: TNotificationSettingUpdate) =>
      updateSetting(db, audited, ctx, id, body),
    deleteSetting: (ctx: OrganizationRequest, id: string) => deleteSetting(audited, ctx, id),
    listRules: (ctx: OrganizationRequest) => listRules(db, ctx),
    createRule: (ctx: OrganizationRequest, body: TNotificationRuleCreate) =>
      createRule(db, audited, ctx, body),
    updateRule: (ctx: OrganizationRequest, id: string, body: TNotificationRuleUpdate) =>
      updateRule(db, audited, ctx, id, body),
    deleteRule: (ctx: OrganizationRequest, id: string) => deleteRule(audited, ctx, id),
    listLog: (
      ctx: OrganizationRequest,
      query: { page_number?: number; page_size?: number; record_id?: string },
    ) => listLog(db, ctx, query),
  };
}
