import QrCodeOutlined from '@mui/icons-material/QrCodeOutlined';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { OutlinedTextField } from '../../../components/outlined-text-field';
import { errorMessage } from '../../../components/error-handler';
import { isApiError } from '../../../lib/api-error';
import { sessionQueryOptions } from '../../session';
import { getLatestRecord } from '../api/get-latest-record';
import { recordHref } from '../record-links';

/** A failed lookup: what was looked up and why it failed. */
export interface SerialLookupFailure {
  serialNumber: string;
  error: unknown;
}

/** The sentence for a failed lookup: `No record found for serial number X` for a 404. */
export function serialLookupMessage(failure: SerialLookupFailure): string {
  if (failure.serialNumber === '') return 'Enter a serial number or a tag id.';
  if (isApiError(failure.error) && failure.error.status === 404) {
    return `No record found for serial number ${failure.serialNumber}`;
  }
  return errorMessage(failure.error);
}

/**
 * The serial-number lookup box (spec section 2): placeholder 'Enter Serial
 * Number' and a 'Search' button; Enter also starts. It first refreshes the
 * session (GET /api/auth/session/ again), then fetches the latest record of
 * the trimmed serial number or tag id and opens its detail page. Errors go to
 * the caller's `onError`; typing clears the error (`onError(null)`). The
 * caller shows the error; `errorText` puts it under the box, tied to it.
 */
export function SerialLookupBox({
  onError,
  errorText,
}: {
  onError: (failure: SerialLookupFailure | null) => void;
  errorText?: string | null;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const inputId = useId();

  const lookUp = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const serialNumber = value.trim();
    if (serialNumber === '') {
      onError({ serialNumber, error: null });
      return;
    }
    setBusy(true);
    try {
      await queryClient.fetchQuery({ ...sessionQueryOptions(), staleTime: 0 });
      const record = await getLatestRecord(serialNumber);
      if (!record.id) throw new Error('The server answered a record without an id.');
      await navigate(recordHref(record.id));
    } catch (error) {
      onError({ serialNumber, error });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack
      component="form"
      role="search"
      aria-label="Serial number lookup"
      noValidate
      onSubmit={(event) => void lookUp(event)}
      direction="row"
      spacing={1}
      sx={{ alignItems: 'flex-start', width: '100%' }}
    >
      <OutlinedTextField
        id={inputId}
        value={value}
        onChange={(event) => {
          setValue(event.target.value);
          onError(null);
        }}
        placeholder="Enter Serial Number"
        size="small"
        fullWidth
        autoComplete="off"
        error={Boolean(errorText)}
        helperText={errorText || undefined}
        slotProps={{
          htmlInput: {
            'aria-label': 'Serial number or tag id',
            spellCheck: false,
            autoCapitalize: 'characters',
          },
          input: {
            startAdornment: (
              // Hidden on phones, where the whole placeholder needs the room.
              <InputAdornment position="start" sx={{ display: { xs: 'none', sm: 'flex' } }}>
                <QrCodeOutlined fontSize="small" aria-hidden />
              </InputAdornment>
            ),
          },
          formHelperText: { role: 'alert' },
        }}
        sx={{ maxWidth: 520, '& .MuiInputBase-root': { bgcolor: 'background.paper' } }}
      />
      <Button type="submit" variant="contained" loading={busy} sx={{ flexShrink: 0, height: 40 }}>
        Search
      </Button>
    </Stack>
  );
}
