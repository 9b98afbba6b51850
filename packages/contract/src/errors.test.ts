import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ZUser, ZUserRegister } from './entities/user';
import { ZNotificationSetting } from './entities/notification-settings';
import { ZTagReportUpload } from './entities/uploads';
import {
  ModelShapeError,
  describeIssue,
  issuePath,
  issuesToFields,
  missingParameterMessage,
  parseModel,
} from './errors';

const validUser = {
  id: 'u1',
  username: 'ada',
  role_memberships: [
    { id: 'm1', role_id: 'r1', role_name: 'Administrator', organization_id: 'o1' },
  ],
  current_session_permissions: ['sysAdminUser'],
  settings: { degrees_unit: 'C', timezone: 'UTC' },
  org_settings: { alarm_notify_my_scans_orgs: [], alarm_notify_any_scans_orgs: ['o1'] },
  has_agreed_to_tos: true,
};

/** The `fields` of the ModelShapeError that parseModel throws for `input`. */
function shapeFields(schema: z.ZodType, input: unknown, model = 'Model'): Record<string, string> {
  try {
    parseModel(schema, input, model);
  } catch (error) {
    expect(error).toBeInstanceOf(ModelShapeError);
    return (error as ModelShapeError).fields;
  }
  throw new Error('expected a ModelShapeError');
}

describe('parseModel (spec section 8, "Model shape violation") [SPEC-5.1, SPEC-8]', () => {
  it('returns the parsed value when the shape is right', () => {
    expect(parseModel(ZUser, validUser, 'User').username).toBe('ada');
  });

  it('names a missing required field', () => {
    const { username: _omit, ...input } = validUser;
    expect(shapeFields(ZUser, input)).toEqual({ username: "Missing required field 'username'" });
  });

  it('names a field of the wrong type and the type received', () => {
    expect(shapeFields(ZUser, { ...validUser, has_agreed_to_tos: 'yes' })).toEqual({
      has_agreed_to_tos: "Field 'has_agreed_to_tos' must be a boolean, received string",
    });
    expect(shapeFields(ZUser, { ...validUser, id: 7 })).toEqual({
      id: "Field 'id' must be a string, received number",
    });
    expect(shapeFields(ZUser, { ...validUser, settings: null })).toEqual({
      settings: "Field 'settings' must be an object, received null",
    });
  });

  it('rejects a list field that is not an array', () => {
    expect(
      shapeFields(ZUser, { ...validUser, current_session_permissions: 'sysAdminUser' }),
    ).toEqual({
      current_session_permissions:
        "Field 'current_session_permissions' must be an array, received string",
    });
    expect(
      shapeFields(ZNotificationSetting, {
        notification_type: 'Alarm',
        status: 'Test',
        to_list: {},
      }),
    ).toEqual({
      to_list: "Field 'to_list' must be an array, received object",
    });
  });

  it('gives nested paths with list indexes', () => {
    const input = {
      ...validUser,
      role_memberships: [
        validUser.role_memberships[0],
        { id: 'm2', role_name: 'Viewer', organization_id: 'o2' },
      ],
    };
    expect(shapeFields(ZUser, input)).toEqual({
      'role_memberships.1.role_id': "Missing required field 'role_memberships.1.role_id'",
    });
    const first = {
      ...validUser,
      role_memberships: [{ id: 'm', role_name: 'x', organization_id: 'o' }],
    };
    expect(shapeFields(ZUser, first)['role_memberships.0.role_id']).toBe(
      "Missing required field 'role_memberships.0.role_id'",
    );
  });

  it('lists the allowed enum values', () => {
    expect(
      shapeFields(ZUser, { ...validUser, settings: { degrees_unit: 'K', timezone: 'UTC' } }),
    ).toEqual({ 'settings.degrees_unit': `Field 'settings.degrees_unit' must be one of "C", "F"` });
    expect(shapeFields(ZNotificationSetting, { notification_type: 'Alarm', status: 'On' })).toEqual(
      {
        status: `Field 'status' must be one of "Enabled", "Disabled", "Test"`,
      },
    );
  });

  it('calls an absent enum field missing, not a wrong value', () => {
    expect(shapeFields(ZNotificationSetting, { status: 'Enabled' })).toEqual({
      notification_type: "Missing required field 'notification_type'",
    });
  });

  it('reports every faulty field, and the model name in the message', () => {
    let caught: unknown;
    try {
      parseModel(ZTagReportUpload, { tag_id: 'T1', high_threshold: '8' }, 'TagReportUpload');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ModelShapeError);
    const error = caught as ModelShapeError;
    expect(error.name).toBe('ModelShapeError');
    expect(error.model).toBe('TagReportUpload');
    expect(error.fields).toEqual({
      timestamp: "Missing required field 'timestamp'",
      high_threshold: "Field 'high_threshold' must be a number, received string",
      low_threshold: "Missing required field 'low_threshold'",
      measurement_interval: "Missing required field 'measurement_interval'",
      start_delay: "Missing required field 'start_delay'",
    });
    expect(error.message).toMatch(/^TagReportUpload: Missing required field 'timestamp'; /);
  });

  it('uses the checks of the forms for other issues', () => {
    const fields = shapeFields(ZUserRegister, {
      username: 'ada',
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'not-an-e-mail',
      organization_id: 'o1',
      role_id: 'r1',
    });
    expect(Object.keys(fields)).toEqual(['email']);
    expect(fields.email).toMatch(/^Field 'email': /);
  });
});

