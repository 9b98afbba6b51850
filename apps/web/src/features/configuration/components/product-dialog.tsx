import type { TDegreesUnit, TProductDefinition } from '@coldtrace/contract';
import AddRounded from '@mui/icons-material/AddRounded';
import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState, type ReactNode } from 'react';
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
import {
  EMPTY_BAND,
  STABILITY_BUDGET_MAX_BANDS,
  bandRowsFrom,
  bandsBody,
  hasBandErrors,
  validateBandRows,
  type BandRow,
  type BandRowErrors,
} from '../stability-budget-form';
import { useFormState } from '../use-form-state';

/** The stability budget's bands: a row each (direction, limit, minutes allowed). */
function BandRows({
  rows,
  errors,
  unit,
  onChange,
}: {
  rows: BandRow[];
  errors: BandRowErrors[];
  unit: TDegreesUnit;
  onChange: (rows: BandRow[]) => void;
}) {
  const set = (i: number, patch: Partial<BandRow>) =>
    onChange(rows.map((row, j) => (j === i ? { ...row, ...patch } : row)));
  return (
    <Box component="fieldset" sx={{ border: 0, m: 0, p: 0, minWidth: 0 }}>
      <Typography component="legend" variant="subtitle2" sx={{ mb: 0.5, p: 0 }}>
        Stability budget
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        Time the product may spend beyond a limit, added up over every leg of a shipment (same
        shipping reference). An alarm is raised when a band is used up.
      </Typography>
      {rows.map((row, i) => (
        <Box
          key={i}
          sx={{
            display: 'grid',
            gap: 1.5,
            mb: 1.5,
            alignItems: 'start',
            gridTemplateColumns: { xs: '1fr 1fr auto', sm: '8rem 1fr 1fr auto' },
          }}
        >
          <TextField
            select
            label="Direction"
            value={row.direction}
            onChange={(event) => set(i, { direction: event.target.value as BandRow['direction'] })}
            sx={{ gridColumn: { xs: '1 / -1', sm: 'auto' } }}
          >
            <MenuItem value="ABOVE">Above</MenuItem>
            <MenuItem value="BELOW">Below</MenuItem>
          </TextField>
          <TextField
            label={`Limit (°${unit})`}
            value={row.limit}
            onChange={(event) => set(i, { limit: event.target.value })}
            error={Boolean(errors[i]?.limit)}
            helperText={
              errors[i]?.limit ?? (unit === 'F' ? 'Kept to the nearest 0.1 °C' : undefined)
            }
            autoComplete="off"
            slotProps={{ htmlInput: { inputMode: 'decimal', 'aria-label': `Band ${i + 1} limit` } }}
          />
          <TextField
            label="Minutes allowed"
            value={row.minutes}
            onChange={(event) => set(i, { minutes: event.target.value })}
            error={Boolean(errors[i]?.minutes)}
            helperText={errors[i]?.minutes}
            autoComplete="off"
            slotProps={{
              htmlInput: { inputMode: 'numeric', 'aria-label': `Band ${i + 1} minutes allowed` },
            }}
          />
          <IconButton
            aria-label={`Remove band ${i + 1}`}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
            sx={{ mt: 1 }}
          >
            <DeleteOutlineRounded />
          </IconButton>
        </Box>
      ))}
      <Button
        startIcon={<AddRounded />}
        onClick={() => onChange([...rows, { ...EMPTY_BAND }])}
        disabled={rows.length >= STABILITY_BUDGET_MAX_BANDS}
      >
        Add band
      </Button>
    </Box>
  );
}

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
  const initialBands = useMemo(
    () => bandRowsFrom(product?.stability_budget, unit),
    [product, unit],
  );
  const [bands, setBands] = useState<BandRow[]>(initialBands);
  const [bandErrors, setBandErrors] = useState<BandRowErrors[]>([]);
  const create = useCreateProduct();
  const update = useUpdateProduct();
  const pending = create.isPending || update.isPending;

  const submit = () => {
    const checkedBands = validateBandRows(bands, unit);
    setBandErrors(checkedBands);
    const formValid = form.check();
    if (!formValid || hasBandErrors(checkedBands)) return;
    const budget = bandsBody(bands, unit);
    const budgetChanged = JSON.stringify(budget) !== JSON.stringify(bandsBody(initialBands, unit));
    const handlers = {
      onSuccess: onSaved,
      onError: (error: unknown) => form.fail(error, PRODUCT_FIELDS),
    };
    if (product?.id) {
      const body = {
        ...productUpdateBody(form.values, initial, unit),
        ...(budgetChanged ? { stability_budget: budget } : {}),
      };
      if (Object.keys(body).length === 0) {
        onClose();
        return;
      }
      update.mutate({ productId: product.id, body }, handlers);
    } else {
      create.mutate(
        { ...productCreateBody(form.values, unit), stability_budget: budget },
        handlers,
      );
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
        <BandRows rows={bands} errors={bandErrors} unit={unit} onChange={setBands} />
      </Box>
    </FormDialog>
  );
}
