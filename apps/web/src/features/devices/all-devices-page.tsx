import type { TTagExtended } from '@coldtrace/contract';
import LockOutlined from '@mui/icons-material/LockOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useMemo } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { EmptyState } from '../../components/empty-state';
import { LoadError } from '../../components/load-error';
import { Page } from '../../components/page';
import { hasPermission, sessionOrganization } from '../../lib/session';
import { columnVisibilityKey } from '../../components/server-grid/column-visibility';
import { ServerDataGrid } from '../../components/server-grid/server-data-grid';
import { useServerGridQuery } from '../../components/server-grid/use-server-grid-query';
import {
  ALL_RECORDS_PATH,
  GRID_DEFAULT_PAGE_SIZE,
  GRID_PAGE_SIZES,
  TimeZoneNote,
  recordHref,
} from '../records';
import { useCurrentUser } from '../session';
import { useDevices, type DevicesQuery } from './api/list-devices';
import { DEVICE_DEFAULT_VISIBILITY, DEVICE_FILTER_SPECS, deviceColumns } from './device-columns';

/**
 * /alldevices: the organization's tags with their latest record, in the same
 * server-mode grid as All Records. Needs sysAdminUser (spec section 6).
 */
export function AllDevicesPage() {
  const user = useCurrentUser();
  if (!hasPermission(user, 'sysAdminUser')) {
    const organization = sessionOrganization(user)?.name;
    return (
      <Page title="All Devices">
        <EmptyState
          icon={<LockOutlined />}
          action={
            <Button component={RouterLink} to={ALL_RECORDS_PATH} variant="outlined">
              Go to All Records
            </Button>
          }
        >
          All Devices is for user administrators: your role
          {organization ? ` in ${organization}` : ''} does not include the user administration
          permission. Ask an administrator of your organization if you need it; every record stays
          available under All Records.
        </EmptyState>
      </Page>
    );
  }
  return <DevicesGrid userId={user?.id} />;
}

function DevicesGrid({ userId }: { userId: string | undefined }) {
  const navigate = useNavigate();
  const {
    controls,
    query: gridQuery,
    unit,
    timeZone,
  } = useServerGridQuery(DEVICE_FILTER_SPECS, GRID_DEFAULT_PAGE_SIZE);
  const query: DevicesQuery = gridQuery;

  const devices = useDevices(query);
  const columns = useMemo(() => deviceColumns({ unit, timeZone }), [unit, timeZone]);

  return (
    <Page title="All Devices" subtitle={<TimeZoneNote />}>
      <Stack spacing={2}>
        {devices.isError ? (
          <LoadError
            what="the devices"
            error={devices.error}
            onRetry={() => void devices.refetch()}
            retrying={devices.isFetching}
          />
        ) : null}
        <ServerDataGrid<TTagExtended>
          label="Devices"
          rows={devices.data?.data ?? []}
          columns={columns}
          getRowId={(row) => String(row.id ?? row.serial_number ?? '')}
          rowCount={devices.data?.totalCount ?? devices.data?.data.length ?? 0}
          loading={devices.isFetching}
          controls={controls}
          filterSpecs={DEVICE_FILTER_SPECS}
          unit={unit}
          pageSizes={GRID_PAGE_SIZES}
          visibilityKey={columnVisibilityKey('alldevices', userId)}
          defaultVisibility={DEVICE_DEFAULT_VISIBILITY}
          onRowOpen={(row) => {
            if (row.last_record_id) void navigate(recordHref(row.last_record_id));
          }}
          noRowsText={
            devices.isError
              ? 'The devices could not be loaded.'
              : query.filter !== undefined
                ? 'No devices match these filters.'
                : 'No devices yet: a tag appears here after its first scan with the phone app (or run the simulator: npm run simulate).'
          }
        />
      </Stack>
    </Page>
  );
}
