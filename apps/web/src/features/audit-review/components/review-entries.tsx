import type { TAuditReviewEntry } from '@coldtrace/contract';
import { auditActionLabel, auditChangeText, formatDateTime } from '@coldtrace/domain';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutlineOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { useAppSettings } from '../../../lib/app-settings';
import { recordHref } from '../../records';
import { reasonLabels } from '../display';
import { RiskChip } from './chips';

/** What an entry shows instead of a value the display rule hides (as the record's trail does). */
const HIDDEN_VALUE = '(hidden)';

function isHidden(entry: TAuditReviewEntry['event'], hiddenFields: readonly string[]): boolean {
  if (entry.action === 'record.alarm_recipients.update') {
    return hiddenFields.includes('alarm_recipients');
  }
  return entry.field != null && hiddenFields.includes(entry.field);
}

function EntryItem({
  entry,
  timeZone,
  canMark,
  onMark,
}: {
  entry: TAuditReviewEntry;
  timeZone: string;
  canMark: boolean;
  onMark: (entry: TAuditReviewEntry) => void;
}) {
  const { hiddenFields, degreesUnit } = useAppSettings();
  const { event, review } = entry;
  const hidden = isHidden(event, hiddenFields);
  const what = `${auditActionLabel(event.action)}${event.entity_type === 'alarm' ? ` ${event.entity_id}` : ''}`;
  const change = auditChangeText(
    {
      field: event.field,
      oldValue: hidden ? HIDDEN_VALUE : event.old_value,
      newValue: hidden ? HIDDEN_VALUE : event.new_value,
    },
    { unit: degreesUnit, timeZone },
  );
  const reasons = reasonLabels(entry.reasons);
  return (
    <Box
      component="li"
      sx={{
        listStyle: 'none',
        px: { xs: 1.5, sm: 2 },
        py: 1.5,
        borderBottom: 1,
        borderColor: 'divider',
        '&:last-of-type': { borderBottom: 0 },
        minWidth: 0,
      }}
    >
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={{ xs: 1, sm: 2 }}
        sx={{ alignItems: { xs: 'stretch', sm: 'flex-start' }, justifyContent: 'space-between' }}
      >
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Stack
            direction="row"
            useFlexGap
            sx={{ flexWrap: 'wrap', columnGap: 1, rowGap: 0.5, alignItems: 'center' }}
          >
            <RiskChip risk={entry.risk} />
            <Typography variant="body2" component="span" sx={{ fontWeight: 600 }}>
              {what}
            </Typography>
            {event.record_id ? (
              <Link component={RouterLink} to={recordHref(event.record_id)} variant="body2">
                Record {event.record_id}
              </Link>
            ) : null}
          </Stack>
          {change !== '' && change !== '—' ? (
            <Typography variant="body2" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
              {change}
            </Typography>
          ) : null}
          <Typography
            variant="body2"
            color="text.secondary"
            className="tabular-nums"
            sx={{ overflowWrap: 'anywhere' }}
          >
            {event.actor_name} · {formatDateTime(event.occurred_at, timeZone)}
            {event.client_type ? ` · ${event.client_type}` : ''}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {reasons.length > 0
              ? `Why ${entry.risk} risk: ${reasons.join('; ')}`
              : 'Low risk: none of the review’s reasons applies'}
          </Typography>
          {event.reason ? (
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              Reason given: {event.reason}
            </Typography>
          ) : null}
        </Box>
        {review === null && canMark ? (
          <Box sx={{ flexShrink: 0 }}>
            <Button
              size="small"
              variant="outlined"
              onClick={() => onMark(entry)}
              aria-label={`Mark reviewed: ${what} by ${event.actor_name}, ${formatDateTime(event.occurred_at, timeZone)}`}
            >
              Mark reviewed
            </Button>
          </Box>
        ) : null}
      </Stack>
      {review ? (
        <Stack
          direction="row"
          spacing={1}
          sx={{ mt: 1, p: 1, borderRadius: 1, bgcolor: 'action.hover', alignItems: 'flex-start' }}
        >
          <CheckCircleOutline
            fontSize="small"
            sx={{ color: 'success.main', mt: '2px' }}
            aria-hidden
          />
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2" className="tabular-nums">
              Reviewed by <strong>{review.reviewed_by}</strong> on{' '}
              {formatDateTime(review.reviewed_at, timeZone)}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {review.comment}
            </Typography>
          </Box>
        </Stack>
      ) : review === null && !canMark ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          Not reviewed
        </Typography>
      ) : null}
    </Box>
  );
}

/** The month's entries, ranked (the server's order: risk, then newest first). */
export function ReviewEntries({
  label,
  entries,
  timeZone,
  canMark,
  onMark,
}: {
  label: string;
  entries: readonly TAuditReviewEntry[];
  timeZone: string;
  canMark: boolean;
  onMark: (entry: TAuditReviewEntry) => void;
}) {
  return (
    <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
      <Box component="ul" aria-label={label} sx={{ p: 0, m: 0 }}>
        {entries.map((entry) => (
          <EntryItem
            key={entry.event.id}
            entry={entry}
            timeZone={timeZone}
            canMark={canMark}
            onMark={onMark}
          />
        ))}
      </Box>
    </Paper>
  );
}
