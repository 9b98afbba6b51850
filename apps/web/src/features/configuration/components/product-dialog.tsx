import type { TDegreesUnit, TProductDefinition } from '@coldtrace/contract';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, type ReactNode } from 'react';
import { FormDialog } from '../../../components/form-dialog';
import { useCreateProduct } from '../api/create-product';
import { useUpdateProduct } from '../api/update-product';
import {
  DURATION_HELP,
  EMPTY_PRODUCT_FORM,
  PRODUCT_FIELDS,
  productCreateBody,
  productFormFrom,
  productUpdateBody,
  validateProductForm,
  type ProductField,
  type ProductFormValues,
} from '../product-form';
import { useFormState } from '../use-form-state';

function FieldGroup({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="fieldset" sx={{ border: 0, m: 0, p: 0, minWidth: 0 }}>
      <Typography component="legend" variant="subtitle2" sx={{ mb: 1.5, p: 0 }}>
        {title}
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
        }}
      >
        {children}
      </Box>
    </Box>
  );
}

/**
 * Create or edit a product. Thresholds are typed in the user's unit and sent
 * in °C; an edit sends only what changed.
 */
export function ProductDialog({
  product,
  unit,
  onClose,
  onSaved,
}: {
  /** The product to edit; absent to create one. */
  product?: TProductDefinition;
  unit: TDegreesUnit;
  onClose: () => void;
  onSaved: (product: TProductDefinition) => void;
}) {
  const initial = useMemo(
    () => (product ? productFormFrom(product, unit) : EMPTY_PRODUCT_FORM),
    [product, unit],
  );
  const form = useFormState<ProductFormValues, ProductField>(initial, (values) =>
    validateProductForm(values, unit),
  );
  const create = useCreateProduct();
  const update = useUpdateProduct();
  const pending = create.isPending || update.isPending;

  const submit = () => {
    if (!form.check()) return;
    const handlers = {
      onSuccess: onSaved,
      onError: (error: unknown) => form.fail(error, PRODUCT_FIELDS),
    };
    if (product?.id) {
      const body = productUpdateBody(form.values, initial, unit);
      if (Object.keys(body).length === 0) {
        onClose();
        return;
      }
      update.mutate({ productId: product.id, body }, handlers);
    } else {
      create.mutate(productCreateBody(form.values, unit), handlers);
    }
  };

  const field = (name: ProductField, label: string, helperText?: string, extra = {}) => (
    <TextField
      label={label}
      value={form.values[name]}
      onChange={(event) => form.set(name, event.target.value)}
      error={Boolean(form.errors[name])}
      helperText={form.errors[name] ?? helperText}
      fullWidth
      autoComplete="off"
      {...extra}
    />
  );
  const degrees = `°${unit}`;

  return (
    <FormDialog
      title={product ? 'Edit product' : 'Add product'}
      onClose={onClose}
      onSubmit={submit}
      pending={pending}
      error={form.formError}
    >
      <Box sx={{ display: 'grid', gap: 3 }}>
        {field('product_name', 'Product name', undefined, {
          required: true,
          autoFocus: true,
          slotProps: { htmlInput: { maxLength: 200 } },
        })}
        <FieldGroup title="Thresholds">
          {field('high_threshold', `High threshold (${degrees})`, 'An alarm above this')}
          {field('low_threshold', `Low threshold (${degrees})`, 'An alarm below this')}
          {field(
            'num_consecutive_excursions',
            'Consecutive excursions',
            'Readings in a row beyond a threshold before an alarm; blank means 1',
            { slotProps: { htmlInput: { inputMode: 'numeric' } } },
          )}
        </FieldGroup>
        <FieldGroup title="Cumulative limits">
          {field(
            'cumulative_high_threshold',
            `Cumulative high (${degrees})`,
            'Time spent above it is added up over the trip',
          )}
          {field('cumulative_duration_high', 'Allowed time above', DURATION_HELP)}
          {field(
            'cumulative_low_threshold',
            `Cumulative low (${degrees})`,
            'Time spent below it is added up over the trip',
          )}
          {field('cumulative_duration_low', 'Allowed time below', DURATION_HELP)}
        </FieldGroup>
      </Box>
    </FormDialog>
  );
}
