import type { TUserRegister } from '@coldtrace/contract';

/** The register form (spec sections 3 and 5): all six fields are required. */
export type RegisterField = keyof TUserRegister;

export const REGISTER_FIELDS: readonly RegisterField[] = [
  'username',
  'first_name',
  'last_name',
  'email',
  'organization_id',
  'role_id',
];

export const REGISTER_LABELS: Record<RegisterField, string> = {
  username: 'Username',
  first_name: 'First name',
  last_name: 'Last name',
  email: 'E-mail address',
  organization_id: 'Organization',
  role_id: 'Role',
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The message under each field at fault; empty when the form may be sent. */
export function validateRegisterForm(
  values: Record<RegisterField, string>,
): Partial<Record<RegisterField, string>> {
  const errors: Partial<Record<RegisterField, string>> = {};
  for (const field of REGISTER_FIELDS) {
    if (values[field].trim() === '') errors[field] = `${REGISTER_LABELS[field]} is required`;
  }
  if (!errors.email && !EMAIL.test(values.email.trim())) {
    errors.email = 'Enter an e-mail address such as name@example.com';
  }
  return errors;
}