describe('describeIssue [SPEC-5.1, SPEC-8]', () => {
  const issueOf = (schema: z.ZodType, input: unknown) => {
    const result = schema.safeParse(input);
    if (result.success) throw new Error('expected a failure');
    return result.error.issues[0]!;
  };

  it("calls a root-level value 'value'", () => {
    expect(describeIssue(issueOf(z.string(), undefined))).toBe("Missing required field 'value'");
    expect(describeIssue(issueOf(z.array(z.string()), 'a'))).toBe(
      "Field 'value' must be an array, received string",
    );
  });

  it('names integer, array and object expectations with "an"', () => {
    expect(describeIssue(issueOf(z.object({ n: z.int() }), { n: 1.5 }))).toBe(
      "Field 'n' must be an integer, received number",
    );
    expect(describeIssue(issueOf(z.object({ o: z.object({}) }), { o: [] }))).toBe(
      "Field 'o' must be an object, received array",
    );
  });

  it('reads the received type from issues with and without the input', () => {
    const schema = z.object({ flag: z.boolean() });
    const plain = schema.safeParse({ flag: 'yes' });
    const withInput = schema.safeParse({ flag: 'yes' }, { reportInput: true });
    expect(describeIssue(plain.error!.issues[0]!)).toBe(
      "Field 'flag' must be a boolean, received string",
    );
    expect(describeIssue(withInput.error!.issues[0]!)).toBe(
      "Field 'flag' must be a boolean, received string",
    );
    expect(describeIssue(schema.safeParse({}).error!.issues[0]!)).toBe(
      "Missing required field 'flag'",
    );
    expect(describeIssue(issueOf(z.object({ t: z.number() }), { t: Number.NaN }))).toBe(
      "Field 't' must be a number, received NaN",
    );
  });

  it('still names the field and type when a custom message hides the received type', () => {
    const schema = z.object({ s: z.string({ error: 'give a name' }) });
    expect(describeIssue(schema.safeParse({ s: 3 }).error!.issues[0]!)).toBe(
      "Field 's' must be a string",
    );
    expect(describeIssue(schema.safeParse({ s: 3 }, { reportInput: true }).error!.issues[0]!)).toBe(
      "Field 's' must be a string, received number",
    );
  });

  it('names unknown fields of strict objects', () => {
    expect(describeIssue(issueOf(z.strictObject({ a: z.string() }), { a: 'x', b: 1 }))).toBe(
      "Unknown field 'b'",
    );
    expect(describeIssue(issueOf(z.object({ o: z.strictObject({}) }), { o: { b: 1, c: 2 } }))).toBe(
      "Unknown fields 'b', 'c' in 'o'",
    );
  });

  it('joins paths with dots', () => {
    expect(issuePath(['a', 0, 'b'])).toBe('a.0.b');
    expect(issuePath([])).toBe('');
  });

  it('keeps the first reason per field', () => {
    const schema = z.object({ s: z.string().min(3).regex(/^\d+$/) });
    const result = schema.safeParse({ s: 'a' });
    expect(result.success).toBe(false);
    const fields = issuesToFields(result.error!.issues);
    expect(Object.keys(fields)).toEqual(['s']);
    expect(fields.s).toMatch(/^Field 's': .*3/);
  });
});

describe('missingParameterMessage (spec section 8) [SPEC-5.3]', () => {
  it('has the spec wording', () => {
    expect(missingParameterMessage('record_id', 'xt1RecordGet')).toBe(
      "Missing the required parameter 'record_id' when calling xt1RecordGet",
    );
  });
});
