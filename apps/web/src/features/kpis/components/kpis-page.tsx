import { KPI_GROUPS, type TKpiGroup, type TKpiReport, type TKpiRow } from '@coldtrace/contract';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { LoadError } from '../../../components/load-error';
import { OutlinedTextField } from '../../../components/outlined-text-field';
import { Page } from '../../../components/page';
import { PageLoading } from '../../../components/page-loading';
import { addDays } from '../../../components/server-grid/zoned-day';
import { kpisCsvUrl, useKpis, type KpiParams } from '../api';
import { ExcursionChart } from './excursion-chart';

const GROUP_LABEL: Record<TKpiGroup, string> = { lane: 'Lanes', carrier: 'Carriers' };

const percent = (share: number | null) =>
  share === null ? '–' : `${(share * 100).toLocaleString('en', { maximumFractionDigits: 1 })} %`;
const number = (value: number, digits = 0) =>
  value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const minutes = (value: number | null) => (value === null ? '–' : `${number(value, 1)} min`);

function laneName(row: TKpiRow): string {
  if (row.carrier !== undefined) return row.carrier === '' ? 'No carrier' : row.carrier;
  if (!row.origin && !row.destination) return 'No origin or destination';
  return `${row.origin?.name ?? 'No origin'} → ${row.destination?.name ?? 'No destination'}`;
}

/** UTC today (the API's days are UTC). */
const todayUtc = () => new Date().toISOString().slice(0, 10);

/**
 * Lanes & carriers (issue 15 item 4): per lane (origin to destination) or
 * carrier over a period, shipments, excursion rate, degree-minutes, mean time
 * to acknowledge and the shares released and rejected, with the excursion
 * rate over time and a CSV export of the same.
 */
export function KpisPage() {
  const today = todayUtc();
  const [params, setParams] = useState<KpiParams>({
    from: addDays(today, -89),
    to: today,
    group_by: 'lane',
  });
  const query = useKpis(params);
  const report = query.data;
  const setDay = (which: 'from' | 'to', value: string) => {
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) setParams({ ...params, [which]: value });
  };

  return (
    <Page
      title="Lanes & carriers"
      subtitle="Shipments that started in the period (days in UTC)"
      actions={
        <Button
          variant="outlined"
          startIcon={<FileDownloadOutlined />}
          href={kpisCsvUrl(params)}
          download
        >
          Download CSV
        </Button>
      }
    >
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ mb: 2, alignItems: { xs: 'stretch', sm: 'center' } }}
      >
        <Stack direction="row" spacing={1}>
          <OutlinedTextField
            type="date"
            label="From"
            size="small"
            value={params.from}
            onChange={(event) => setDay('from', event.target.value)}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: params.to } }}
            sx={{ width: { xs: '50%', sm: 168 } }}
          />
          <OutlinedTextField
            type="date"
            label="To"
            size="small"
            value={params.to}
            onChange={(event) => setDay('to', event.target.value)}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: params.from } }}
            sx={{ width: { xs: '50%', sm: 168 } }}
          />
        </Stack>
        <ToggleButtonGroup
          exclusive
          size="small"
          color="primary"
          aria-label="Group by"
          value={params.group_by}
          onChange={(_event, value: TKpiGroup | null) => {
            if (value) setParams({ ...params, group_by: value });
          }}
        >
          {KPI_GROUPS.map((group) => (
            <ToggleButton key={group} value={group} sx={{ px: 2 }}>
              {GROUP_LABEL[group]}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Stack>
      {query.isError ? (
        <LoadError
          what="the lane and carrier figures"
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : !report ? (
        <PageLoading />
      ) : (
        <KpiReportView report={report} />
      )}
    </Page>
  );
}

function KpiReportView({ report }: { report: TKpiReport }) {
  const t = report.totals;
  return (
    <Stack spacing={2}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="h2" sx={{ fontSize: '1.1rem', mb: 1 }}>
          Excursion rate per {report.interval}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {number(t.shipments)} shipments, {number(t.shipments_with_excursion)} with an excursion (
          {percent(t.excursion_rate)})
        </Typography>
        <ExcursionChart report={report} />
      </Paper>
      {report.rows.length === 0 ? (
        <EmptyState>No shipments started in this period.</EmptyState>
      ) : (
        // It scrolls sideways on a phone, so it is a region the keyboard can reach (axe).
        <TableContainer
          component={Paper}
          variant="outlined"
          role="region"
          aria-label={`${report.group_by === 'lane' ? 'Lanes' : 'Carriers'} (scrolls sideways)`}
          tabIndex={0}
        >
          <Table size="small" aria-label={report.group_by === 'lane' ? 'Lanes' : 'Carriers'}>
            <TableHead>
              <TableRow>
                <TableCell>{report.group_by === 'lane' ? 'Lane' : 'Carrier'}</TableCell>
                <TableCell align="right">Shipments</TableCell>
                <TableCell align="right">With excursion</TableCell>
                <TableCell align="right">Excursion rate</TableCell>
                <TableCell align="right">Degree-minutes</TableCell>
                <TableCell align="right">Mean time to acknowledge</TableCell>
                <TableCell align="right">Released</TableCell>
                <TableCell align="right">Rejected</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {report.rows.map((row) => (
                <TableRow key={`${row.origin?.id}-${row.destination?.id}-${row.carrier}`}>
                  <TableCell component="th" scope="row" sx={{ minWidth: 160 }}>
                    {laneName(row)}
                  </TableCell>
                  <TableCell align="right">{number(row.shipments)}</TableCell>
                  <TableCell align="right">{number(row.shipments_with_excursion)}</TableCell>
                  <TableCell align="right">{percent(row.excursion_rate)}</TableCell>
                  <TableCell align="right">{number(row.degree_minutes, 1)}</TableCell>
                  <TableCell align="right">{minutes(row.mean_minutes_to_acknowledge)}</TableCell>
                  <TableCell align="right">{percent(row.released_share)}</TableCell>
                  <TableCell align="right">{percent(row.rejected_share)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <Box>
        <Typography variant="caption" color="text.secondary">
          A shipment has an excursion when it has at least one alarm, closed or not. The mean time
          to acknowledge runs from an alarm being raised to its acknowledgement; unacknowledged
          alarms are left out. Released and rejected: each shipment&apos;s latest release decision.
        </Typography>
      </Box>
    </Stack>
  );
}
