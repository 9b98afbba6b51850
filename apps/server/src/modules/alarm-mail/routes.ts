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
import { createAlarmMailService, type OrganizationRequest } from './service';

/**
 * E-mail notifications (docs/decisions/alarm-mail.md): the calls (alarm
 * recipients, notification settings, rules and log). The Departure and
 * Arrival e-mails are sent by the `trip.event` worker (`worker.ts`), the alarm
 * e-mails by the `alarm.raised` one (`hooks.ts`); both registered from
 * `workers.ts`.
 */
export async function alarmMailModule(app: FastifyInstance): Promise<void> {
  const service = createAlarmMailService(app.db);
  const ctx = (
    request: FastifyRequest,
    organizationId: string,
    principal: Principal,
  ): OrganizationRequest => ({
    organizationId,
    principal,
    requestId: request.id,
  });

  registerCall(
    app,
    xt1AlarmRecipients,
    async ({ request, body, organizationId, requirePrincipal }) =>
      service.setAlarmRecipients(ctx(request, organizationId(), requirePrincipal()), body),
  );

  registerCall(
    app,
    notificationSettingsList,
    async ({ request, organizationId, requirePrincipal }) =>
      service.listSettings(ctx(request, organizationId(), requirePrincipal())),
  );
  registerCall(
    app,
    notificationSettingsCreate,
    async ({ request, body, organizationId, requirePrincipal }) =>
      service.createSetting(ctx(request, organizationId(), requirePrincipal()), body),
  );
  registerCall(
    app,
    notificationSettingsUpdate,
    async ({ request, body, query, organizationId, requirePrincipal }) =>
      service.updateSetting(
        ctx(request, organizationId(), requirePrincipal()),
        query.setting_id,
        body,
      ),
  );
  registerCall(
    app,
    notificationSettingsDelete,
    async ({ request, query, organizationId, requirePrincipal }) =>
      service.deleteSetting(ctx(request, organizationId(), requirePrincipal()), query.setting_id),
  );

  registerCall(app, notificationRulesList, async ({ request, organizationId, requirePrincipal }) =>
    service.listRules(ctx(request, organizationId(), requirePrincipal())),
  );
  registerCall(
    app,
    notificationRulesCreate,
    async ({ request, body, organizationId, requirePrincipal }) =>
      service.createRule(ctx(request, organizationId(), requirePrincipal()), body),
  );
  registerCall(
    app,
    notificationRulesUpdate,
    async ({ request, body, query, organizationId, requirePrincipal }) =>
      service.updateRule(ctx(request, organizationId(), requirePrincipal()), query.rule_id, body),
  );
  registerCall(
    app,
    notificationRulesDelete,
    async ({ request, query, organizationId, requirePrincipal }) =>
      service.deleteRule(ctx(request, organizationId(), requirePrincipal()), query.rule_id),
  );

  registerCall(
    app,
    notificationLogList,
    async ({ request, reply, query, organizationId, requirePrincipal }) => {
      const { entries, total } = await service.listLog(
        ctx(request, organizationId(), requirePrincipal()),
        query,
      );
      void reply.header('x-total-count', String(total));
      return entries;
    },
  );
}
