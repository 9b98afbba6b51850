import { EmptyState } from '../../components/empty-state';
import { Page } from '../../components/page';

/*
 * Password reset and welcome pages (spec section 2). The calls behind them come
 * with a later capability; until then each page says so honestly.
 */

export function ForgotPasswordPage() {
  return (
    <Page title="Forgot Password">
      <EmptyState>
        Requesting a password reset is not available yet. Ask an administrator of your organization
        for help signing in.
      </EmptyState>
    </Page>
  );
}

export function ForgotPasswordConfirmPage() {
  return (
    <Page title="Password Reset Requested">
      <EmptyState>
        Password reset e-mails are not available yet, so no e-mail has been sent.
      </EmptyState>
    </Page>
  );
}

export function PasswordResetPage({ mode }: { mode: 'reset' | 'welcome' }) {
  return mode === 'welcome' ? (
    <Page title="Welcome to Coldtrace">
      <EmptyState>
        Choosing your first password from a welcome link is not available yet.
      </EmptyState>
    </Page>
  ) : (
    <Page title="Set a New Password">
      <EmptyState>Setting a new password from a reset link is not available yet.</EmptyState>
    </Page>
  );
}

export function PasswordResetConfirmPage({ mode }: { mode: 'reset' | 'welcome' }) {
  return (
    <Page title={mode === 'welcome' ? 'Welcome to Coldtrace' : 'Password Reset'}>
      <EmptyState>Confirming a new password is not available yet.</EmptyState>
    </Page>
  );
}
