import { MessageSnackbar } from './message-snackbar';

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
    <MessageSnackbar
      open={open}
      text={text}
      severity="error"
      autoHideDuration={8000}
      onClose={onClose}
    />
  );
}
