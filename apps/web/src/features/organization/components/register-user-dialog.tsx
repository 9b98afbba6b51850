import type { TOrg, TRole, TUserRegistration } from '@coldtrace/contract';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { FormDialog } from '../../../components/form-dialog';
import { isApiError } from '../../../lib/api-error';
import { errorMessage } from '../../../components/error-handler';
import { useRegisterUser } from '../api/register-user';
import {
  REGISTER_FIELDS,
  REGISTER_LABELS,
  validateRegisterForm,
  type RegisterField,
} from '../register-form';

/**
 * Register a user in the session organization with one of its roles (issue 34): the
 * server e-mails an invitation, and the person becomes a member only by accepting it.
 * A server administrator (`direct`) adds the person at once.
 */
export function RegisterUserDialog({
  organization,
  roles,
  direct,
  onClose,
  onSaved,
}: {
  organization: TOrg;
  roles: readonly TRole[];
  /** The caller is a server administrator: the person is added, not invited. */
  direct: boolean;
  onClose: () => void;
  onSaved: (registration: TUserRegistration, email: string) => void;
}) {
  const [values, setValues] = useState<Record<RegisterField, string>>({
    username: '',
    first_name: '',
    last_name: '',
    email: '',
    organization_id: organization.id,
    role_id: roles.find((r) => r.name === 'Viewer')?.id ?? '',
  });
  const [errors, setErrors] = useState<Partial<Record<RegisterField, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const register = useRegisterUser();

  const set = (field: RegisterField, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = () => {
    const found = validateRegisterForm(values);
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0) return;
    register.mutate(
      {
        username: values.username.trim(),
        first_name: values.first_name.trim(),
        last_name: values.last_name.trim(),
        email: values.email.trim(),
        organization_id: values.organization_id,
        role_id: values.role_id,
      },
      {
        onSuccess: (registration) => onSaved(registration, values.email.trim()),
        onError: (error) => {
          const fields = isApiError(error) ? error.fields : {};
          const known = REGISTER_FIELDS.filter((f) => fields[f]);
          if (known.length > 0) {
            setErrors(Object.fromEntries(known.map((f) => [f, fields[f]])));
          } else {
            setFormError(errorMessage(error));
          }
        },
      },
    );
  };

  const text = (field: RegisterField, extra: Record<string, unknown> = {}) => (
    <TextField
      label={REGISTER_LABELS[field]}
      value={values[field]}
      onChange={(event) => set(field, event.target.value)}
      error={Boolean(errors[field])}
      helperText={errors[field]}
      required
      fullWidth
      autoComplete="off"
      {...extra}
    />
  );

  return (
    <FormDialog
      title="Register a user"
      onClose={onClose}
      onSubmit={submit}
      pending={register.isPending}
      error={formError}
      submitLabel="Register"
    >
      <Stack spacing={2}>
        <Typography variant="body2" color="text.secondary">
          {direct
            ? `As a server administrator, you add them to ${organization.name} directly; they get an e-mail saying so.`
            : `We e-mail them an invitation. They become a member of ${organization.name} when they accept it.`}
        </Typography>
        {text('username', { autoFocus: true })}
        {text('first_name')}
        {text('last_name')}
        {text('email', { type: 'email' })}
        <TextField label="Organization" value={organization.name} required fullWidth disabled />
        <TextField
          select
          label="Role"
          value={values.role_id}
          onChange={(event) => set('role_id', event.target.value)}
          error={Boolean(errors.role_id)}
          helperText={errors.role_id ?? 'What the user may do in this organization'}
          required
          fullWidth
        >
          {roles.map((role) => (
            <MenuItem key={role.id} value={role.id}>
              {role.name}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
    </FormDialog>
  );
}
