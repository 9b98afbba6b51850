import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';

/** The shared error handler's message (loaded with the first error, by `ErrorHandlerProvider`). */
export function ErrorSnackbar({
  open,
  text,
  onClose,
}: {
  open: boolean;
  text: string;
  onClose: () => void;
}) {
  return (
    <Snackbar
      open={open}
      autoHideDuration={8000}
      onClose={(_event, reason) => {
        if (reason !== 'clickaway') onClose();
      }}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      sx={{ bottom: { xs: 56, sm: 60 } }}
    >
      <Alert
        severity="error"
        variant="filled"
        onClose={onClose}
        sx={{ width: '100%', maxWidth: 560 }}
      >
        {text}
      </Alert>
    </Snackbar>
  );
}
