import { HOME_LIST_ORDER_BY, HOME_LIST_PAGE_SIZE } from '@coldtrace/contract';
import InventoryOutlined from '@mui/icons-material/InventoryOutlined';
import Paper from '@mui/material/Paper';
import { useMemo } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { LoadError } from '../../../components/load-error';
import { livePollMs } from '../../../lib/live-updates';
import { RecordList, RecordListSkeleton, useRecords, type RecordsQuery } from '../../records';

const HOME_QUERY: RecordsQuery = {
  page_number: 1,
  page_size: HOME_LIST_PAGE_SIZE,
  order_by: [HOME_LIST_ORDER_BY],
};

export const HOME_EMPTY_TEXT =
  'No records yet: scan a tag with the phone app or run the simulator (npm run simulate).';

/**
 * The home list (spec section 2): page 1, 20 records, ordered by
 * -last_action_taken, each with its last temperature. Asked again every few
 * seconds while the tab is visible (docs/decisions/live-records.md).
 */
export function HomeList() {
  const records = useRecords(HOME_QUERY, { refetchInterval: livePollMs() });
  const rows = useMemo(() => records.data?.data ?? [], [records.data]);

  if (records.isError) {
    return (
      <LoadError
        what="the latest records"
        error={records.error}
        onRetry={() => void records.refetch()}
        retrying={records.isFetching}
      />
    );
  }
  if (records.isPending) {
    return (
      <Paper variant="outlined">
        <RecordListSkeleton rows={6} />
      </Paper>
    );
  }
  if (rows.length === 0) {
    return <EmptyState icon={<InventoryOutlined />}>{HOME_EMPTY_TEXT}</EmptyState>;
  }
  return (
    <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
      <RecordList records={rows} label="Latest records" />
    </Paper>
  );
}
