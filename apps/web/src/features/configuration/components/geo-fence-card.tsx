import type { TDistanceUnit, TGeoFenceSettings } from '@coldtrace/contract';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useRef, type FormEvent } from 'react';
import { useChangeSignature } from '../../../components/change-signature';
import { MenuDivider } from '../../../components/menu-divider';
import type { ConfigurationAccess } from '../access';
import { useUpdateGeoFenceSettings } from '../api/update-org-settings';
import {
  GEO_FENCE_FIELDS,
  GEO_FENCE_FIELD_PREFIX,
  changeRadiusUnit,
  distanceUnitLabel,
  distanceUnitOptions,
  geoFenceFormFrom,
  geoFenceUpdateBody,
  metresHint,
  validateGeoFenceForm,
  type GeoFenceField,
  type GeoFenceFormValues,
  type GeoFenceSide,
} from '../geo-fence-form';
import { focusFirstError, useFormState } from '../use-form-state';
import { SettingsFormFooter } from './settings-form-footer';
import { OrgSettingsCard } from './org-settings-card';

const SIDES: {
  side: GeoFenceSide;
  title: string;
  points: GeoFenceField;
  pointsLabel: string;
  pointsHelp: string;
}[] = [
  {
    side: 'arrival',
    title: 'Arrival',
    points: 'num_points_to_arrive',
    pointsLabel: 'Points to arrive',
    pointsHelp: 'Location samples in a row inside the radius of the destination (1 to 100)',
  },
  {
    side: 'departure',
    title: 'Departure',
    points: 'num_points_to_depart',
    pointsLabel: 'Points to depart',
    pointsHelp: 'Location samples in a row outside the radius of the origin (1 to 100)',
  },
];

function GeoFenceForm({
  settings,
  disabled,
  onSaved,
}: {
  settings: TGeoFenceSettings | undefined;
  disabled: boolean;
  onSaved: (message: string) => void;
}) {
  const form = useFormState<GeoFenceFormValues, GeoFenceField>(
    geoFenceFormFrom(settings),
    validateGeoFenceForm,
  );
  const save = useUpdateGeoFenceSettings();
  // Optional until the server says the change touches records with alarms.
  const signature = useChangeSignature(false);
  const formRef = useRef<HTMLFormElement>(null);
  const units = useMemo(() => distanceUnitOptions(), []);
  const changes = geoFenceUpdateBody(form.values, settings);
  const dirty = Object.keys(changes).length > 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    const valid = form.check();
    if (!signature.check() || !valid) {
      focusFirstError(formRef.current);
      return;
    }
    if (!dirty) return;
    save.mutate(
      { geoFence: changes, change: signature.body() },
      {
        onSuccess: (reply) => {
          form.reset(geoFenceFormFrom(reply.geo_fence_settings));
          signature.reset();
          onSaved('Geo-fence settings saved');
        },
        onError: (error) => {
          if (signature.fail(error)) focusFirstError(formRef.current);
          else form.fail(error, GEO_FENCE_FIELDS, GEO_FENCE_FIELD_PREFIX);
        },
      },
    );
  };

  const unitItems = [
    ...units.common.map((unit) => (
      <MenuItem key={unit} value={unit}>
        {distanceUnitLabel(unit)}
      </MenuItem>
    )),
    <MenuDivider key="divider" />,
    ...units.rest.map((unit) => (
      <MenuItem key={unit} value={unit}>
        {distanceUnitLabel(unit)}
      </MenuItem>
    )),
  ];

  return (
    <Box
      component="form"
      ref={formRef}
      noValidate
      onSubmit={submit}
      sx={{ px: { xs: 2, sm: 3 }, pb: 2.5 }}
    >
      <Box
        sx={{
          display: 'grid',
          gap: { xs: 3, md: 4 },
          gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' },
        }}
      >
        {SIDES.map(({ side, title, points, pointsLabel, pointsHelp }) => {
          const radiusField = `${side}_radius` as const;
          const unitField = `${side}_radius_units` as const;
          const unit = form.values[unitField];
          const hint = metresHint(form.values[radiusField], unit);
          return (
            <Box
              key={side}
              component="fieldset"
              sx={{ border: 0, m: 0, p: 0, minWidth: 0, display: 'grid', gap: 2 }}
            >
              <Typography component="legend" variant="h3" sx={{ p: 0, mb: 2 }}>
                {title}
              </Typography>
              <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: '1fr 1.35fr' }}>
                <TextField
                  label={`${title} radius`}
                  value={form.values[radiusField]}
                  onChange={(event) => form.set(radiusField, event.target.value)}
                  error={Boolean(form.errors[radiusField])}
                  helperText={form.errors[radiusField] ?? (hint || 'More than 0, at most 1,000 km')}
                  disabled={disabled}
                  autoComplete="off"
                  slotProps={{ htmlInput: { inputMode: 'decimal' } }}
                />
                <TextField
                  select
                  label={`${title} radius unit`}
                  value={unit}
                  onChange={(event) =>
                    form.update(
                      changeRadiusUnit(
                        form.values,
                        side,
                        event.target.value as TDistanceUnit,
                        settings,
                      ),
                    )
                  }
                  error={Boolean(form.errors[unitField])}
                  helperText={form.errors[unitField]}
                  disabled={disabled}
                  slotProps={{
                    select: { MenuProps: { slotProps: { paper: { sx: { maxHeight: 360 } } } } },
                  }}
                >
                  {unitItems}
                </TextField>
              </Box>
              <TextField
                label={pointsLabel}
                value={form.values[points]}
                onChange={(event) => form.set(points, event.target.value)}
                error={Boolean(form.errors[points])}
                helperText={form.errors[points] ?? pointsHelp}
                disabled={disabled}
                autoComplete="off"
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
                sx={{ maxWidth: { md: 360 } }}
              />
            </Box>
          );
        })}
      </Box>
      <SettingsFormFooter
        disabled={disabled}
        dirty={dirty}
        signature={signature}
        formError={form.formError}
        pending={save.isPending}
        onDiscard={() => form.reset(geoFenceFormFrom(settings))}
      />
    </Box>
  );
}

function GeoFenceSkeleton() {
  return (
    <Box
      role="status"
      aria-label="Loading the geo-fence settings"
      sx={{
        px: { xs: 2, sm: 3 },
        pb: 2.5,
        display: 'grid',
        gap: 4,
        gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' },
      }}
    >
      {[0, 1].map((key) => (
        <Box key={key} sx={{ display: 'grid', gap: 2 }}>
          <Skeleton variant="text" width={120} height={32} />
          <Skeleton variant="rounded" height={56} />
          <Skeleton variant="rounded" height={56} />
        </Box>
      ))}
    </Box>
  );
}

/** The organization's geo-fence: arrival and departure radius with their units, points to arrive / depart. */
export function GeoFenceCard({
  access,
  onSaved,
}: {
  access: ConfigurationAccess;
  onSaved: (message: string) => void;
}) {
  return (
    <OrgSettingsCard
      access={access}
      title="Geo-fence"
      description="When a shipment counts as departed from its origin and arrived at its destination: a radius around the travel location, and how many location samples in a row must fall outside it (departure) or inside it (arrival)."
      what="the geo-fence settings"
      viewOnlyNote="You can view the geo-fence; changing it needs a location or organization administration role."
      skeleton={<GeoFenceSkeleton />}
    >
      {(settings, disabled) => (
        <GeoFenceForm
          settings={settings.geo_fence_settings}
          disabled={disabled}
          onSaved={onSaved}
        />
      )}
    </OrgSettingsCard>
  );
}
