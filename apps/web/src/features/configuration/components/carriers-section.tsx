import type { TCarrierDefinition } from '@coldtrace/contract';
import { formatDateTime } from '@coldtrace/domain';
import Add from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import { useMemo, useState } from 'react';
import type { DataColumn } from '../../../components/data-table';
import type { ConfigurationAccess } from '../access';
import { useCarriers } from '../api/list-carriers';
import { CarrierDialog } from './carrier-dialog';
import { ConfigList, ConfigSection, EditButton } from './config-list';

function carrierColumns(timeZone: string): DataColumn<TCarrierDefinition>[] {
  return [
    {
      key: 'name',
      header: 'Carrier',
      render: (row) => row.name,
      sortValue: (row) => row.name,
      minWidth: 160,
    },
    {
      key: 'created',
      header: 'Created',
      nowrap: true,
      numeric: true,
      render: (row) => formatDateTime(row.created, timeZone),
      sortValue: (row) => (row.created ? Date.parse(row.created) : null),
    },
  ];
}

type DialogState = { mode: 'create' } | { mode: 'edit'; carrier: TCarrierDefinition } | null;

/** Carriers: the companies that move shipments, offered in the shipment forms. */
export function CarriersSection({
  access,
  timeZone,
  onSaved,
}: {
  access: ConfigurationAccess;
  timeZone: string;
  onSaved: (message: string) => void;
}) {
  const query = useCarriers();
  const [dialog, setDialog] = useState<DialogState>(null);
  const columns = useMemo(() => carrierColumns(timeZone), [timeZone]);
  const readOnly = !access.createCarriers && !access.editCarriers;

  return (
    <ConfigSection
      title="Carriers"
      description="The companies that move your shipments. They are offered when a shipment is set up or edited."
      note={
        readOnly
          ? 'You can view carriers; adding or editing them needs a configuration role.'
          : null
      }
      action={
        access.createCarriers ? (
          <Button
            variant="contained"
            startIcon={<Add />}
            onClick={() => setDialog({ mode: 'create' })}
          >
            Add carrier
          </Button>
        ) : null
      }
    >
      <ConfigList
        query={query}
        what="the carriers"
        label="Carriers"
        columns={columns}
        rowKey={(row, index) => row.id ?? `row-${index}`}
        empty={
          access.createCarriers
            ? 'No carriers yet: add the companies that move your shipments to pick them from a list.'
            : 'No carriers yet. Someone with a configuration role can add them.'
        }
        actions={
          access.editCarriers
            ? (row) =>
                row.id ? (
                  <EditButton
                    name={row.name ?? 'carrier'}
                    onClick={() => setDialog({ mode: 'edit', carrier: row })}
                  />
                ) : null
            : undefined
        }
      />
      {dialog ? (
        <CarrierDialog
          carrier={dialog.mode === 'edit' ? dialog.carrier : undefined}
          onClose={() => setDialog(null)}
          onSaved={(carrier) => {
            setDialog(null);
            onSaved(
              dialog.mode === 'edit'
                ? `Carrier ${carrier.name ?? ''} saved`
                : `Carrier ${carrier.name ?? ''} added`,
            );
          }}
        />
      ) : null}
    </ConfigSection>
  );
}
