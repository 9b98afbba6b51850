import type { ConfigurationAccess } from '../access';
import { OrgSettingsCard } from './org-settings-card';
import { SwitchesForm } from './switches-form';

const SECOND_FACTOR_SWITCHES = [
  {
    name: 'second_factor_for_signers',
    label: 'Require a second factor for every signature',
    on: 'Acknowledging, closing and releasing need the password and a code from the signer’s authenticator app (or a recovery code). Signers enrol under Second Factor in the settings menu.',
    off: 'Signatures need the password; a signer who has enrolled may add a code.',
  },
  {
    name: 'second_factor_for_administrators',
    label: 'Require a second factor at administrators’ sign-in',
    on: 'Administrators who have enrolled give a code when they sign in; those who have not are asked to enrol.',
    off: 'Administrators sign in with their password.',
  },
] as const;

/**
 * The organization's second-factor rules (issue 37 item 7,
 * docs/decisions/second-factor.md): whether every signature, and the sign-in of
 * its administrators, needs a TOTP code besides the password. Off by default.
 */
export function SecondFactorCard({
  access,
  onSaved,
}: {
  access: ConfigurationAccess;
  onSaved: (message: string) => void;
}) {
  return (
    <OrgSettingsCard
      access={access}
      title="Second factor"
      description="Whether signing, and administrators’ sign-in, need a code from an authenticator app besides the password."
      what="the second-factor settings"
      viewOnlyNote="You can view the second-factor settings; changing them needs a location or organization administration role."
    >
      {(settings, disabled) => (
        <SwitchesForm
          key={`${settings.second_factor_for_signers}-${settings.second_factor_for_administrators}`}
          switches={SECOND_FACTOR_SWITCHES}
          settings={settings}
          disabled={disabled}
          savedMessage="Second-factor settings saved"
          onSaved={onSaved}
        />
      )}
    </OrgSettingsCard>
  );
}
