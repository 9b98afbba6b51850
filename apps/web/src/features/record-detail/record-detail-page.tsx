import { timeZoneAbbreviation } from '@coldtrace/domain';
import { ALARM_ACTION_PERMISSIONS } from '@coldtrace/contract';
import SearchOffRounded from '@mui/icons-material/SearchOffRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { EmptyState } from '../../components/empty-state';
import { useErrorHandler } from '../../components/error-handler';
import { LoadError } from '../../components/load-error';
import { Page } from '../../components/page';
import { isApiError } from '../../lib/api-error';
import { useAppSettings } from '../../lib/app-settings';
import { isRecordLive } from '../../lib/live-updates';
import { hasPermission } from '../../lib/session';
import { useDropdownInfo } from '../configuration';
import { AlarmsAcknowledgedChip, DecisionChip, StatusChip, TripChip } from '../records';
import { useCurrentUser } from '../session';
import { useRecord } from './api/get-record';
import { useRecordActions } from './api/get-record-actions';
import { useRecordAlarms } from './api/get-record-alarms';
import { useRecordAudit } from './api/get-record-audit';
import { useRecordScans } from './api/get-record-scans';
import { ActionsTimeline } from './components/actions-timeline';
import { AlarmsCard } from './components/alarms-card';
import { AuditCard } from './components/audit-card';
import { awaitingAcknowledgement, DispositionCard } from './components/disposition-card';
import { ChartCard } from './components/chart-card';
import { MapCard } from './components/map-card';
import { ReportsCard } from './components/reports-card';
import { ScansCard } from './components/scans-card';
import { AlarmRecipientsCard } from './components/alarm-recipients-card';
import { ShipmentDetailsCard } from './components/shipment-details-card';
import { StabilityBudgetCard } from './components/stability-budget-card';
import { ShipmentDetailsDialog } from './components/shipment-details-dialog';
import { SummaryStrip } from './components/summary-strip';
import { headerAlarmStatus } from './display';
import { SHIPMENT_EDIT_PERMISSIONS } from './shipment-form';

/** The date pickers load with the trip dialog, when it first opens. */
const TripTimesDialog = lazy(async () => ({
  default: (await import('./components/trip-times-dialog')).TripTimesDialog,
}));
const PlannedArrivalDialog = lazy(async () => ({
  default: (await import('./components/planned-arrival-dialog')).PlannedArrivalDialog,
}));

const tagTypeLabel = (type: string | undefined) =>
  type ? type.replace(/_/g, ' ') : 'Unknown type';

function LoadingRecord() {
  return (
    <Stack spacing={2.5} role="status" aria-label="Loading the record" aria-busy="true">
      <Skeleton variant="text" width={260} />
      <Skeleton variant="rounded" height={110} />
      <Skeleton variant="rounded" height={360} />
      <Grid container spacing={2.5}>
        <Grid size={{ xs: 12, md: 7 }}>
          <Skeleton variant="rounded" height={220} />
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <Skeleton variant="rounded" height={220} />
        </Grid>
      </Grid>
    </Stack>
  );
}

/**
 * /recorddetails/{record_id}: what happened to one shipment, at a glance.
 * Header (record, tag, status and trip), summary strip, temperature chart,
 * then alarms and actions beside the map and the shipment details (one
 * column on phones), and the scans at the bottom. A failed record fetch
 * clears the open record and the loading state and runs the shared error
 * handler (spec sections 4 and 8); a 404 says the record was not found.
 */
