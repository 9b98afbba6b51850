import type { TDropdownInfo, TRecord } from '@coldtrace/contract';
import { timeZoneAbbreviation } from '@coldtrace/domain';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { FormDialog } from '../../../components/form-dialog';
import { useUpdateShipment } from '../api/update-shipment';
import { FORMAT, toDayjs, toMillis } from './trip-times-dialog';

/**
 * When the shipment is planned to arrive (issue 14 item 3): the stability
 * budget projects each band to it at the current leg's rate. Picked in the
 * user's time zone; cleared by the picker's Clear. Sent as an update-shipment
 * of planned_arrival alone (permission readerEditRef1, audited as a shipment edit).
 */
export function PlannedArrivalDialog({
  record,
  dropdown,
  timeZone,
  onClose,
}: {
  record: TRecord;
  dropdown: TDropdownInfo | undefined;
  timeZone: string;
  onClose: () => void;
}) {
  const [value, setValue] = useState<Dayjs | null>(() => toDayjs(record.planned_arrival, timeZone));
  const [error, setError] = useState<string | undefined>();
  const update = useUpdateShipment();
  const [openedAt] = useState(() => Date.now());

  const submit = () => {
    const ms = toMillis(value);
    if (ms !== null && !Number.isFinite(ms)) {
      setError('Enter a date and time');
      return;
    }
    const planned = ms === null ? null : new Date(ms).toISOString();
    if (planned === (record.planned_arrival ?? null)) {
      onClose();
      return;
    }
    update.mutate(
      { recordId: record.id!, changes: { planned_arrival: planned }, dropdown },
      { onSuccess: onClose, onError: onClose },
    );
  };

  return (
    <FormDialog
      title="Planned arrival"
      onClose={onClose}
      onSubmit={submit}
      pending={update.isPending}
      maxWidth="xs"
    >
      <LocalizationProvider dateAdapter={AdapterDayjs}>
        <Box sx={{ display: 'grid', gap: 2.5 }}>
          <Typography variant="body2" color="text.secondary">
            Time in {timeZoneAbbreviation(timeZone, openedAt)}. The stability budget projects each
            band to this time at the current leg&apos;s rate.
          </Typography>
          <DateTimePicker
            label="Planned arrival"
            value={value}
            onChange={(next) => {
              setValue(next);
              setError(undefined);
            }}
            timezone={timeZone}
            ampm={false}
            format={FORMAT}
            slotProps={{
              textField: {
                fullWidth: true,
                error: Boolean(error),
                helperText: error ?? 'When the shipment should reach its destination',
              },
              field: { clearable: true },
              actionBar: { actions: ['clear', 'cancel', 'accept'] },
            }}
          />
        </Box>
      </LocalizationProvider>
    </FormDialog>
  );
}
