import {
  notificationLogList,
  notificationRulesCreate,
  notificationRulesDelete,
  notificationRulesList,
  notificationRulesUpdate,
  notificationSettingsCreate,
  notificationSettingsDelete,
  notificationSettingsList,
  notificationSettingsUpdate,
  xt1AlarmRecipients,
} from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call';
import { createAlarmMailService } from './service';

/**
 * E-mail notifications (docs/decisions/alarm-mail.md): the calls (alarm
 * recipients, notification settings, rules and log). The Departure and
 * Arrival e-mails are sent by the `trip.event` worker (`worker.ts`), the alarm
 * e-mails by the `alarm.raised` one (`hooks.ts`); both registered from
 * `workers.ts`.
 */
export async function alarmMailModule(app: FastifyInstance): Promise<void> {
  const service = createAlarmMailService(app.db);

  registerCall(app, xt1AlarmRecipients, async ({ body, organizationRequest }) =>
    service.setAlarmRecipients(organizationRequest(), body),
  );

  registerCall(app, notificationSettingsList, async ({ organizationRequest }) =>
    service.listSettings(organizationRequest()),
  );
  registerCall(app, notificationSettingsCreate, async ({ body, organizationRequest }) =>
    service.createSetting(organizationRequest(), body),
  );
  registerCall(app, notificationSettingsUpdate, async ({ body, query, organizationRequest }) =>
    service.updateSetting(organizationRequest(), query.setting_id, body),
  );
  registerCall(app, notificationSettingsDelete, async ({ query, organizationRequest }) =>
    service.deleteSetting(organizationRequest(), query.setting_id),
  );

  registerCall(app, notificationRulesList, async ({ organizationRequest }) =>
    service.listRules(organizationRequest()),
  );
  registerCall(app, notificationRulesCreate, async ({ body, organizationRequest }) =>
    service.createRule(organizationRequest(), body),
  );
  registerCall(app, notificationRulesUpdate, async ({ body, query, organizationRequest }) =>
    service.updateRule(organizationRequest(), query.rule_id, body),
  );
  registerCall(app, notificationRulesDelete, async ({ query, organizationRequest }) =>
    service.deleteRule(organizationRequest(), query.rule_id),
  );

  registerCall(app, notificationLogList, async ({ reply, query, organizationRequest }) => {
    const { entries, total } = await service.listLog(organizationRequest(), query);
    void reply.header('x-total-count', String(total));
    return entries;
  });
}
