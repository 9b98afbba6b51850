import type { TRecord } from '@coldtrace/contract';
import Stack from '@mui/material/Stack';
import { useMemo } from 'react';
import { TABLE_STATE_PARAMS } from '@coldtrace/domain';
import { useNavigate } from 'react-router';
import { useUpdateSearch } from '../../lib/url-search';
import { LoadError } from '../../components/load-error';
import { Page } from '../../components/page';
import { useAppSettings } from '../../lib/app-settings';
import { useCurrentUser } from '../session';
import { useRecords, type RecordsQuery } from './api/list-records';
import {
  DISPOSITION_FILTER_LABELS,
  DISPOSITION_PARAM,
  DispositionFilter,
  useDispositionFilter,
} from './components/disposition-filter';
import {
  REVIEW_STATE_FILTER_LABELS,
  REVIEW_STATE_PARAM,
  ReviewStateFilter,
  useReviewStateFilter,
} from './components/review-state-filter';
import type { AppliedFilter } from '../../components/server-grid/filter-bar';
import { TimeZoneNote } from './components/time-zone-note';
import { columnVisibilityKey } from '../../components/server-grid/column-visibility';
import { ServerDataGrid } from '../../components/server-grid/server-data-grid';
import { useServerGridQuery } from '../../components/server-grid/use-server-grid-query';
import { RECORD_DEFAULT_VISIBILITY, recordColumns, recordFilterSpecs } from './record-columns';
import { GRID_DEFAULT_PAGE_SIZE, GRID_PAGE_SIZES, recordHref } from './record-links';

export const NO_RECORDS_YET =
  'No records yet: scan a tag with the phone app or run the simulator (npm run simulate).';

/**
 * /allrecords: every record of the organization in a server-mode grid;
 * filters, order and page in the URL, so a copied link reopens the same view.
 */
export function AllRecordsPage() {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const { hiddenFields: hidden } = useAppSettings();
  // The display rule's hidden fields have no column and no filter.
  const filterSpecs = useMemo(() => recordFilterSpecs(hidden), [hidden]);
  const {
    controls,
    query: gridQuery,
    unit,
    timeZone,
    decimals,
    hiddenFields,
  } = useServerGridQuery(filterSpecs, GRID_DEFAULT_PAGE_SIZE);
  const [disposition, setDisposition] = useDispositionFilter();
  const [reviewState, setReviewState] = useReviewStateFilter();
  const updateSearch = useUpdateSearch();
  // The selects above the grid filter too: the filter bar names them (never "None" then).
  // Kept stable between renders (the grid's toolbar re-renders with it while a filter is typed).
  const pageFilters = useMemo(() => {
    const applied: AppliedFilter[] = [];
    if (reviewState) {
      applied.push({
        key: 'review_state',
        label: `Review state is ${REVIEW_STATE_FILTER_LABELS[reviewState]}`,
        onRemove: () => setReviewState(undefined),
      });
    }
    if (disposition) {
      applied.push({
        key: 'disposition',
        label: `Release decision is ${DISPOSITION_FILTER_LABELS[disposition]}`,
        onRemove: () => setDisposition(undefined),
      });
    }
    const clearAll = () =>
      updateSearch((current) => {
        const out = new URLSearchParams(current);
        for (const name of [
          REVIEW_STATE_PARAM,
          DISPOSITION_PARAM,
          TABLE_STATE_PARAMS.filterItems,
          TABLE_STATE_PARAMS.filterLogicOperator,
          TABLE_STATE_PARAMS.pageNumber,
        ]) {
          out.delete(name);
        }
        return out;
      });
    return { applied, clearAll };
  }, [reviewState, disposition, setReviewState, setDisposition, updateSearch]);
  const query: RecordsQuery = {
    ...gridQuery,
    ...(disposition ? { disposition } : {}),
    ...(reviewState ? { review_state: reviewState } : {}),
  };

  const records = useRecords(query);
  const columns = useMemo(
    () => recordColumns({ unit, timeZone, decimals, hiddenFields }),
    [unit, timeZone, decimals, hiddenFields],
  );
  const filtered =
    query.filter !== undefined || disposition !== undefined || reviewState !== undefined;

  return (
    <Page title="All Records" subtitle={<TimeZoneNote />}>
      <Stack spacing={2}>
        <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <ReviewStateFilter value={reviewState} onChange={setReviewState} />
          <DispositionFilter value={disposition} onChange={setDisposition} />
        </Stack>
        {records.isError ? (
          <LoadError
            what="the records"
            error={records.error}
            onRetry={() => void records.refetch()}
            retrying={records.isFetching}
          />
        ) : null}
        <ServerDataGrid<TRecord>
          label="Records"
          rows={records.data?.data ?? []}
          columns={columns}
          getRowId={(row) => row.id ?? ''}
          rowCount={records.data?.totalCount ?? records.data?.data.length ?? 0}
          loading={records.isFetching}
          controls={controls}
          filterSpecs={filterSpecs}
          unit={unit}
          pageSizes={GRID_PAGE_SIZES}
          visibilityKey={columnVisibilityKey('allrecords', user?.id)}
          defaultVisibility={RECORD_DEFAULT_VISIBILITY}
          onRowOpen={(row) => {
            if (row.id) void navigate(recordHref(row.id));
          }}
          pageFilters={pageFilters}
          noRowsText={
            records.isError
              ? 'The records could not be loaded.'
              : filtered
                ? 'No records match these filters.'
                : NO_RECORDS_YET
          }
        />
      </Stack>
    </Page>
  );
}
