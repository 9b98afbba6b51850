import Alert, { type AlertColor } from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';

/**
 * A message at the bottom centre, above the fixed footer: an error (the shared error
 * handler's) or a success (a page's). A click elsewhere does not dismiss it.
 */
export function MessageSnackbar({
  open,
  text,
  severity,
  autoHideDuration,
  onClose,
}: {
  open: boolean;
  text: string;
  severity: AlertColor;
  autoHideDuration: number;
  onClose: () => void;
}) {
  return (
    <Snackbar
      open={open}
      autoHideDuration={autoHideDuration}
      onClose={(_event, reason) => {
        if (reason !== 'clickaway') onClose();
      }}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      sx={{ bottom: { xs: 56, sm: 60 } }}
    >
      <Alert
        severity={severity}
        variant="filled"
        onClose={onClose}
        sx={{ width: '100%', maxWidth: 560 }}
      >
        {text}
      </Alert>
    </Snackbar>
  );
}
