import {
  CONFIG_ADDRESS_MAX_LENGTH,
  CONFIG_NAME_MAX_LENGTH,
  type TNameAndAddressLocation,
} from '@coldtrace/contract';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useMemo } from 'react';
import { useChangeSignature } from '../../../components/change-signature';
import { ChangeSignatureFields } from '../../../components/change-signature-fields';
import { FormDialog } from '../../../components/form-dialog';
import { TimeZoneField } from '../../../components/time-zone-field';
import { useCreateTravelLocation } from '../api/create-travel-location';
import { useUpdateTravelLocation } from '../api/update-travel-location';
import {
  EMPTY_TRAVEL_LOCATION_FORM,
  TRAVEL_LOCATION_FIELDS,
  travelLocationCreateBody,
  travelLocationFormFrom,
  travelLocationUpdateBody,
  validateTravelLocationForm,
  type TravelLocationField,
  type TravelLocationFormValues,
} from '../travel-location-form';
import { useFormState } from '../use-form-state';

/** Create or edit a travel location: name, address, position, origin / destination, time zone. */
export function TravelLocationDialog({
  location,
  onClose,
  onSaved,
}: {
  location?: TNameAndAddressLocation;
  onClose: () => void;
  onSaved: (location: TNameAndAddressLocation) => void;
}) {
  const initial = useMemo(
    () => (location ? travelLocationFormFrom(location) : EMPTY_TRAVEL_LOCATION_FORM),
    [location],
  );
  const form = useFormState<TravelLocationFormValues, TravelLocationField>(
    initial,
    validateTravelLocationForm,
  );
  const create = useCreateTravelLocation();
  const update = useUpdateTravelLocation();
  // Moving a location may re-evaluate trips: optional until the server asks for it.
  const signature = useChangeSignature(false);
  const rolesLabelId = useId();
  const rolesHelpId = useId();

  const submit = () => {
    const valid = form.check();
    if (!signature.check() || !valid) return;
    const handlers = {
      onSuccess: onSaved,
      onError: (error: unknown) => {
        if (!signature.fail(error)) form.fail(error, TRAVEL_LOCATION_FIELDS);
      },
    };
    if (location?.id) {
      const body = travelLocationUpdateBody(form.values, initial);
      if (Object.keys(body).length === 0) {
        onClose();
        return;
      }
      update.mutate(
        { travelLocationId: location.id, body: { ...body, ...signature.body() } },
        handlers,
      );
    } else {
      create.mutate(travelLocationCreateBody(form.values), handlers);
    }
  };

  const text = (
    name: 'name' | 'address' | 'latitude' | 'longitude',
    label: string,
    helperText: string | undefined,
    extra = {},
  ) => (
    <TextField
      label={label}
      value={form.values[name]}
      onChange={(event) => form.set(name, event.target.value)}
      error={Boolean(form.errors[name])}
      helperText={form.errors[name] ?? helperText}
      required
      fullWidth
      autoComplete="off"
      {...extra}
    />
  );
  const rolesError = form.errors.origin ?? form.errors.destination;

  return (
    <FormDialog
      title={location ? 'Edit travel location' : 'Add travel location'}
      onClose={onClose}
      onSubmit={submit}
      pending={create.isPending || update.isPending}
      error={form.formError}
      submitLabel={signature.step.signing ? 'Sign and save' : 'Save'}
    >
      <Box sx={{ display: 'grid', gap: 2.5 }}>
        {text('name', 'Name', undefined, {
          autoFocus: true,
          slotProps: { htmlInput: { maxLength: CONFIG_NAME_MAX_LENGTH } },
        })}
        {text('address', 'Address', undefined, {
          multiline: true,
          minRows: 2,
          slotProps: { htmlInput: { maxLength: CONFIG_ADDRESS_MAX_LENGTH } },
        })}
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          {text('latitude', 'Latitude', 'Decimal degrees, -90 to 90 (north positive)')}
          {text('longitude', 'Longitude', 'Decimal degrees, -180 to 180 (east positive)')}
        </Box>
        <Box
          component="fieldset"
          sx={{ border: 0, m: 0, p: 0, minWidth: 0 }}
          aria-describedby={rolesHelpId}
        >
          <Typography component="legend" id={rolesLabelId} variant="subtitle2" sx={{ p: 0 }}>
            Used as
          </Typography>
          <FormGroup row sx={{ columnGap: 2 }}>
            <FormControlLabel
              control={
                <Checkbox
                  checked={form.values.origin}
                  onChange={(event) => form.set('origin', event.target.checked)}
                />
              }
              label="Origin (shipper)"
            />
            <FormControlLabel
              control={
                <Checkbox
                  checked={form.values.destination}
                  onChange={(event) => form.set('destination', event.target.checked)}
                />
              }
              label="Destination (receiver)"
            />
          </FormGroup>
          <FormHelperText id={rolesHelpId} error={Boolean(rolesError)} sx={{ mt: 0 }}>
            {rolesError ??
              'Origins are offered as shippers, destinations as receivers; a place can be both.'}
          </FormHelperText>
        </Box>
        <TimeZoneField
          value={form.values.timezone}
          onChange={(zone) => form.set('timezone', zone)}
          noneLabel="No time zone"
          error={form.errors.timezone}
          helperText="The local time zone of this place (optional)"
        />
        {location ? <ChangeSignatureFields state={signature} reasonVisible /> : null}
      </Box>
    </FormDialog>
  );
}
