import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import type { SxProps, Theme } from '@mui/material/styles';
import { useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { sortRows, type SortDirection, type SortValue } from './data-table-sort';

/**
 * A plain, accessible table for short lists sorted on the client (the
 * configuration lists): real `<table>` semantics, the first column as the row
 * header and sticky while the table scrolls sideways inside its card (phones),
 * numbers right-aligned with tabular figures, sortable headers, and skeleton
 * rows while loading. Empty and error states are the caller's.
 */

export interface DataColumn<R> {
  key: string;
  header: string;
  render: (row: R) => ReactNode;
  /** Makes the column sortable by this value. */
  sortValue?: (row: R) => SortValue;
  /** Right-aligned, tabular figures. */
  numeric?: boolean;
  /** Keep the cell on one line. */
  nowrap?: boolean;
  minWidth?: number;
  maxWidth?: number;
  /**
   * A heading over consecutive columns of the same group (e.g. "Thresholds"
   * over High and Low); the other columns' headings span both header rows.
   */
  group?: string;
}

interface ColumnRun<R> {
  group: string | undefined;
  start: number;
  columns: DataColumn<R>[];
}

/** Consecutive columns of one group, and every ungrouped column on its own. */
export function columnRuns<R>(columns: readonly DataColumn<R>[]): ColumnRun<R>[] {
  const runs: ColumnRun<R>[] = [];
  columns.forEach((column, index) => {
    const last = runs[runs.length - 1];
    if (column.group !== undefined && last?.group === column.group) last.columns.push(column);
    else runs.push({ group: column.group, start: index, columns: [column] });
  });
  return runs;
}

/**
 * Hides text visually while keeping it for screen readers. In pixels: in `sx`
 * a width of 1 is 100% and a margin of -1 one spacing unit, which made the
 * hidden text as wide as its cell and widened a table's scroll (issue 35).
 */
export const visuallyHiddenSx: SxProps<Theme> = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
};

const stickySx = {
  position: 'sticky',
  left: 0,
  zIndex: 1,
  bgcolor: 'background.paper',
  boxShadow: (theme: Theme) => `inset -1px 0 0 ${theme.palette.divider}`,
} as const;

/** A line before each group of columns. */
const groupEdgeSx = {
  borderLeft: 1,
  borderLeftColor: 'divider',
} as const;

/** Whether the element is wider inside than it shows (it scrolls sideways). */
function useOverflowsHorizontally<E extends HTMLElement>() {
  const ref = useRef<E>(null);
  const [overflows, setOverflows] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const measure = () => setOverflows(element.scrollWidth > element.clientWidth + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    const table = element.firstElementChild;
    if (table) observer.observe(table);
    return () => observer.disconnect();
  }, []);
  return [ref, overflows] as const;
}

