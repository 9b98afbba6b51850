import type { TRecord } from '@coldtrace/contract';
import { timeZoneAbbreviation } from '@coldtrace/domain';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import dayjs, { type Dayjs } from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { useState } from 'react';
import { useChangeSignature } from '../../../components/change-signature';
import { ChangeSignatureFields } from '../../../components/change-signature-fields';
import { FormDialog } from '../../../components/form-dialog';
import { useEditTrip } from '../api/edit-trip';
import { useRecordAlarms } from '../api/get-record-alarms';
import { validateTripTimes, type TripErrors } from '../trip-form';

dayjs.extend(utc);
dayjs.extend(timezone);

export const FORMAT = 'MM/DD/YYYY HH:mm';

export function toDayjs(iso: string | null | undefined, timeZone: string): Dayjs | null {
  return iso ? dayjs(iso).tz(timeZone) : null;
}

export function toMillis(value: Dayjs | null): number | null {
  if (value === null) return null;
  return value.isValid() ? value.valueOf() : Number.NaN;
}

/**
 * Edit trip times (spec section 4): departure and arrival picked in the
 * user's time zone (24-hour), either may be cleared. The reply's trip status
 * goes to the open record, the list rows and the aggregates; a failure is
 * only logged (spec section 8), so the dialog then just closes on the old trip.
 * When the record has alarms a reason for change is required; when the server
 * answers that the edit closes alarms, the dialog asks for the signature
 * (meaning and password) and sends again.
 */
export function TripTimesDialog({
  record,
  timeZone,
  onClose,
}: {
  record: TRecord;
  timeZone: string;
  onClose: () => void;
}) {
  const [begin, setBegin] = useState<Dayjs | null>(() =>
    toDayjs(record.trip?.begin_time, timeZone),
  );
  const [end, setEnd] = useState<Dayjs | null>(() => toDayjs(record.trip?.end_time, timeZone));
  const [errors, setErrors] = useState<TripErrors>({});
  const editTrip = useEditTrip();
  const alarms = useRecordAlarms(record.id!);
  const hasAlarms = (alarms.data?.length ?? 0) > 0;
  const signature = useChangeSignature(hasAlarms);
  const [openedAt] = useState(() => Date.now());
  const zone = timeZoneAbbreviation(timeZone, openedAt);

  const submit = () => {
    const times = { begin: toMillis(begin), end: toMillis(end) };
    const found = validateTripTimes(times, Date.now() + 60_000);
    setErrors(found);
    const signed = signature.check();
    if (found.begin || found.end || !signed) return;
    editTrip.mutate(
      { recordId: record.id!, times, change: signature.body() },
      {
        onSuccess: onClose,
        onError: (error) => {
          if (!signature.fail(error)) onClose();
        },
      },
    );
  };

  const picker = (
    label: string,
    value: Dayjs | null,
    onChange: (value: Dayjs | null) => void,
    error: string | undefined,
    helper: string,
  ) => (
    <DateTimePicker
      label={label}
      value={value}
      onChange={(next) => {
        onChange(next);
        setErrors({});
      }}
      timezone={timeZone}
      ampm={false}
      format={FORMAT}
      disableFuture
      slotProps={{
        textField: { fullWidth: true, error: Boolean(error), helperText: error ?? helper },
        field: { clearable: true },
        actionBar: { actions: ['clear', 'cancel', 'accept'] },
      }}
    />
  );

  return (
    <FormDialog
      title="Edit trip times"
      onClose={onClose}
      onSubmit={submit}
      pending={editTrip.isPending}
      submitLabel={signature.step.signing ? 'Sign and save' : 'Save'}
      maxWidth={signature.step.signing ? 'sm' : 'xs'}
    >
      <LocalizationProvider dateAdapter={AdapterDayjs}>
        <Box sx={{ display: 'grid', gap: 2.5 }}>
          <Typography variant="body2" color="text.secondary">
            Times in {zone}. No departure: Not departed; a departure: In transit; an arrival:
            Arrived. The alarms are evaluated again over the trip.
          </Typography>
          {picker('Departure', begin, setBegin, errors.begin, 'When the shipment left its origin')}
          {picker('Arrival', end, setEnd, errors.end, 'When it reached its destination')}
          <ChangeSignatureFields state={signature} reasonVisible={hasAlarms} />
        </Box>
      </LocalizationProvider>
    </FormDialog>
  );
}
