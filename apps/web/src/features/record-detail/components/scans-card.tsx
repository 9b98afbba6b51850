import type { TDegreesUnit, TScan } from '@coldtrace/contract';
import { formatDateTime, MISSING_VALUE } from '@coldtrace/domain';
import ExpandMoreRounded from '@mui/icons-material/ExpandMoreRounded';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import { ValueLoading } from '../../../components/page-loading';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { EmptyState } from '../../../components/empty-state';
import { LoadError } from '../../../components/load-error';
import { useAppSettings } from '../../../lib/app-settings';
import { formatTemperatureWith } from '../../../lib/display-rule';
import type { useRecordScans } from '../api/get-record-scans';
import { formatCount, formatPosition } from '../display';

const DEVICE_LABELS: Record<string, string> = { WEB: 'Web', IOS: 'iOS', ANDROID: 'Android' };

const numeric = { textAlign: 'right', whiteSpace: 'nowrap' } as const;

/** The record's scans, newest first, in a table folded away at the bottom of the page. */
export function ScansCard({
  query,
  unit,
  timeZone,
}: {
  query: ReturnType<typeof useRecordScans>;
  unit: TDegreesUnit;
  timeZone: string;
}) {
  const { temperatureDecimals: decimals } = useAppSettings();
  const formatTemperature = (celsius: number | null | undefined) =>
    formatTemperatureWith(celsius, unit, decimals);
  const scans: TScan[] | undefined = query.data;
  let body;
  if (query.isError) {
    body = (
      <LoadError
        what="the scans"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else if (!scans) {
    body = <ValueLoading variant="rounded" height={120} aria-label="Loading the scans" />;
  } else if (scans.length === 0) {
    body = <EmptyState>No scans yet: scan the tag with the phone app.</EmptyState>;
  } else {
    body = (
      // It scrolls sideways on a phone, so it is a region the keyboard can reach (axe).
      <TableContainer
        sx={{ overflowX: 'auto' }}
        role="region"
        aria-label="Scans (scrolls sideways)"
        tabIndex={0}
      >
        <Table size="small" aria-label="Scans, newest first" className="tabular-nums">
          <TableHead>
            <TableRow>
              <TableCell>Scanned</TableCell>
              <TableCell>By</TableCell>
              <TableCell>Position</TableCell>
              <TableCell sx={numeric}>Highest</TableCell>
              <TableCell sx={numeric}>Lowest</TableCell>
              <TableCell sx={numeric}>MKT</TableCell>
              <TableCell sx={numeric}>Latest</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>Device</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {scans.map((scan, i) => (
              <TableRow key={scan.id ?? i}>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {formatDateTime(scan.timestamp, timeZone)}
                </TableCell>
                <TableCell>{scan.created_by_user || 'Unknown'}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {formatPosition(scan.latitude, scan.longitude)}
                </TableCell>
                <TableCell sx={numeric}>{formatTemperature(scan.highest_recorded_temp)}</TableCell>
                <TableCell sx={numeric}>{formatTemperature(scan.lowest_recorded_temp)}</TableCell>
                <TableCell sx={numeric}>{formatTemperature(scan.mean_kinetic_temp)}</TableCell>
                <TableCell sx={numeric}>{formatTemperature(scan.latest_temp)}</TableCell>
                <TableCell>{scan.status ?? MISSING_VALUE}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {scan.mobile_device_type ? DEVICE_LABELS[scan.mobile_device_type] : MISSING_VALUE}
                  {scan.mobile_app_version ? ` ${scan.mobile_app_version.slice(0, 24)}` : ''}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    );
  }
  return (
    <Accordion
      variant="outlined"
      disableGutters
      slots={{ heading: 'h2' }}
      sx={{
        borderRadius: 1,
        '&::before': { display: 'none' },
        // The heading slot is a plain h2: without this, the browser's h2 margins
        // make this header taller than the other cards'.
        '& .MuiAccordion-heading': { m: 0 },
      }}
    >
      <AccordionSummary
        expandIcon={<ExpandMoreRounded />}
        aria-controls="record-scans"
        id="record-scans-header"
        sx={{
          px: { xs: 1.5, sm: 2.5 },
          '& .MuiAccordionSummary-content': { my: { xs: 1.5, sm: 2.5 } },
        }}
      >
        <Box component="span" sx={{ display: 'block' }}>
          <Typography component="span" variant="h2" sx={{ display: 'block', fontSize: '1.125rem' }}>
            Scans{scans ? ` (${formatCount(scans.length)})` : ''}
          </Typography>
          <Typography
            component="span"
            variant="body2"
            color="text.secondary"
            sx={{ display: 'block' }}
          >
            Each scan&apos;s own readings, newest first
          </Typography>
        </Box>
      </AccordionSummary>
      <AccordionDetails id="record-scans" sx={{ px: { xs: 0.5, sm: 2 } }}>
        {body}
      </AccordionDetails>
    </Accordion>
  );
}
