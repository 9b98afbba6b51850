import type { TEvidenceVerification, TUser } from '@coldtrace/contract';
import { auditVerify } from '@coldtrace/contract';
import { formatDateTime } from '@coldtrace/domain';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useAppSettings } from '../../../lib/app-settings';
import { errorMessage } from '../../../components/error-handler';
import { hasPermission } from '../../../lib/session';
import { useEvidenceKey, useVerifyEvidence } from '../api/verify-evidence';
import { ConfigSection } from './config-list';

/** The Evidence tab needs what its call needs: the organization's user administration. */
export function mayVerifyEvidence(user: TUser | null | undefined): boolean {
  return auditVerify.permission !== undefined && hasPermission(user, auditVerify.permission);
}

/** How many of the problems the page lists (the API gives up to 100). */
const LISTED_PROBLEMS = 10;

function Figures({ result }: { result: TEvidenceVerification }) {
  const { timeZone } = useAppSettings();
  return (
    <Box
      component="dl"
      sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: 0.5, columnGap: 2, m: 0 }}
    >
      {[
        ['Chains walked', result.chains.toLocaleString('en-US')],
        ['Entries checked', result.entries.toLocaleString('en-US')],
        ['Rows compared', result.rows.toLocaleString('en-US')],
        ['Signed anchors', result.anchors.toLocaleString('en-US')],
        [
          'Last anchor',
          result.last_anchor
            ? `${formatDateTime(result.last_anchor.anchored_at, timeZone)}, SHA-256 ${result.last_anchor.payload_sha256}`
            : 'none yet (anchors are signed every hour)',
        ],
        ['Checked at', formatDateTime(result.checked_at, timeZone)],
      ].map(([term, value]) => (
        <Box key={term} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {term}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/**
 * Configuration > Evidence (issue 37; docs/decisions/evidence-chain.md): verify
 * the organization's evidence chain now, and the server's public key to check
 * its signed anchors with.
 */
export function EvidenceSection() {
  const verify = useVerifyEvidence();
  const key = useEvidenceKey();
  const result = verify.data;
  return (
    <ConfigSection
      title="Evidence chain"
      description="Every audit entry, signature, release decision, record summary, temperature series and alarm version is linked by SHA-256 as it is written, and the heads are signed every hour. Verifying walks all of it and names the first broken link. It reads everything the organization has stored, so it can take a while."
      action={
        <Button variant="contained" onClick={() => verify.mutate()} loading={verify.isPending}>
          Verify now
        </Button>
      }
    >
      <Box sx={{ px: { xs: 2, sm: 3 }, pb: 2.5, display: 'grid', gap: 2 }}>
        {verify.isError ? <Alert severity="error">{errorMessage(verify.error)}</Alert> : null}
        {result?.verified ? (
          <Alert severity="success">
            <AlertTitle>Verified</AlertTitle>
            Every entry matches the one before it, every anchor is signed by this server, and every
            row is as its last chained version says.
          </Alert>
        ) : null}
        {result && !result.verified ? (
          <Alert severity="error">
            <AlertTitle>The evidence does not verify</AlertTitle>
            <Typography variant="body2">First break: {result.first_break?.message}</Typography>
            {result.problems.length > 1 ? (
              <Box component="ul" sx={{ my: 1, pl: 2.5 }}>
                {result.problems.slice(1, LISTED_PROBLEMS).map((problem, i) => (
                  <li key={i}>
                    <Typography variant="body2">{problem.message}</Typography>
                  </li>
                ))}
              </Box>
            ) : null}
          </Alert>
        ) : null}
        {result ? <Figures result={result} /> : null}
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          Server signing key (Ed25519):{' '}
          {key.data ? (
            <>
              <Box component="span" sx={{ fontFamily: 'monospace' }}>
                {key.data.key_id}
              </Box>{' '}
              (the whole key is at /api/evidence/key/)
            </>
          ) : key.isError ? (
            'could not be read'
          ) : (
            'loading…'
          )}
        </Typography>
      </Box>
    </ConfigSection>
  );
}
