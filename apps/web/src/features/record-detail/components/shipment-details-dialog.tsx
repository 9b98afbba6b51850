import type {
  TDegreesUnit,
  TDropdownInfo,
  TNameAddressRef,
  TPermissionName,
  TRecord,
} from '@coldtrace/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState, type ReactNode } from 'react';
import { useChangeSignature } from '../../../components/change-signature';
import { ChangeSignatureFields } from '../../../components/change-signature-fields';
import { FormDialog } from '../../../components/form-dialog';
import { useRecordAlarms } from '../api/get-record-alarms';
import { useUpdateShipment } from '../api/update-shipment';
import { touchesReasonFields } from '../change-reason';
import {
  applyProduct,
  DURATION_HELP,
  SHIPMENT_FIELD_PERMISSIONS,
  shipmentChanges,
  shipmentFormFrom,
  TEXT_MAX_LENGTH,
  validateShipmentForm,
  type ShipmentField,
  type ShipmentFormErrors,
  type ShipmentFormValues,
} from '../shipment-form';

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="fieldset" sx={{ border: 0, m: 0, p: 0, minWidth: 0 }}>
      <Typography component="legend" variant="subtitle2" sx={{ mb: 1.5, p: 0 }}>
        {title}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        {children}
      </Box>
    </Box>
  );
}

interface Option {
  value: string;
  label: string;
}

/** The list's options, with the current value kept when the list does not hold it. */
function withCurrent(options: Option[], current: Option | null): Option[] {
  if (!current || current.value === '' || options.some((o) => o.value === current.value)) {
    return options;
  }
  return [...options, current];
}

function partyOptions(
  list: TDropdownInfo['origin_locations'],
  current: TNameAddressRef | null | undefined,
): Option[] {
  const options = (list ?? [])
    .filter((l) => l.id)
    .map((l) => ({ value: l.id!, label: l.name ?? l.id! }));
  return withCurrent(
    options,
    current?.id ? { value: current.id, label: current.name || current.id } : null,
  );
}

function nameOptions(names: (string | undefined)[], current: string): Option[] {
  const options = [...new Set(names.filter((n): n is string => Boolean(n)))].map((n) => ({
    value: n,
    label: n,
  }));
  return withCurrent(options, current ? { value: current, label: current } : null);
}

/**
 * Edit shipment details (spec section 4): references, parties, carrier,
 * product (which fills its thresholds and limits), PO number, program,
 * thresholds in the user's unit and cumulative limits. Fields the user may
 * not change are read-only. Saving shows the new values at once and sends
 * only what changed; a failure goes to the shared error handler. When the
 * record has alarms, a change of thresholds, limits, product or parties needs
 * a reason for change; when the server answers that the change closes alarms,
 * the dialog asks for the signature (meaning and password) and sends again.
 */
