import { useCallback, useState } from 'react';
import { MessageSnackbar } from './message-snackbar';

interface Notice {
  key: number;
  text: string;
  open: boolean;
}

/**
 * What a page says after an action succeeded: `say(text)` shows it in the
 * snackbar `notice` feeds (each call a new one, even with the same words).
 */
export function useNotice() {
  const [notice, setNotice] = useState<Notice | null>(null);
  const say = useCallback(
    (text: string) => setNotice((prev) => ({ key: (prev?.key ?? 0) + 1, text, open: true })),
    [],
  );
  // The text stays while the snackbar fades out.
  const close = useCallback(
    () => setNotice((prev) => (prev ? { ...prev, open: false } : prev)),
    [],
  );
  return { notice, say, close };
}

/** The success message of a page (`useNotice`). */
export function SuccessSnackbar({
  notice,
  onClose,
}: {
  notice: Notice | null;
  onClose: () => void;
}) {
  if (!notice) return null;
  return (
    <MessageSnackbar
      key={notice.key}
      open={notice.open}
      text={notice.text}
      severity="success"
      autoHideDuration={6000}
      onClose={onClose}
    />
  );
}
