import Box from '@mui/material/Box';

/**
 * An e-mail address in a table cell: it may break after the @ (and, if a part is
 * still too long, anywhere), so long addresses do not push the row's actions away.
 */
export function EmailText({ email }: { email: string }) {
  const at = email.indexOf('@');
  return (
    <Box component="span" sx={{ overflowWrap: 'break-word' }}>
      {at < 0 ? (
        email
      ) : (
        <>
          {email.slice(0, at + 1)}
          <wbr />
          {email.slice(at + 1)}
        </>
      )}
    </Box>
  );
}
