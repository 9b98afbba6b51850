import Link from '@mui/material/Link';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '../../components/empty-state';
import { Page } from '../../components/page';
import { usePrivacyPolicy } from './api/get-privacy-policy';
import { useTermsOfUse } from './api/get-terms-of-use';
import { LegalDocument } from './components/legal-document';

/** /terms-of-use: the terms without the agree form; `#warranty` jumps to the warranty. */
export function TermsOfUsePage() {
  const query = useTermsOfUse();
  return (
    <Page title="Terms of Use" subtitle={query.data ? `Version ${query.data.version}` : undefined}>
      <LegalDocument query={query} what="terms of use" anchors={['warranty']} />
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

/** /tou-agreement: the agree form comes with a later capability. */
export function TouAgreementPage() {
  return (
    <Page title="Terms of Use Agreement">
      <EmptyState
        action={
          <Link component={RouterLink} to="/terms-of-use">
            Read the terms of use
          </Link>
        }
      >
        Agreeing to the terms of use here is not available yet.
      </EmptyState>
    </Page>
  );
}
