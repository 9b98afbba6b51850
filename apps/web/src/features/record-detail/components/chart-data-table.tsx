import { formatDateTime, MISSING_VALUE } from '@coldtrace/domain';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import { useState } from 'react';
import { formatTemperatureWith } from '../../../lib/display-rule';
import type { ChartReading } from '../chart-data';
import { formatCount } from '../display';
import { THRESHOLD_FLAG_TEXT, thresholdFlag, type PointReadingOptions } from './chart-navigation';

/**
 * The chart's readings as a table (issue 11: the chart read without a mouse):
 * point, time, temperature and where it stands against the thresholds, one
 * page at a time (a record may hold 100,000 points; only the page shown is
 * rendered).
 */

const ROWS_PER_PAGE = [25, 50, 100];

function flagText(flag: 'above' | 'below' | null, hasThresholds: boolean): string {
  if (flag) return THRESHOLD_FLAG_TEXT[flag].replace(/^./, (c) => c.toUpperCase());
  return hasThresholds ? 'Within thresholds' : MISSING_VALUE;
}

export function ChartDataTable({
  id,
  readings,
  options,
}: {
  id: string;
  readings: readonly ChartReading[];
  options: PointReadingOptions;
}) {
  const [rowsPerPage, setRowsPerPage] = useState(ROWS_PER_PAGE[0]!);
  const [page, setPage] = useState(0);
  const lastPage = Math.max(0, Math.ceil(readings.length / rowsPerPage) - 1);
  const shown = Math.min(page, lastPage);
  const first = shown * rowsPerPage;
  const rows = readings.slice(first, first + rowsPerPage);
  const hasThresholds = options.high != null || options.low != null;
  const captionId = `${id}-caption`;

  return (
    <Box id={id} sx={{ maxWidth: 760 }}>
      {/* A narrow screen scrolls the table sideways, never the page; the keyboard can scroll it too. */}
      <Box role="region" aria-labelledby={captionId} tabIndex={0} sx={{ overflowX: 'auto' }}>
        <Table
          size="small"
          aria-labelledby={captionId}
          sx={{ '& td, & th': { px: { xs: 0.5, sm: 1 } } }}
        >
          <caption id={captionId} style={{ captionSide: 'top', padding: '0 0 8px' }}>
            Temperature readings: {formatCount(readings.length)} points, in °{options.unit},{' '}
            {options.timeZone} time.
          </caption>
          <TableHead>
            <TableRow>
              <TableCell scope="col" align="right">
                Point
              </TableCell>
              <TableCell scope="col">Time</TableCell>
              <TableCell scope="col" align="right">
                Temperature
              </TableCell>
              <TableCell scope="col">Threshold</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((reading, i) => {
              const flag = thresholdFlag(reading.temperature, options.high, options.low);
              return (
                <TableRow key={reading.index}>
                  <TableCell align="right">{formatCount(first + i + 1)}</TableCell>
                  <TableCell component="th" scope="row">
                    {formatDateTime(reading.time * 1000, options.timeZone)}
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {formatTemperatureWith(reading.temperature, options.unit, options.decimals)}
                  </TableCell>
                  <TableCell
                    sx={flag ? { color: flag === 'above' ? 'error.main' : 'info.dark' } : undefined}
                  >
                    {flagText(flag, hasThresholds)}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </Box>
      <TablePagination
        component="div"
        count={readings.length}
        page={shown}
        rowsPerPage={rowsPerPage}
        rowsPerPageOptions={ROWS_PER_PAGE}
        onPageChange={(_event, next) => setPage(next)}
        onRowsPerPageChange={(event) => {
          setRowsPerPage(Number(event.target.value));
          setPage(0);
        }}
        labelRowsPerPage="Rows per page"
        showFirstButton
        showLastButton
        sx={{ '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', px: 0 } }}
      />
    </Box>
  );
}
