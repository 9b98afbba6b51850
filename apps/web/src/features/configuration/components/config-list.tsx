import EditOutlined from '@mui/icons-material/EditOutlined';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { LoadError } from '../../../components/load-error';

/**
 * One configuration list in its card (`SectionCard`): a heading with what the
 * list is for and its Add button, then skeleton rows while loading, what
 * failed with a retry, an empty state saying what to do next, or the table.
 */
export { SectionCard as ConfigSection } from '../../../components/section-card';

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
export function CardLoadError({
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
export function ConfigList<R>({
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
  if (query.isError) return <CardLoadError what={what} query={query} />;
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

/** The Edit icon button of a row: "Edit {name}". */
export function EditButton({ name, onClick }: { name: string; onClick: () => void }) {
  return (
    <Tooltip title="Edit">
      <IconButton size="small" aria-label={`Edit ${name}`} onClick={onClick}>
        <EditOutlined fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}
