import type { TRecordAction } from '@coldtrace/contract';
import { formatDateTime } from '@coldtrace/domain';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { LoadError } from '../../../components/load-error';
import type { useRecordActions } from '../api/get-record-actions';
import { formatPosition, isKnownPosition, newestFirst } from '../display';
import { SectionCard } from './section-card';

const DEVICE_LABELS: Record<string, string> = { WEB: 'Web', IOS: 'iOS', ANDROID: 'Android' };

function ActionItem({
  action,
  timeZone,
  last,
}: {
  action: TRecordAction;
  timeZone: string;
  last: boolean;
}) {
  const device = action.mobile_device_type ? DEVICE_LABELS[action.mobile_device_type] : null;
  return (
    <Box component="li" sx={{ display: 'flex', gap: 1.5, listStyle: 'none' }}>
      <Box
        aria-hidden
        sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', pt: 0.75 }}
      >
        <Box
          sx={{
            width: 10,
            height: 10,
            borderRadius: '50%',
            bgcolor: 'primary.main',
            flexShrink: 0,
          }}
        />
        {last ? null : <Box sx={{ width: 2, flex: 1, bgcolor: 'divider', mt: 0.5 }} />}
      </Box>
      <Box sx={{ pb: last ? 0 : 2, minWidth: 0 }}>
        <Typography sx={{ fontWeight: 600, fontSize: '0.9375rem' }}>
          {action.action_type_display || action.action_type || 'Action'}
        </Typography>
        <Typography variant="body2" className="tabular-nums">
          {formatDateTime(action.timestamp, timeZone)}
          {' · '}
          {action.created_by_user ? `by ${action.created_by_user}` : 'by the device'}
          {device ? ` (${device})` : ''}
        </Typography>
        {/* Only where the action was placed: 'Position unknown' under most lines was noise. */}
        {isKnownPosition(action.latitude, action.longitude) ? (
          <Typography variant="body2" color="text.secondary" className="tabular-nums">
            {formatPosition(action.latitude, action.longitude)}
          </Typography>
        ) : null}
      </Box>
    </Box>
  );
}

/** What was done to the record, newest first: the action, who, when and where. */
export function ActionsTimeline({
  query,
  timeZone,
}: {
  query: ReturnType<typeof useRecordActions>;
  timeZone: string;
}) {
  const actions = useMemo(() => (query.data ? newestFirst(query.data) : null), [query.data]);
  let body;
  if (query.isError) {
    body = (
      <LoadError
        what="the actions"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else if (!actions) {
    body = (
      <Stack spacing={1} role="status" aria-label="Loading the actions">
        <Skeleton variant="text" width="60%" />
        <Skeleton variant="text" width="45%" />
        <Skeleton variant="text" width="55%" />
      </Stack>
    );
  } else if (actions.length === 0) {
    body = <EmptyState>No actions recorded yet.</EmptyState>;
  } else {
    body = (
      <Box component="ol" sx={{ p: 0, m: 0 }}>
        {actions.map((action, i) => (
          <ActionItem
            key={action.id ?? i}
            action={action}
            timeZone={timeZone}
            last={i === actions.length - 1}
          />
        ))}
      </Box>
    );
  }
  return (
    <SectionCard title="Actions" subtitle={actions ? 'Newest first' : undefined}>
      {body}
    </SectionCard>
  );
}
