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
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerCall } from '../../http/register-call';
import type { Principal } from '../../kernel/principal';
import type { RequestContext } from '../../kernel/context';
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
  const ctx = (request: FastifyRequest, principal: Principal): RequestContext => ({
    principal,
    requestId: request.id,
  });

  registerCall(app, xt1AlarmRecipients, async ({ request, body, requirePrincipal }) =>
    service.setAlarmRecipients(ctx(request, requirePrincipal()), body),
  );

  registerCall(app, notificationSettingsList, async ({ request, requirePrincipal }) =>
    service.listSettings(ctx(request, requirePrincipal())),
  );
  registerCall(app, notificationSettingsCreate, async ({ request, body, requirePrincipal }) =>
    service.createSetting(ctx(request, requirePrincipal()), body),
  );
  registerCall(
    app,
    notificationSettingsUpdate,
    async ({ request, body, query, requirePrincipal }) =>
      service.updateSetting(ctx(request, requirePrincipal()), query.setting_id, body),
  );
  registerCall(app, notificationSettingsDelete, async ({ request, query, requirePrincipal }) =>
    service.deleteSetting(ctx(request, requirePrincipal()), query.setting_id),
  );

  registerCall(app, notificationRulesList, async ({ request, requirePrincipal }) =>
    service.listRules(ctx(request, requirePrincipal())),
  );
  registerCall(app, notificationRulesCreate, async ({ request, body, requirePrincipal }) =>
    service.createRule(ctx(request, requirePrincipal()), body),
  );
  registerCall(app, notificationRulesUpdate, async ({ request, body, query, requirePrincipal }) =>
    service.updateRule(ctx(request, requirePrincipal()), query.rule_id, body),
  );
  registerCall(app, notificationRulesDelete, async ({ request, query, requirePrincipal }) =>
    service.deleteRule(ctx(request, requirePrincipal()), query.rule_id),
  );

  registerCall(app, notificationLogList, async ({ request, reply, query, requirePrincipal }) => {
    const { entries, total } = await service.listLog(ctx(request, requirePrincipal()), query);
    void reply.header('x-total-count', String(total));
    return entries;
  });
}
