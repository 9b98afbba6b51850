/** Pages of the auth feature, loaded lazily by the router. */
import {
  ForgotPasswordConfirmPage,
  ForgotPasswordPage,
  PasswordResetConfirmPage,
  PasswordResetPage,
} from './password-pages';

export { InvitationPage } from './invitation-page';
export { LoginPage } from './login-page';
export { ForgotPasswordConfirmPage, ForgotPasswordPage };

export function PasswordResetRoute() {
  return <PasswordResetPage mode="reset" />;
}
export function WelcomeRoute() {
  return <PasswordResetPage mode="welcome" />;
}
export function PasswordResetConfirmRoute() {
  return <PasswordResetConfirmPage mode="reset" />;
}
export function WelcomeConfirmRoute() {
  return <PasswordResetConfirmPage mode="welcome" />;
}
