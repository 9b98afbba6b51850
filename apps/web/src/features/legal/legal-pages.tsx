import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { errorMessage } from '../../components/error-handler';
import { Page } from '../../components/page';
import { TextDocument } from '../../components/text-document';
import { takeRedirectTarget } from '../../lib/session';
import { useCurrentUser, useLogout } from '../session';
import { useAgreeToTerms } from './api/agree-to-terms';
import { usePrivacyPolicy } from './api/get-privacy-policy';
import { useTermsOfUse } from './api/get-terms-of-use';
import { LegalDocument } from './components/legal-document';

/**
 * The warranty (the footer's Warranty link), shown under terms of use that do
 * not state one themselves: terms published before the seeded terms gained
 * their Warranty section. Same words as that section (apps/server/src/seed/seed.ts).
 */
const WARRANTY_TEXT = `# Warranty

The service operator warrants that Coldtrace stores the readings uploaded from your tags without alteration, computes excursions, alarms and reports from them as documented, and keeps every alarm, acknowledgement, signature and audit entry once recorded. Report a suspected defect to your administrator or the service operator; confirmed defects are corrected without charge. Coldtrace does not warrant the accuracy of a tag's sensor or calibration, which is the responsibility of the tag's maker and of your calibration procedures, nor the fitness of a shipment for release, which remains your quality decision. Apart from this warranty and what the law requires, the service is provided as is.`;

/** /terms-of-use: the terms without the agree form; `#warranty` jumps to the warranty. */
export function TermsOfUsePage() {
  const query = useTermsOfUse();
  const content = query.data?.content;
  const ownWarranty = content === undefined || /warrant/i.test(content);
  return (
    <Page title="Terms of Use" subtitle={query.data ? `Version ${query.data.version}` : undefined}>
      <Stack spacing={2.5}>
        <LegalDocument query={query} what="terms of use" anchors={['warranty']} />
        {ownWarranty ? null : (
          <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
            <TextDocument source={WARRANTY_TEXT} />
          </Paper>
        )}
      </Stack>
    </Page>
  );
}

/** /privacy-policy */
export function PrivacyPolicyPage() {
  const query = usePrivacyPolicy();
  return (
    <Page title="Privacy Policy">
      <LegalDocument query={query} what="privacy policy" />
    </Page>
  );
}

/**
 * /tou-agreement: the terms with the agree form. A user who has not agreed to
 * the active terms is brought here after sign-in and goes on to where they
 * were heading once they agree.
 */
export function TouAgreementPage() {
  const query = useTermsOfUse();
  const user = useCurrentUser();
  const agree = useAgreeToTerms();
  const navigate = useNavigate();
  const logout = useLogout();
  const [checked, setChecked] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const terms = query.data;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!terms) return;
    if (!checked) {
      setMessage('Tick the box to agree to the terms of use.');
      return;
    }
    setMessage(null);
    agree.mutate(terms.id, {
      onSuccess: () => navigate(takeRedirectTarget(), { replace: true }),
      onError: (error) => {
        setMessage(errorMessage(error));
        // Superseded while reading: load the current version.
        void query.refetch();
      },
    });
  };

  return (
    <Page title="Terms of Use Agreement" subtitle={terms ? `Version ${terms.version}` : undefined}>
      <Stack spacing={2.5}>
        <LegalDocument query={query} what="terms of use" />
        {terms && user?.has_agreed_to_tos ? (
          <Alert
            severity="success"
            action={
              <Button color="inherit" size="small" component={RouterLink} to="/">
                Continue
              </Button>
            }
          >
            You have agreed to these terms of use.
          </Alert>
        ) : null}
        {terms && user && !user.has_agreed_to_tos ? (
          <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
            <Stack component="form" noValidate spacing={2} onSubmit={onSubmit}>
              <Typography>
                To use Coldtrace, read the terms of use above and agree to them. See also the{' '}
                <Link component={RouterLink} to="/privacy-policy" underline="always">
                  privacy policy
                </Link>
                .
              </Typography>
              {message ? <Alert severity="error">{message}</Alert> : null}
              <FormControlLabel
                control={
                  <Checkbox
                    checked={checked}
                    onChange={(event) => setChecked(event.target.checked)}
                    disabled={agree.isPending}
                  />
                }
                label="I have read and agree to the Terms of Use"
              />
              <Stack direction="row" spacing={1.5} sx={{ flexWrap: 'wrap', gap: 1 }}>
                <Button type="submit" variant="contained" loading={agree.isPending}>
                  I Agree
                </Button>
                <Button onClick={() => logout.mutate()} disabled={agree.isPending}>
                  Log Out
                </Button>
              </Stack>
            </Stack>
          </Paper>
        ) : null}
      </Stack>
    </Page>
  );
}
