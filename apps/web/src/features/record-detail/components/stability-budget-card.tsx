import type { TDegreesUnit, TRecordStabilityBudget } from '@coldtrace/contract';
import { formatDateTime } from '@coldtrace/domain';
import EventRounded from '@mui/icons-material/EventRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { bandColour, bandName, bandPercent, bandUse, formatMinutes } from '../budget-display';
import { SectionCard } from './section-card';

/**
 * The stability budget of the record's product (issue 14 item 3): a bar per
 * band with the minutes used across every leg of the shipment, this leg's
 * share, and, in transit with a planned arrival, where it heads at this leg's rate.
 */
export function StabilityBudgetCard({
  budget,
  recordId,
  unit,
  timeZone,
  onEditArrival,
}: {
  budget: TRecordStabilityBudget;
  recordId: string;
  unit: TDegreesUnit;
  timeZone: string | null;
  /** Opens the planned arrival dialog; absent: the user may not change it. */
  onEditArrival?: (() => void) | undefined;
}) {
  const legs = budget.legs.length;
  const subtitle = `${budget.product_name} · ${
    budget.shipping_reference ? `shipment ${budget.shipping_reference}` : 'this record only'
  } · ${legs} leg${legs === 1 ? '' : 's'}`;
  return (
    <SectionCard
      title="Stability budget"
      subtitle={subtitle}
      action={
        onEditArrival ? (
          <Button size="small" startIcon={<EventRounded />} onClick={onEditArrival}>
            Planned arrival
          </Button>
        ) : undefined
      }
    >
      <Stack spacing={2}>
        <Typography variant="body2" color="text.secondary">
          Planned arrival:{' '}
          {budget.planned_arrival ? formatDateTime(budget.planned_arrival, timeZone) : 'not set'}
        </Typography>
        {budget.bands.map((band) => {
          const name = bandName(band, unit);
          return (
            <Box key={`${band.direction} ${band.limit}`}>
              <Stack
                direction="row"
                useFlexGap
                sx={{ justifyContent: 'space-between', flexWrap: 'wrap', columnGap: 2 }}
              >
                <Typography variant="subtitle2" component="h3">
                  {name}
                </Typography>
                <Typography variant="body2" color={band.used_up ? 'error' : 'text.primary'}>
                  {band.used_up ? `Used up: ${bandUse(band)}` : bandUse(band)}
                </Typography>
              </Stack>
              <LinearProgress
                variant="determinate"
                value={bandPercent(band)}
                color={bandColour(band)}
                aria-label={`${name}: ${bandUse(band)}`}
                sx={{ height: 10, borderRadius: 1, my: 0.75 }}
              />
              <Typography variant="body2" color="text.secondary">
                {formatMinutes(band.remaining_minutes)} left · this leg{' '}
                {formatMinutes(band.this_leg_minutes)}
              </Typography>
              {band.projected_minutes !== null ? (
                <Typography variant="body2" color="text.secondary">
                  At this leg&apos;s rate: {formatMinutes(band.projected_minutes)} by the planned
                  arrival ({formatDateTime(budget.planned_arrival, timeZone)})
                  {band.used_up_at
                    ? `; used up at ${formatDateTime(band.used_up_at, timeZone)}`
                    : ''}
                </Typography>
              ) : null}
            </Box>
          );
        })}
        {legs > 1 ? (
          <Typography variant="body2" color="text.secondary">
            Legs:{' '}
            {budget.legs.map((leg, i) => (
              <span key={leg.record_id}>
                {i > 0 ? ', ' : ''}
                {leg.record_id === recordId ? (
                  `record ${leg.record_id} (this one)`
                ) : (
                  <Link
                    component={RouterLink}
                    underline="always"
                    to={`/recorddetails/${encodeURIComponent(leg.record_id)}`}
                  >
                    record {leg.record_id}
                  </Link>
                )}
              </span>
            ))}
          </Typography>
        ) : null}
      </Stack>
    </SectionCard>
  );
}
