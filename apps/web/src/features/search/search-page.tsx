import { SEARCH_PAGE_SIZE } from '@coldtrace/contract';
import SearchOutlined from '@mui/icons-material/SearchOutlined';
import Box from '@mui/material/Box';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useNavigate, useSearchParams } from 'react-router';
import { EmptyState } from '../../components/empty-state';
import { LoadError } from '../../components/load-error';
import { Page } from '../../components/page';
import { RecordList, RecordListSkeleton, TimeZoneNote } from '../records';
import { useSearchRecords } from './api/search-records';
import { pageCount, readSearchState, searchHref } from './search-params';

const SEARCHED_FIELDS =
  'record id, tag serial number, primary, secondary and shipping references, program, shipper, receiver, carrier, product and PO number';

/**
 * /search?searchTerms=...&page=...: records matching any word of the terms,
 * 5 per page (spec sections 2 and 9).
 */
export function SearchPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { terms, page } = readSearchState(params);
  const results = useSearchRecords({ terms, page, pageSize: SEARCH_PAGE_SIZE });
  const records = results.data?.data ?? [];
  const total = results.data?.totalCount ?? records.length;
  const pages = pageCount(total, SEARCH_PAGE_SIZE);

  return (
    <Page
      title={terms ? `Search: ${terms}` : 'Search Results'}
      heading="Search Results"
      subtitle={
        terms ? (
          <Box
            component="span"
            sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, rowGap: 0.5 }}
          >
            <span>
              Records matching any word of <strong>“{terms}”</strong>
            </span>
            <TimeZoneNote />
          </Box>
        ) : undefined
      }
    >
      {terms === '' ? (
        <EmptyState icon={<SearchOutlined />}>
          Type in the search box at the top of the page and press Enter. Search looks at the{' '}
          {SEARCHED_FIELDS}.
        </EmptyState>
      ) : results.isError ? (
        <LoadError
          what="the search results"
          error={results.error}
          onRetry={() => void results.refetch()}
          retrying={results.isFetching}
        />
      ) : results.isPending ? (
        <Paper variant="outlined">
          <RecordListSkeleton rows={SEARCH_PAGE_SIZE} />
        </Paper>
      ) : total === 0 ? (
        <EmptyState icon={<SearchOutlined />}>
          No records match “{terms}”. Search looks at the {SEARCHED_FIELDS}; try fewer or shorter
          words.
        </EmptyState>
      ) : (
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary" role="status">
            {total.toLocaleString('en-US')} {total === 1 ? 'record' : 'records'}
            {pages > 1 ? ` · page ${Math.min(page, pages)} of ${pages}` : ''}
          </Typography>
          <Paper
            variant="outlined"
            sx={{ overflow: 'hidden', opacity: results.isPlaceholderData ? 0.6 : 1 }}
          >
            {records.length > 0 ? (
              <RecordList
                records={records}
                showTemperature={false}
                showTrip
                label={`Search results, page ${page}`}
              />
            ) : (
              <Typography sx={{ p: 2 }} color="text.secondary">
                Page {page} is past the last page of results.
              </Typography>
            )}
          </Paper>
          {pages > 1 || page > pages ? (
            <Pagination
              count={Math.max(pages, page)}
              page={page}
              onChange={(_event, next) => void navigate(searchHref(terms, next))}
              color="primary"
              siblingCount={1}
              sx={{ alignSelf: 'center' }}
              getItemAriaLabel={(type, item, selected) =>
                type === 'page' ? `${selected ? '' : 'Go to '}page ${item}` : `Go to ${type} page`
              }
            />
          ) : null}
        </Stack>
      )}
    </Page>
  );
}