export function DataTable<R>({
  label,
  columns,
  rows,
  rowKey,
  loading = false,
  skeletonRows = 4,
  actions,
  actionsHeader = 'Actions',
  minWidth,
}: {
  /** Accessible name of the table (e.g. "Products"). */
  label: string;
  columns: readonly DataColumn<R>[];
  rows: readonly R[];
  rowKey: (row: R, index: number) => string;
  /** Shows skeleton rows instead of `rows`. */
  loading?: boolean;
  skeletonRows?: number;
  /** A last column of row actions (e.g. an Edit icon button). */
  actions?: (row: R) => ReactNode;
  actionsHeader?: string;
  /** Width under which the table scrolls sideways inside its container. */
  minWidth?: number;
}) {
  const [sort, setSort] = useState<{ key: string; direction: SortDirection } | null>(null);
  const [containerRef, scrollable] = useOverflowsHorizontally<HTMLDivElement>();

  const sortedRows = useMemo(() => {
    const column = sort ? columns.find((c) => c.key === sort.key) : undefined;
    if (!sort || !column?.sortValue) return rows;
    return sortRows(rows, column.sortValue, sort.direction);
  }, [rows, columns, sort]);

  const toggleSort = (key: string) =>
    setSort((current) =>
      current?.key === key
        ? { key, direction: current.direction === 'asc' ? 'desc' : 'asc' }
        : { key, direction: 'asc' },
    );

  // Headers may wrap; body cells of `nowrap` columns stay on one line.
  // The sticky first column stays narrow on phones, to leave room for the figures.
  const headSx = (column: DataColumn<R>, index: number) => ({
    ...(column.minWidth
      ? {
          minWidth:
            index === 0
              ? { xs: Math.min(column.minWidth, 120), sm: column.minWidth }
              : column.minWidth,
        }
      : {}),
    ...(column.maxWidth
      ? {
          maxWidth:
            index === 0
              ? { xs: Math.min(column.maxWidth, 150), sm: column.maxWidth }
              : column.maxWidth,
        }
      : {}),
    ...(index === 0 ? stickySx : {}),
  });
  const cellSx = (column: DataColumn<R>, index: number) => ({
    ...headSx(column, index),
    ...(column.numeric ? { fontVariantNumeric: 'tabular-nums' } : {}),
    ...(column.nowrap ? { whiteSpace: 'nowrap' } : {}),
    ...(groupStarts.has(column.key) ? groupEdgeSx : {}),
  });

  const indexOf = (column: DataColumn<R>) => columns.indexOf(column);
  const headRuns = useMemo(() => columnRuns(columns), [columns]);
  const grouped = headRuns.some((run) => run.group !== undefined);
  const groupStarts = new Set(
    headRuns
      // The sticky first column already draws a line on its right.
      .filter((run) => run.group !== undefined && run.start > 1)
      .map((run) => run.columns[0]!.key),
  );

  const headerCell = (column: DataColumn<R>, rowSpan?: number) => {
    const index = indexOf(column);
    const active = sort?.key === column.key;
    return (
      <TableCell
        key={column.key}
        rowSpan={rowSpan}
        align={column.numeric ? 'right' : 'left'}
        sortDirection={active ? sort.direction : false}
        sx={{
          ...headSx(column, index),
          ...(groupStarts.has(column.key) ? groupEdgeSx : {}),
          fontWeight: 600,
          verticalAlign: 'bottom',
        }}
      >
        {column.sortValue ? (
          <TableSortLabel
            active={active}
            direction={active ? sort.direction : 'asc'}
            onClick={() => toggleSort(column.key)}
            // Numbers: the arrow goes left of the heading, so the heading lines up with the figures.
            sx={column.numeric ? { flexDirection: 'row-reverse' } : undefined}
          >
            {column.header}
          </TableSortLabel>
        ) : (
          column.header
        )}
      </TableCell>
    );
  };

  return (
    <TableContainer
      ref={containerRef}
      role={scrollable ? 'region' : undefined}
      aria-label={scrollable ? `${label} (scrolls sideways)` : undefined}
      // A table that scrolls sideways must be reachable from the keyboard.
      tabIndex={scrollable ? 0 : undefined}
      aria-busy={loading || undefined}
    >
      <Table size="small" aria-label={label} sx={{ minWidth }}>
        <TableHead>
          <TableRow>
            {headRuns.map((run) =>
              run.group === undefined ? (
                headerCell(run.columns[0]!, grouped ? 2 : undefined)
              ) : (
                <TableCell
                  key={`group-${run.start}`}
                  colSpan={run.columns.length}
                  scope="colgroup"
                  align="center"
                  sx={{
                    ...(run.start > 1 ? groupEdgeSx : {}),
                    fontWeight: 600,
                    color: 'text.secondary',
                    pb: 0.5,
                  }}
                >
                  {run.group}
                </TableCell>
              ),
            )}
            {actions ? (
              // Relative, so the hidden text stays inside the scrolling container.
              <TableCell
                align="right"
                rowSpan={grouped ? 2 : undefined}
                sx={{ width: 56, position: 'relative' }}
              >
                <Box component="span" sx={visuallyHiddenSx}>
                  {actionsHeader}
                </Box>
              </TableCell>
            ) : null}
          </TableRow>
          {grouped ? (
            <TableRow>
              {headRuns
                .filter((run) => run.group !== undefined)
                .flatMap((run) => run.columns.map((column) => headerCell(column)))}
            </TableRow>
          ) : null}
        </TableHead>
        <TableBody>
          {loading
            ? Array.from({ length: skeletonRows }, (_, rowIndex) => (
                <TableRow key={`skeleton-${rowIndex}`}>
                  {columns.map((column, index) => (
                    <TableCell key={column.key} sx={cellSx(column, index)}>
                      <Skeleton variant="text" width={index === 0 ? '80%' : '60%'} />
                    </TableCell>
                  ))}
                  {actions ? (
                    <TableCell>
                      <Skeleton variant="circular" width={24} height={24} />
                    </TableCell>
                  ) : null}
                </TableRow>
              ))
            : sortedRows.map((row, rowIndex) => (
                <TableRow key={rowKey(row, rowIndex)} hover>
                  {columns.map((column, index) => (
                    <TableCell
                      key={column.key}
                      component={index === 0 ? 'th' : 'td'}
                      scope={index === 0 ? 'row' : undefined}
                      align={column.numeric ? 'right' : 'left'}
                      sx={{ ...cellSx(column, index), ...(index === 0 ? { fontWeight: 500 } : {}) }}
                    >
                      {column.render(row)}
                    </TableCell>
                  ))}
                  {actions ? (
                    <TableCell align="right" sx={{ py: 0.25 }}>
                      {actions(row)}
                    </TableCell>
                  ) : null}
                </TableRow>
              ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
