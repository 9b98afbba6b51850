import { z } from 'zod';
import { ZFunctionOperator, ZRuleCombinator, ZUnaryOperator } from '../enums';

/**
 * Rule engine of spec section 3 ("Rule engine"): a notification rule's root is
 * a rule group (AND / OR) of unary rules (IS / NOT) over functions (EQUALS,
 * ANY_OF, ALWAYS_TRUE). Evaluation lives in the domain package (domain rules §5).
 */

/** A scalar a function compares a record field with. */
const ZRuleScalar = z.union([z.string(), z.number(), z.boolean()]);

/**
 * "Function: id, field, function_operator, value." value is a scalar for
 * EQUALS, a list for ANY_OF, and absent or null for ALWAYS_TRUE.
 */
export const ZRuleFunction = z
  .object({
    id: z.string().optional(),
    field: z.string().optional(),
    function_operator: ZFunctionOperator.optional(),
    value: z
      .union([ZRuleScalar, z.array(ZRuleScalar)])
      .nullable()
      .optional(),
  })
  .meta({ id: 'RuleFunction' });
export type TRuleFunction = z.infer<typeof ZRuleFunction>;

/** "Unary rule: id, function, operator." */
export const ZUnaryRule = z
  .object({
    id: z.string().optional(),
    function: ZRuleFunction.optional(),
    operator: ZUnaryOperator.optional(),
  })
  .meta({ id: 'UnaryRule' });
export type TUnaryRule = z.infer<typeof ZUnaryRule>;

/** "Rule group: id, operator, unary_children." */
export const ZRuleGroup = z
  .object({
    id: z.string().optional(),
    operator: ZRuleCombinator.optional(),
    unary_children: z.array(ZUnaryRule).optional(),
  })
  .meta({ id: 'RuleGroup' });
export type TRuleGroup = z.infer<typeof ZRuleGroup>;

/**
 * "Notification rule: id, name, users, root_rule. name, users and root_rule are
 * required." users are user ids.
 */
export const ZNotificationRule = z
  .object({
    id: z.string().optional(),
    name: z.string(),
    users: z.array(z.string()),
    root_rule: ZRuleGroup,
  })
  .meta({ id: 'NotificationRule' });
export type TNotificationRule = z.infer<typeof ZNotificationRule>;
