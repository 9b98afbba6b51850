import { type TDegreesUnit, type TUser } from '@coldtrace/contract';
import { resolveTimeZone } from '@coldtrace/domain';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useUpdateUserSettings } from '../api/update-user-settings';
import { TimeZoneSelect } from './time-zone-select';

/**
 * Units Settings dialog (spec section 2): the temperature scale (C or F) and the
 * time zone. Changing either saves it and reloads the whole page.
 */
export function UnitsSettingsDialog({ user, onClose }: { user: TUser; onClose: () => void }) {
  const titleId = useId();
  const scaleLabelId = useId();
  const save = useUpdateUserSettings();
  const [unit, setUnit] = useState<TDegreesUnit>(user.settings.degrees_unit);
  const [timeZone, setTimeZone] = useState(() => resolveTimeZone(user.settings.timezone));
  // Saved: the page is about to reload, keep the controls still until it does.
  const busy = save.isPending || save.isSuccess;

  const changeUnit = (next: TDegreesUnit | null) => {
    if (next === null || next === unit) return;
    const previous = unit;
    setUnit(next);
    save.mutate({ degrees_unit: next }, { onError: () => setUnit(previous) });
  };

  const changeTimeZone = (next: string) => {
    if (next === timeZone) return;
    const previous = timeZone;
    setTimeZone(next);
    save.mutate({ timezone: next }, { onError: () => setTimeZone(previous) });
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>Units Settings</DialogTitle>
      <DialogContent>
        <Stack spacing={3} sx={{ pt: 1 }}>
          <Stack spacing={1}>
            <Typography id={scaleLabelId} variant="body2" color="text.secondary">
              Temperature scale
            </Typography>
            <ToggleButtonGroup
              exclusive
              color="primary"
              value={unit}
              onChange={(_event, next: TDegreesUnit | null) => changeUnit(next)}
              aria-labelledby={scaleLabelId}
              disabled={busy}
              fullWidth
            >
              <ToggleButton value="C" aria-label="°C Celsius">
                °C
              </ToggleButton>
              <ToggleButton value="F" aria-label="°F Fahrenheit">
                °F
              </ToggleButton>
            </ToggleButtonGroup>
          </Stack>
          <TimeZoneSelect value={timeZone} onChange={changeTimeZone} disabled={busy} />
          <Typography variant="body2" color="text.secondary">
            Changes are saved at once and the page reloads to show them everywhere.
          </Typography>
        </Stack>
      </DialogContent>
      {busy ? <LinearProgress aria-label="Saving" /> : null}
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
