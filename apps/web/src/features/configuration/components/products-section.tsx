import type { TDegreesUnit, TProductDefinition } from '@coldtrace/contract';
import { formatDuration, formatTemperature, parseDurationString } from '@coldtrace/domain';
import Add from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useMemo, useState } from 'react';
import type { DataColumn } from '../../../components/data-table';
import type { ConfigurationAccess } from '../access';
import { useProducts } from '../api/list-products';
import { ConfigList, ConfigSection, EditButton } from './config-list';
import { ProductDialog } from './product-dialog';

/** `1 12:00:00` -> `1d 12h`; `—` when there is none. */
export function durationCell(text: string | null | undefined): string {
  return formatDuration(text ? parseDurationString(text) : null);
}

const CUMULATIVE = 'Cumulative limits';

function productColumns(unit: TDegreesUnit): DataColumn<TProductDefinition>[] {
  const temperature = (
    key: keyof TProductDefinition & string,
    header: string,
    group: string,
  ): DataColumn<TProductDefinition> => ({
    key,
    header,
    group,
    numeric: true,
    nowrap: true,
    render: (row) => formatTemperature(row[key] as number | null | undefined, unit),
    sortValue: (row) => row[key] as number | null | undefined,
  });
  const duration = (
    key: 'cumulative_duration_high' | 'cumulative_duration_low',
    header: string,
  ): DataColumn<TProductDefinition> => ({
    key,
    header,
    group: CUMULATIVE,
    minWidth: 100,
    numeric: true,
    nowrap: true,
    render: (row) => durationCell(row[key]),
    sortValue: (row) => (row[key] ? parseDurationString(row[key]) : null),
  });
  return [
    {
      key: 'product_name',
      header: 'Product',
      render: (row) => row.product_name,
      sortValue: (row) => row.product_name,
      // Room for a name with its range ('Influenza Vaccine (2-8 °C)') on one line.
      minWidth: 240,
      maxWidth: 320,
    },
    temperature('high_threshold', 'High', 'Thresholds'),
    temperature('low_threshold', 'Low', 'Thresholds'),
    {
      key: 'num_consecutive_excursions',
      header: 'Consecutive excursions',
      numeric: true,
      render: (row) => row.num_consecutive_excursions ?? 1,
      sortValue: (row) => row.num_consecutive_excursions ?? 1,
    },
    temperature('cumulative_high_threshold', 'High', CUMULATIVE),
    duration('cumulative_duration_high', 'Time above'),
    temperature('cumulative_low_threshold', 'Low', CUMULATIVE),
    duration('cumulative_duration_low', 'Time below'),
    {
      key: 'stability_budget',
      header: 'Stability budget',
      // One band a line, each on one line: narrower than the bands side by side.
      render: (row) =>
        row.stability_budget?.length
          ? row.stability_budget.map((band, index, bands) => (
              <Box key={index} sx={{ whiteSpace: 'nowrap' }}>
                {`${band.direction === 'ABOVE' ? '>' : '<'} ${formatTemperature(band.limit, unit)}: ${band.allowed_minutes} min`}
                {index < bands.length - 1 ? '; ' : ''}
              </Box>
            ))
          : '—',
      sortValue: (row) => row.stability_budget?.length ?? 0,
    },
  ];
}

/**
 * Half the usual gap between the columns (the card's edges keep theirs), so
 * that the ten columns fit the card at 1280 px (issue 35); narrower screens
 * scroll the table sideways within the card.
 */
const COMPACT_CELLS_SX = {
  '& .MuiTableCell-root': { px: 1 },
  // The first and last cell of a row; the second header row (under the groups) has neither.
  '& thead tr:first-of-type > :first-of-type, & tbody tr > :first-of-type': { pl: 2 },
  '& thead tr:first-of-type > :last-of-type, & tbody tr > :last-of-type': { pr: 2 },
} as const;

type DialogState = { mode: 'create' } | { mode: 'edit'; product: TProductDefinition } | null;

/** Products: thresholds in the user's unit, excursions, cumulative limits and durations. */
export function ProductsSection({
  access,
  unit,
  onSaved,
}: {
  access: ConfigurationAccess;
  unit: TDegreesUnit;
  onSaved: (message: string) => void;
}) {
  const query = useProducts();
  const [dialog, setDialog] = useState<DialogState>(null);
  const columns = useMemo(() => productColumns(unit), [unit]);
  const readOnly = !access.createProducts && !access.editProducts;

  return (
    <ConfigSection
      title="Products"
      description="What a shipment carries and the temperatures it must stay within. Choosing a product for a shipment fills its thresholds and alarm limits in."
      note={
        readOnly
          ? 'You can view products; adding or editing them needs a configuration role.'
          : null
      }
      action={
        access.createProducts ? (
          <Button
            variant="contained"
            startIcon={<Add />}
            onClick={() => setDialog({ mode: 'create' })}
          >
            Add product
          </Button>
        ) : null
      }
    >
      <Box sx={COMPACT_CELLS_SX}>
        <ConfigList
          query={query}
          what="the products"
          label="Products"
          columns={columns}
          rowKey={(row, index) => row.id ?? `row-${index}`}
          minWidth={880}
          empty={
            access.createProducts
              ? 'No products yet: add one to fill thresholds in automatically when a shipment is set up.'
              : 'No products yet. Someone with a configuration role can add them.'
          }
          actions={
            access.editProducts
              ? (row) =>
                  row.id ? (
                    <EditButton
                      name={row.product_name ?? 'product'}
                      onClick={() => setDialog({ mode: 'edit', product: row })}
                    />
                  ) : null
              : undefined
          }
        />
      </Box>
      {dialog ? (
        <ProductDialog
          product={dialog.mode === 'edit' ? dialog.product : undefined}
          unit={unit}
          onClose={() => setDialog(null)}
          onSaved={(product) => {
            setDialog(null);
            onSaved(
              dialog.mode === 'edit'
                ? `Product ${product.product_name ?? ''} saved`
                : `Product ${product.product_name ?? ''} added`,
            );
          }}
        />
      ) : null}
    </ConfigSection>
  );
}
