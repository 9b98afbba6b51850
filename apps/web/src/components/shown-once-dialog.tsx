import ContentCopy from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useId, useState, type ReactNode } from 'react';

/**
 * A secret shown once (an API key, a webhook's signing secret): read-only in
 * monospace, with a warning and a Copy button. Closing it is the last sight of it.
 */
export function ShownOnceDialog({
  title,
  warning,
  label,
  value,
  onClose,
}: {
  title: string;
  warning: ReactNode;
  label: string;
  value: string;
  onClose: () => void;
}) {
  const titleId = useId();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {warning}
        </Alert>
        <TextField
          label={label}
          value={value}
          fullWidth
          multiline
          slotProps={{ htmlInput: { readOnly: true, spellCheck: false } }}
          sx={{ '& textarea': { fontFamily: 'monospace', wordBreak: 'break-all' } }}
        />
        {copied ? (
          <DialogContentText role="status" sx={{ mt: 1 }}>
            Copied to the clipboard.
          </DialogContentText>
        ) : null}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button startIcon={<ContentCopy />} onClick={() => void copy()}>
          Copy
        </Button>
        <Button variant="contained" onClick={onClose}>
          Done
        </Button>
      </DialogActions>
    </Dialog>
  );
}
