import type { ConfigurationAccess } from '../access';
import { OrgSettingsCard } from './org-settings-card';
import { SwitchesForm } from './switches-form';

const RELEASE_SWITCHES = [
  {
    name: 'allow_release_in_transit',
    label: 'Allow release while a shipment is in transit',
    on: 'A shipment may be released before its trip has ended; the signer must give a reason.',
    off: 'A shipment can be released only once it has arrived or its record has stopped.',
  },
] as const;

/**
 * The organization's release rule (issue 35, docs/decisions/disposition.md):
 * whether a shipment may be released before its trip has ended. Off by
 * default; when on, a release in transit still needs the signer's reason.
 */
export function ReleaseInTransitCard({
  access,
  onSaved,
}: {
  access: ConfigurationAccess;
  onSaved: (message: string) => void;
}) {
  return (
    <OrgSettingsCard
      access={access}
      title="Release decisions"
      description="Whether quality staff may release a shipment whose trip has not yet ended (not arrived and its record not stopped). Rejecting and quarantining are always allowed."
      what="the release setting"
      viewOnlyNote="You can view the release setting; changing it needs a location or organization administration role."
    >
      {(settings, disabled) => (
        <SwitchesForm
          key={String(settings.allow_release_in_transit)}
          switches={RELEASE_SWITCHES}
          settings={settings}
          disabled={disabled}
          savedMessage="Release setting saved"
          onSaved={onSaved}
        />
      )}
    </OrgSettingsCard>
  );
}
