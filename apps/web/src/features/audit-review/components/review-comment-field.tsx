import { AUDIT_REVIEW_COMMENT_MAX_LENGTH } from '@coldtrace/contract';
import TextField from '@mui/material/TextField';
import { characterCount } from '../../../components/change-signature';

/**
 * The required comment of a review mark or closure: the server's error when it
 * refused one, else `emptyHint` while empty, else the characters left.
 */
export function ReviewCommentField({
  value,
  onChange,
  error,
  emptyHint,
  minRows,
}: {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  emptyHint: string;
  minRows: number;
}) {
  return (
    <TextField
      label="Comment"
      name="comment"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      required
      multiline
      minRows={minRows}
      fullWidth
      autoFocus
      error={error !== undefined}
      helperText={
        error ??
        (value.trim() === '' ? emptyHint : characterCount(value, AUDIT_REVIEW_COMMENT_MAX_LENGTH))
      }
      slotProps={{ htmlInput: { maxLength: AUDIT_REVIEW_COMMENT_MAX_LENGTH } }}
    />
  );
}
