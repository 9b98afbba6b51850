import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useId, useRef, type FormEvent, type ReactNode } from 'react';

/**
 * A dialog holding one form (create and edit dialogs): a title, the inputs,
 * a message for the whole form when saving failed, and Cancel / Save. Enter
 * in a field submits; on phones (under 600 px) it takes the whole screen.
 * While saving it cannot be closed and Save shows progress. After a submit
 * that shows errors, the focus moves to the first input at fault.
 */
export function FormDialog({
  title,
  onClose,
  onSubmit,
  pending = false,
  error,
  submitLabel = 'Save',
  maxWidth = 'sm',
  children,
}: {
  title: string;
  onClose: () => void;
  onSubmit: () => void;
  pending?: boolean;
  /** A message about the whole form (a failed save not tied to one input). */
  error?: string | null;
  submitLabel?: string;
  maxWidth?: 'xs' | 'sm' | 'md';
  children: ReactNode;
}) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const titleId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const close = () => {
    if (!pending) onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    onSubmit();
    // After React has drawn the messages, take the keyboard to the first input at fault.
    requestAnimationFrame(() => {
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    });
  };
  return (
    <Dialog
      open
      onClose={close}
      aria-labelledby={titleId}
      fullWidth
      fullScreen={phone}
      maxWidth={maxWidth}
    >
      <Box
        component="form"
        ref={formRef}
        noValidate
        onSubmit={submit}
        sx={{ display: 'flex', flexDirection: 'column', flex: '1 1 auto', minHeight: 0 }}
      >
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent dividers={phone}>
          <Box sx={{ pt: 1 }}>{children}</Box>
          {error ? (
            <Alert severity="error" sx={{ mt: 2 }} role="alert">
              {error}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2, pt: phone ? 2 : 1 }}>
          <Button onClick={close} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={pending}>
            {submitLabel}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