export function ShipmentDetailsDialog({
  record,
  dropdown,
  dropdownError,
  unit,
  permissions,
  onClose,
}: {
  record: TRecord;
  dropdown: TDropdownInfo | undefined;
  dropdownError: boolean;
  unit: TDegreesUnit;
  permissions: readonly string[];
  onClose: () => void;
}) {
  const initial = useMemo(() => shipmentFormFrom(record, unit), [record, unit]);
  const [values, setValues] = useState<ShipmentFormValues>(initial);
  const [errors, setErrors] = useState<ShipmentFormErrors>({});
  const update = useUpdateShipment();
  const alarms = useRecordAlarms(record.id!);
  const hasAlarms = (alarms.data?.length ?? 0) > 0;
  const signature = useChangeSignature(hasAlarms && touchesReasonFields(initial, values));
  const may = (field: ShipmentField) =>
    permissions.includes(SHIPMENT_FIELD_PERMISSIONS[field] as TPermissionName);
  const degrees = `°${unit}`;

  const set = (field: ShipmentField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const chooseProduct = (name: string) => {
    const product = dropdown?.product_definitions?.find((p) => p.product_name === name);
    if (product && may('high_threshold')) {
      setValues((current) => applyProduct(current, product, unit));
      setErrors({});
    } else {
      set('product_designation', name);
    }
  };

  const submit = () => {
    const found = validateShipmentForm(values, unit, initial);
    setErrors(found);
    const signed = signature.check();
    if (Object.values(found).some(Boolean) || !signed) return;
    const changes = shipmentChanges(initial, values, unit);
    if (Object.keys(changes).length === 0) {
      onClose();
      return;
    }
    update.mutate(
      { recordId: record.id!, changes, change: signature.body(), dropdown },
      {
        onSuccess: onClose,
        // A reason or a signature is asked for here; anything else went to the error handler.
        onError: (error) => {
          if (!signature.fail(error)) onClose();
        },
      },
    );
  };

  const field = (name: ShipmentField, label: string, helper?: string, extra: object = {}) => (
    <TextField
      label={label}
      value={values[name]}
      onChange={(event) => set(name, event.target.value)}
      error={Boolean(errors[name])}
      helperText={errors[name] ?? helper}
      disabled={!may(name)}
      fullWidth
      autoComplete="off"
      {...extra}
    />
  );
  const select = (
    name: ShipmentField,
    label: string,
    options: Option[],
    onChange?: (v: string) => void,
  ) =>
    field(name, label, undefined, {
      select: true,
      onChange: (event: { target: { value: string } }) =>
        onChange ? onChange(event.target.value) : set(name, event.target.value),
      children: [
        <MenuItem key="" value="">
          <em>None</em>
        </MenuItem>,
        ...options.map((o) => (
          <MenuItem key={o.value} value={o.value}>
            {o.label}
          </MenuItem>
        )),
      ],
    });
  const textLimit = { slotProps: { htmlInput: { maxLength: TEXT_MAX_LENGTH } } };

  return (
    <FormDialog
      title="Edit shipment details"
      onClose={onClose}
      onSubmit={submit}
      pending={update.isPending}
      submitLabel={signature.step.signing ? 'Sign and save' : 'Save'}
      maxWidth="md"
    >
      <Box sx={{ display: 'grid', gap: 3 }}>
        {dropdownError ? (
          <Alert severity="warning">
            The lists of products, carriers and locations could not be loaded; the current values
            are kept.
          </Alert>
        ) : null}
        <Group title="References">
          {field('primary_reference', 'Primary reference', undefined, {
            ...textLimit,
            autoFocus: true,
          })}
          {field('secondary_reference', 'Secondary reference', undefined, textLimit)}
          {field('shipping_reference', 'Shipping reference', undefined, textLimit)}
          {field('po_number', 'PO number', undefined, textLimit)}
          {field('program_name', 'Program', undefined, textLimit)}
        </Group>
        <Group title="Parties and goods">
          {select(
            'shipper_name_address_id',
            'Shipper (origin)',
            partyOptions(dropdown?.origin_locations, record.shipper_name_address),
          )}
          {select(
            'receiver_name_address_id',
            'Receiver (destination)',
            partyOptions(dropdown?.destination_locations, record.receiver_name_address),
          )}
          {select(
            'carrier',
            'Carrier',
            nameOptions(
              (dropdown?.carrier_definitions ?? []).map((c) => c.name),
              values.carrier,
            ),
          )}
          {select(
            'product_designation',
            'Product',
            nameOptions(
              (dropdown?.product_definitions ?? []).map((p) => p.product_name),
              values.product_designation,
            ),
            chooseProduct,
          )}
        </Group>
        <Group title="Thresholds">
          {field('high_threshold', `High threshold (${degrees})`, 'An alarm above this')}
          {field('low_threshold', `Low threshold (${degrees})`, 'An alarm below this')}
          {field(
            'num_consecutive_excursions',
            'Consecutive excursions',
            'Readings in a row beyond a threshold before an alarm',
            { slotProps: { htmlInput: { inputMode: 'numeric' } } },
          )}
        </Group>
        <Group title="Cumulative limits">
          {field('cumulative_high_threshold', `Cumulative high (${degrees})`)}
          {field('cumulative_duration_high', 'Allowed time above', DURATION_HELP)}
          {field('cumulative_low_threshold', `Cumulative low (${degrees})`)}
          {field('cumulative_duration_low', 'Allowed time below', DURATION_HELP)}
        </Group>
        <Typography variant="body2" color="text.secondary">
          Changing thresholds or limits re-evaluates the record&apos;s alarms.
        </Typography>
        <ChangeSignatureFields state={signature} reasonVisible={hasAlarms} />
      </Box>
    </FormDialog>
  );
}
