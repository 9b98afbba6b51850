import type {
  TDataDisplayRulePatch,
  TDataDisplayRuleUpload,
  TDataDisplayRuleView,
} from '@coldtrace/contract';
import type { Database } from '../../db/client';
import { AppError, notFound } from '../../kernel/errors';
import { isUuid } from '../../kernel/ids';
import { actorOf, changedFields, recordAudit } from '../../kernel/audit';
import type { Principal } from '../../kernel/principal';
import * as repo from './repository';

/**
 * Data display rules (docs/decisions/data-display-rules.md): per role of
 * the organization, or organization-wide, the unit and decimals temperatures
 * are shown with and the record fields hidden. Changes are audited.
 */

function present({ rule, roleName }: repo.RuleView): TDataDisplayRuleView {
  return {
    id: rule.id,
    role_id: rule.roleId,
    role_name: roleName,
    degrees_unit: rule.degreesUnit,
    temperature_decimals: rule.temperatureDecimals,
    hidden_fields: rule.hiddenFields as TDataDisplayRuleView['hidden_fields'],
    created: rule.created.toISOString(),
    last_modified: rule.lastModified.toISOString(),
  };
}

/** The audited fields, as the contract names them. */
function auditable(view: TDataDisplayRuleView) {
  return {
    degrees_unit: view.degrees_unit,
    temperature_decimals: view.temperature_decimals,
    hidden_fields: view.hidden_fields,
  };
}

/** The organization's rules and the one that applies to a user: their role's, else everyone's, else none. */
async function rulesFor(db: Database, organizationId: string, userId: string) {
  const rules = (await repo.listRules(db, organizationId)).map(present);
  const roleId = await repo.roleOfUser(db, organizationId, userId);
  const effective =
    rules.find((r) => roleId !== null && r.role_id === roleId) ??
    rules.find((r) => r.role_id === null) ??
    null;
  return { rules, effective };
}

/** The rule that applies to a user in an organization (reports read it), or null. */
export async function effectiveDisplayRule(
  db: Database,
  organizationId: string,
  userId: string,
): Promise<TDataDisplayRuleView | null> {
  return (await rulesFor(db, organizationId, userId)).effective;
}

export function createDisplayRulesService(db: Database) {
  return {
    async list(organizationId: string, principal: Principal) {
      return rulesFor(db, organizationId, principal.user.id);
    },

    async create(
      organizationId: string,
      principal: Principal,
      body: TDataDisplayRuleUpload,
      requestId: string,
    ) {
      const roleId = body.role_id ?? null;
      if (
        roleId !== null &&
        (!isUuid(roleId) || !(await repo.findRole(db, organizationId, roleId)))
      ) {
        throw notFound(`Role '${roleId}'`, 'role_id');
      }
      return db.transaction(async (tx) => {
        const row = await repo.insertRule(tx, {
          organizationId,
          roleId,
          degreesUnit: body.degrees_unit ?? null,
          temperatureDecimals: body.temperature_decimals ?? 1,
          hiddenFields: body.hidden_fields ?? [],
        });
        if (!row) {
          const message =
            roleId === null
              ? 'The organization-wide rule exists already; change it with PATCH'
              : 'This role has a rule already; change it with PATCH';
          throw new AppError('CONFLICT', message, { role_id: message });
        }
        const view = present((await repo.findRule(tx, organizationId, row.id))!);
        await recordAudit(tx, { organizationId, actor: actorOf(principal), requestId }, [
          {
            action: 'display_rule.create',
            entityType: 'data_display_rule',
            entityId: row.id,
            newValue: { role: view.role_name ?? 'Everyone', ...auditable(view) },
          },
        ]);
        return view;
      });
    },

    async update(
      organizationId: string,
      principal: Principal,
      body: TDataDisplayRulePatch,
      requestId: string,
    ) {
      const ruleNotFound = () => notFound(`Rule '${body.rule_id}'`, 'rule_id');
      if (!isUuid(body.rule_id)) throw ruleNotFound();
      return db.transaction(async (tx) => {
        const before = await repo.findRule(tx, organizationId, body.rule_id);
        if (!before) throw ruleNotFound();
        await repo.updateRule(tx, organizationId, body.rule_id, {
          ...(body.degrees_unit !== undefined ? { degreesUnit: body.degrees_unit } : {}),
          ...(body.temperature_decimals !== undefined
            ? { temperatureDecimals: body.temperature_decimals }
            : {}),
          ...(body.hidden_fields !== undefined ? { hiddenFields: body.hidden_fields } : {}),
        });
        const after = present((await repo.findRule(tx, organizationId, body.rule_id))!);
        await recordAudit(
          tx,
          { organizationId, actor: actorOf(principal), requestId },
          changedFields(auditable(present(before)), auditable(after), {
            action: 'display_rule.update',
            entityType: 'data_display_rule',
            entityId: body.rule_id,
          }),
        );
        return after;
      });
    },
  };
}
