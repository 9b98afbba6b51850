import { z } from 'zod';

/**
 * One error catalogue (architecture note, convention 3): every error reply of
 * the API has the shape `ZErrorReply`, a stable `code` mapped to one HTTP status.
 */
export const ERROR_CODES = {
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  INVALID_CREDENTIALS: 400,
  BAD_REQUEST: 400,
  /**
   * A reason for change is needed (fields.reason), or the change closes an alarm and
   * must be signed with password and meaning (fields.password): send it again with them.
   */
  REASON_REQUIRED: 400,
  SIGNATURE_REQUIRED: 400,
  /** The organization requires a second factor and none was sent (fields.second_factor_code). */
  SECOND_FACTOR_REQUIRED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  CSRF_FAILED: 403,
  ACCOUNT_LOCKED: 403,
  /** The organization requires a second factor the user has not enrolled: enrol in the profile. */
  SECOND_FACTOR_NOT_ENROLLED: 403,
  /** The signed-in user has not agreed to the active terms of service (POST /api/auth/tos-agreement/). */
  TERMS_NOT_ACCEPTED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  THROTTLED: 429,
  INTERNAL: 500,
  /** The database is unreachable for the moment (the reply carries Retry-After): try again. */
  SERVICE_UNAVAILABLE: 503,
} as const;
export type TErrorCode = keyof typeof ERROR_CODES;
export const ZErrorCode = z.enum(Object.keys(ERROR_CODES) as [TErrorCode, ...TErrorCode[]]);

export const ZErrorReply = z
  .object({
    code: ZErrorCode,
    message: z.string(),
    /** Field at fault (dotted path, e.g. `geo_fence_settings.arrival_radius_meters`) to its reason. */
    fields: z.record(z.string(), z.string()).optional(),
  })
  .meta({ id: 'ErrorReply' });
export type TErrorReply = z.infer<typeof ZErrorReply>;

/** Dotted path of an issue, e.g. `organizations.0.name`. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

/**
 * Spec section 8, "Model shape violation: states the missing required field or
 * wrong type". One sentence per issue, naming the field.
 */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issuePath(issue.path) || 'value';
  if (issue.code === 'invalid_type') {
    const received = receivedOf(issue);
    const expected = issue.expected === 'int' ? 'integer' : issue.expected;
    if (received === 'undefined') return `Missing required field '${field}'`;
    if (received === undefined) return `Field '${field}' must be ${article(expected)}`;
    return `Field '${field}' must be ${article(expected)}, received ${received}`;
  }
  if (issue.code === 'invalid_value') {
    // An absent enum or literal field; Zod gives no received type, only the input (reportInput).
    if ('input' in issue && issue.input === undefined) return `Missing required field '${field}'`;
    return `Field '${field}' must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  if (issue.code === 'unrecognized_keys') {
    return `Unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `'${k}'`).join(', ')}${field === 'value' ? '' : ` in '${field}'`}`;
  }
  return `Field '${field}': ${issue.message}`;
}

/**
 * The type of the value at fault. Zod 4 puts the input on an issue only when
 * parsing with `reportInput: true` (parseModel does); otherwise read it from
 * Zod's own message ("Invalid input: expected boolean, received string").
 * Zod notes NaN and Infinity itself in `received`.
 */
function receivedOf(issue: z.core.$ZodIssueInvalidType): string | undefined {
  const noted = (issue as { received?: unknown }).received;
  if (typeof noted === 'string') return noted;
  if ('input' in issue) return receivedType(issue.input);
  return /received (\w+)$/.exec(issue.message)?.[1];
}

function receivedType(input: unknown): string {
  if (input === undefined) return 'undefined';
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  return typeof input;
}

function article(expected: string): string {
  if (expected === 'array' || expected === 'object' || expected === 'integer')
    return `an ${expected}`;
  return `a ${expected}`;
}

/** All issues of a failed parse as `{ field: reason }` (first reason per field). */
export function issuesToFields(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issuePath(issue.path) || '_';
    fields[key] ??= describeIssue(issue);
  }
  return fields;
}

/** Error thrown by `parseModel` when a reply or form does not have the entity's shape. */
export class ModelShapeError extends Error {
  constructor(
    readonly model: string,
    readonly fields: Record<string, string>,
  ) {
    super(`${model}: ${Object.values(fields).join('; ')}`);
    this.name = 'ModelShapeError';
  }
}

/** Parse `input` as `schema`; on a shape violation throw a `ModelShapeError` naming the field. */
export function parseModel<S extends z.ZodType>(
  schema: S,
  input: unknown,
  model: string,
): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  throw new ModelShapeError(model, issuesToFields(result.error.issues));
}

/** Spec section 8: message of a call whose required parameter is absent. */
export function missingParameterMessage(name: string, operation: string): string {
  return `Missing the required parameter '${name}' when calling ${operation}`;
}
