import type { TAuditEvent } from '@coldtrace/contract';
import { formatDateTime } from '@coldtrace/domain';
import FileDownloadRounded from '@mui/icons-material/FileDownloadRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { EmptyState } from '../../../components/empty-state';
import { LoadError } from '../../../components/load-error';
import { recordAuditCsvUrl, type useRecordAudit } from '../api/get-record-audit';
import { useAppSettings } from '../../../lib/app-settings';
import { auditChange, auditWhat, isAuditValueHidden } from '../audit-display';
import { SectionCard } from './section-card';

function AuditItem({ entry, timeZone }: { entry: TAuditEvent; timeZone: string }) {
  const { hiddenFields, degreesUnit } = useAppSettings();
  const hidden = isAuditValueHidden(entry, hiddenFields);
  return (
    <Box
      component="li"
      sx={{ listStyle: 'none', py: 1, borderBottom: 1, borderColor: 'divider', minWidth: 0 }}
    >
      <Stack
        direction="row"
        useFlexGap
        sx={{ flexWrap: 'wrap', columnGap: 1, rowGap: 0.25, alignItems: 'baseline' }}
      >
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {auditWhat(entry)}
        </Typography>
        <Typography variant="body2" color="text.secondary" className="tabular-nums">
          {entry.actor_name} · {formatDateTime(entry.occurred_at, timeZone)}
          {entry.client_type ? ` · ${entry.client_type}` : ''}
        </Typography>
      </Stack>
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
        {auditChange(entry, { unit: degreesUnit, timeZone, hidden })}
      </Typography>
      {entry.reason ? (
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          Reason: {entry.reason}
        </Typography>
      ) : null}
    </Box>
  );
}

/**
 * The record's audit trail: who changed what, when (in the user's zone),
 * old → new value and why, newest first; the whole trail as CSV.
 */
export function AuditCard({
  recordId,
  query,
  timeZone,
}: {
  recordId: string;
  query: ReturnType<typeof useRecordAudit>;
  timeZone: string;
}) {
  let body;
  if (query.isError) {
    body = (
      <LoadError
        what="the audit trail"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else if (!query.data) {
    body = (
      <Stack spacing={1} aria-label="Loading the audit trail" role="status">
        <Skeleton variant="rounded" height={48} />
        <Skeleton variant="rounded" height={48} />
      </Stack>
    );
  } else if (query.data.entries.length === 0) {
    body = <EmptyState>No changes recorded for this record yet.</EmptyState>;
  } else {
    body = (
      <Box component="ul" sx={{ p: 0, m: 0 }}>
        {query.data.entries.map((entry) => (
          <AuditItem key={entry.id} entry={entry} timeZone={timeZone} />
        ))}
      </Box>
    );
  }
  const { total = 0, entries = [] } = query.data ?? {};
  return (
    <SectionCard
      title="Audit trail"
      subtitle={
        query.data
          ? total > entries.length
            ? `The newest ${entries.length} of ${total} changes`
            : `${total} change${total === 1 ? '' : 's'}`
          : undefined
      }
      action={
        <Button
          size="small"
          variant="outlined"
          startIcon={<FileDownloadRounded />}
          href={recordAuditCsvUrl(recordId)}
          download
        >
          Export CSV
        </Button>
      }
    >
      {body}
    </SectionCard>
  );
}
