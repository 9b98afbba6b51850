import type { TOrganizationSettings } from '@coldtrace/contract';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import type { ReactNode } from 'react';
import type { ConfigurationAccess } from '../access';
import { useOrgSettings } from '../api/get-org-settings';
import { CardLoadError, ConfigSection } from './config-list';

/**
 * A card of the organization's settings (geo-fence, calibration, no-data
 * alarm): its title and description, a note when the user may only view it,
 * the settings' load error or a skeleton while they load, then the card's form.
 */
export function OrgSettingsCard({
  access,
  title,
  description,
  what,
  viewOnlyNote,
  fields = 1,
  skeleton,
  children,
}: {
  access: ConfigurationAccess;
  title: string;
  description: string;
  /** What is loaded, for the error and the loading label ("the calibration settings"). */
  what: string;
  /** Shown to a user who may view but not change the settings. */
  viewOnlyNote: string;
  /** Fields the default skeleton shows. */
  fields?: number;
  /** A skeleton of the form's own shape (replaces the default). */
  skeleton?: ReactNode;
  /** The form, given the stored settings and whether the user may only view them. */
  children: (settings: TOrganizationSettings, disabled: boolean) => ReactNode;
}) {
  const query = useOrgSettings();
  return (
    <ConfigSection
      title={title}
      description={description}
      note={access.editGeoFence ? null : viewOnlyNote}
    >
      {query.isError ? (
        <CardLoadError what={what} query={query} />
      ) : query.isPending ? (
        (skeleton ?? (
          <Box role="status" aria-label={`Loading ${what}`} sx={{ px: 3, pb: 2.5 }}>
            {Array.from({ length: fields }, (_, i) => (
              <Skeleton
                key={i}
                variant="rounded"
                height={56}
                sx={i < fields - 1 ? { mb: 2 } : undefined}
              />
            ))}
          </Box>
        ))
      ) : (
        children(query.data, !access.editGeoFence)
      )}
    </ConfigSection>
  );
}
