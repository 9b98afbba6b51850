import InfoOutlined from '@mui/icons-material/InfoOutlined';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { DataTable, type DataColumn } from './data-table';
import { LoadError } from './load-error';

/**
 * The list part of a card (`SectionCard`): skeleton rows while loading, what
 * failed with a retry, an empty state saying what to do next, or the table.
 * The configuration lists and Manage Users' invitations use it.
 */

/** The message of an empty list, inside its card. */
function EmptyList({ children }: { children: ReactNode }) {
  return (
    <Stack
      direction="row"
      spacing={1.5}
      sx={{
        px: { xs: 2, sm: 3 },
        py: 3,
        borderTop: 1,
        borderColor: 'divider',
        alignItems: 'flex-start',
      }}
    >
      <InfoOutlined sx={{ color: 'text.secondary' }} aria-hidden />
      <Typography color="text.secondary">{children}</Typography>
    </Stack>
  );
}

/** A card's load error with a Retry button, in the card's padding. */
export function SectionLoadError({
  what,
  query,
}: {
  /** For the error: "Could not load {what}". */
  what: string;
  query: Pick<UseQueryResult, 'error' | 'refetch' | 'isFetching'>;
}) {
  return (
    <Box sx={{ px: { xs: 2, sm: 3 }, pb: 2.5 }}>
      <LoadError
        what={what}
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    </Box>
  );
}

/** The list part of a card: loading, error, empty or the table. */
export function SectionList<R>({
  query,
  what,
  label,
  columns,
  rowKey,
  empty,
  actions,
  minWidth,
}: {
  query: UseQueryResult<R[]>;
  /** For the error: "Could not load {what}". */
  what: string;
  /** Accessible name of the table. */
  label: string;
  columns: readonly DataColumn<R>[];
  rowKey: (row: R, index: number) => string;
  empty: ReactNode;
  actions?: (row: R) => ReactNode;
  minWidth?: number;
}) {
  if (query.isError) return <SectionLoadError what={what} query={query} />;
  if (query.isSuccess && query.data.length === 0) return <EmptyList>{empty}</EmptyList>;
  return (
    <Box sx={{ borderTop: 1, borderColor: 'divider' }}>
      {query.isPending ? (
        <Box role="status" aria-label={`Loading ${what}`}>
          <DataTable
            label={label}
            columns={columns}
            rows={[]}
            rowKey={rowKey}
            loading
            actions={actions}
            minWidth={minWidth}
          />
        </Box>
      ) : (
        <DataTable
          label={label}
          columns={columns}
          rows={query.data ?? []}
          rowKey={rowKey}
          actions={actions}
          minWidth={minWidth}
        />
      )}
    </Box>
  );
}