export function RecordDetailPage() {
  const { recordId = '' } = useParams();
  const user = useCurrentUser();
  const { degreesUnit: unit, timeZone } = useAppSettings();
  const handleError = useErrorHandler();
  const recordQuery = useRecord(recordId);
  // A running shipment updates by itself: the record, its alarms, scans and chart poll.
  const live = !recordQuery.isError && isRecordLive(recordQuery.data);
  const alarms = useRecordAlarms(recordId, true, live);
  const actions = useRecordActions(recordId);
  const scans = useRecordScans(recordId, true, live);
  const audit = useRecordAudit(recordId);
  const dropdown = useDropdownInfo();
  const [editing, setEditing] = useState<'shipment' | 'trip' | 'arrival' | null>(null);

  const failed = recordQuery.isError;
  const notFound = failed && isApiError(recordQuery.error) && recordQuery.error.status === 404;
  // The open record is cleared on a failed fetch (never a stale one shown as current).
  const record = failed ? null : (recordQuery.data ?? null);
  const loading = !failed && recordQuery.isPending;

  useEffect(() => {
    if (recordQuery.isError && !notFound)
      handleError(recordQuery.error, 'Could not load the record');
    // Once per failure (errorUpdatedAt marks it), not on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [recordQuery.errorUpdatedAt]);

  // The zone's name at the record's time (summer or winter time), shown once on the page.
  const zone = timeZoneAbbreviation(
    timeZone,
    record?.last_point ?? record?.last_action_taken ?? record?.created,
  );
  // The header's alarm chip: a red Alarm only while an alarm awaits acknowledgement.
  const alarmStatus = record
    ? headerAlarmStatus(record, alarms.data ? awaitingAcknowledgement(alarms.data) : undefined)
    : null;
  const canActOnAlarms = hasPermission(user, ALARM_ACTION_PERMISSIONS);
  const canEditShipment = hasPermission(user, SHIPMENT_EDIT_PERMISSIONS);
  const canEditTrip = hasPermission(user, 'readerEditRefShip');
  const canEditArrival = hasPermission(user, 'readerEditRef1');

  if (notFound) {
    return (
      <Page title="Record not found">
        <EmptyState
          icon={<SearchOffRounded />}
          action={
            <Button component={RouterLink} to="/allrecords" variant="contained">
              Go to All Records
            </Button>
          }
        >
          Record {recordId} was not found. It may belong to another organization, or the link may be
          mistyped.
        </EmptyState>
      </Page>
    );
  }

  return (
    <Page
      title={`Record ${recordId}`}
      subtitle={
        record
          ? `Tag ${record.tag_serial_number ?? 'unknown'} · ${tagTypeLabel(record.tag_type)} · times in ${zone}`
          : undefined
      }
    >
      {failed ? (
        <LoadError
          what={`record ${recordId}`}
          error={recordQuery.error}
          onRetry={() => void recordQuery.refetch()}
          retrying={recordQuery.isFetching}
        />
      ) : loading || !record ? (
        <LoadingRecord />
      ) : (
        <Stack spacing={2.5}>
          <Stack
            direction="row"
            spacing={1}
            useFlexGap
            sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1, mt: -1 }}
            role="group"
            aria-label="Status"
          >
            {alarmStatus === 'ACKNOWLEDGED' ? (
              <AlarmsAcknowledgedChip />
            ) : (
              <StatusChip status={alarmStatus} />
            )}
            {record.disposition ? <DecisionChip decision={record.disposition.decision} /> : null}
            <TripChip status={record.trip?.trip_status} />
            {record.status === 'Alarm' && record.computed_status === 'OK' ? (
              <Typography variant="body2" color="text.secondary">
                Every alarm dismissed
              </Typography>
            ) : null}
          </Stack>
          <SummaryStrip
            record={record}
            latestScan={scans.data?.[0]}
            unit={unit}
            timeZone={timeZone}
          />
          <ChartCard
            recordId={recordId}
            record={record}
            alarms={alarms.data}
            live={live}
            unit={unit}
            timeZone={timeZone}
          />
          <Grid container spacing={2.5}>
            <Grid size={{ xs: 12, md: 7 }} sx={{ minWidth: 0 }}>
              <Stack spacing={2.5}>
                <AlarmsCard
                  recordId={recordId}
                  query={alarms}
                  unit={unit}
                  timeZone={timeZone}
                  canAct={canActOnAlarms}
                />
                {record.id ? (
                  <DispositionCard
                    record={{ ...record, id: record.id }}
                    alarms={alarms.data}
                    timeZone={timeZone}
                  />
                ) : null}
                {record.stability_budget ? (
                  <StabilityBudgetCard
                    budget={record.stability_budget}
                    recordId={recordId}
                    unit={unit}
                    timeZone={timeZone}
                    onEditArrival={canEditArrival ? () => setEditing('arrival') : undefined}
                  />
                ) : null}
                <ActionsTimeline query={actions} timeZone={timeZone} />
              </Stack>
            </Grid>
            <Grid size={{ xs: 12, md: 5 }} sx={{ minWidth: 0 }}>
              <Stack spacing={2.5}>
                <MapCard
                  recordId={recordId}
                  record={record}
                  dropdown={dropdown.data}
                  timeZone={timeZone}
                />
                <ShipmentDetailsCard
                  record={record}
                  timeZone={timeZone}
                  canEditShipment={canEditShipment}
                  canEditTrip={canEditTrip}
                  onEditShipment={() => setEditing('shipment')}
                  onEditTrip={() => setEditing('trip')}
                />
                <AlarmRecipientsCard record={record} />
                <ReportsCard
                  recordId={recordId}
                  tagId={record.tag_id ? Number(record.tag_id) : null}
                  tagSerialNumber={record.tag_serial_number}
                  timeZone={timeZone}
                />
              </Stack>
            </Grid>
          </Grid>
          <Box>
            <ScansCard query={scans} unit={unit} timeZone={timeZone} />
          </Box>
          <AuditCard recordId={recordId} query={audit} timeZone={timeZone} />
        </Stack>
      )}
      {record && editing === 'shipment' ? (
        <ShipmentDetailsDialog
          record={record}
          dropdown={dropdown.data}
          dropdownError={dropdown.isError}
          unit={unit}
          permissions={user?.current_session_permissions ?? []}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {record && editing === 'trip' ? (
        <Suspense fallback={null}>
          <TripTimesDialog record={record} timeZone={timeZone} onClose={() => setEditing(null)} />
        </Suspense>
      ) : null}
      {record && editing === 'arrival' ? (
        <Suspense fallback={null}>
          <PlannedArrivalDialog
            record={record}
            dropdown={dropdown.data}
            timeZone={timeZone}
            onClose={() => setEditing(null)}
          />
        </Suspense>
      ) : null}
    </Page>
  );
}
