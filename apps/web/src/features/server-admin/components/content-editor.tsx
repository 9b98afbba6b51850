import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { errorMessage } from '../../../components/error-handler';
import { LoadError } from '../../../components/load-error';

/**
 * Edit and publish one legal text (terms of use or privacy policy): the
 * active content to start from, a box, and Publish.
 */
export function ContentEditor({
  label,
  current,
  loadError,
  onRetry,
  pending,
  onPublish,
  publishedMessage,
}: {
  label: string;
  current: string | undefined;
  loadError: unknown;
  onRetry: () => void;
  pending: boolean;
  onPublish: (content: string) => Promise<unknown>;
  publishedMessage: string;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const value = draft ?? current ?? '';
  const publish = async () => {
    if (value.trim() === '') {
      setOutcome({ ok: false, text: `${label} cannot be empty.` });
      return;
    }
    try {
      await onPublish(value);
      setDraft(null);
      setOutcome({ ok: true, text: publishedMessage });
    } catch (error) {
      setOutcome({ ok: false, text: errorMessage(error) });
    }
  };
  return (
    <Stack spacing={2}>
      {loadError ? (
        <LoadError what={label.toLowerCase()} error={loadError} onRetry={onRetry} />
      ) : null}
      <TextField
        label={label}
        value={value}
        onChange={(event) => {
          setDraft(event.target.value);
          setOutcome(null);
        }}
        multiline
        minRows={8}
        maxRows={20}
        fullWidth
        disabled={pending || current === undefined}
        helperText={current === undefined && !loadError ? 'Loading…' : undefined}
      />
      {outcome ? (
        <Alert severity={outcome.ok ? 'success' : 'error'} role={outcome.ok ? 'status' : 'alert'}>
          {outcome.text}
        </Alert>
      ) : null}
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <Button
          variant="contained"
          loading={pending}
          disabled={draft === null || draft === current}
          onClick={() => void publish()}
        >
          Publish {label.toLowerCase()}
        </Button>
      </Stack>
    </Stack>
  );
}
