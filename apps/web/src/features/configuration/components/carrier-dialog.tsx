import { CONFIG_NAME_MAX_LENGTH, type TCarrierDefinition } from '@coldtrace/contract';
import TextField from '@mui/material/TextField';
import { FormDialog } from '../../../components/form-dialog';
import { useCreateCarrier } from '../api/create-carrier';
import { useUpdateCarrier } from '../api/update-carrier';
import {
  CARRIER_FIELDS,
  validateCarrierForm,
  type CarrierField,
  type CarrierFormValues,
} from '../carrier-form';
import { useFormState } from '../use-form-state';

/** Create or rename a carrier (a name already used in the organization is refused under the input). */
export function CarrierDialog({
  carrier,
  onClose,
  onSaved,
}: {
  carrier?: TCarrierDefinition;
  onClose: () => void;
  onSaved: (carrier: TCarrierDefinition) => void;
}) {
  const initialName = carrier?.name ?? '';
  const form = useFormState<CarrierFormValues, CarrierField>(
    { name: initialName },
    validateCarrierForm,
  );
  const create = useCreateCarrier();
  const update = useUpdateCarrier();

  const submit = () => {
    if (!form.check()) return;
    const name = form.values.name.trim();
    const handlers = {
      onSuccess: onSaved,
      onError: (error: unknown) => form.fail(error, CARRIER_FIELDS),
    };
    if (carrier?.id) {
      if (name === initialName.trim()) {
        onClose();
        return;
      }
      update.mutate({ carrierId: carrier.id, body: { name } }, handlers);
    } else {
      create.mutate({ name }, handlers);
    }
  };

  return (
    <FormDialog
      title={carrier ? 'Edit carrier' : 'Add carrier'}
      onClose={onClose}
      onSubmit={submit}
      pending={create.isPending || update.isPending}
      error={form.formError}
      maxWidth="xs"
    >
      <TextField
        label="Carrier name"
        value={form.values.name}
        onChange={(event) => form.set('name', event.target.value)}
        error={Boolean(form.errors.name)}
        helperText={form.errors.name ?? 'Unique in your organization'}
        required
        autoFocus
        fullWidth
        autoComplete="off"
        slotProps={{ htmlInput: { maxLength: CONFIG_NAME_MAX_LENGTH } }}
      />
    </FormDialog>
  );
}
