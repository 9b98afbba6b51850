import type { TDegreesUnit } from '@coldtrace/contract';
import ViewColumnOutlined from '@mui/icons-material/ViewColumnOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import {
  ColumnsPanelTrigger,
  DataGrid,
  type GridColDef,
  type GridColumnVisibilityModel,
  type GridLogicOperator,
  type GridSortModel,
  type GridValidRowModel,
} from '@mui/x-data-grid';
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import {
  browserLocalStorage,
  readColumnVisibility,
  writeColumnVisibility,
  type ColumnVisibility,
} from './column-visibility';
import { GridFilterBar, type PageFilters } from './filter-bar';
import type { FilterFieldSpec } from './grid-filter';
import { orderByToSortModel, pageSizeOptions, sortModelToOrderByItems } from './grid-url-state';
import type { GridViewStateControls } from './use-grid-view-state';

/**
 * A MUI X Data Grid in server mode (paging, sorting and filtering done by the
 * API), its state in the URL (`useGridViewState`), the filter bar in its
 * toolbar, skeleton rows while loading, and column visibility remembered per
 * user. Rows open with a click or Enter.
 */

interface SlotContent {
  toolbar: ReactNode;
  noRowsText: ReactNode;
}

const SlotContentContext = createContext<SlotContent>({ toolbar: null, noRowsText: null });

function ServerGridToolbar() {
  const content = useContext(SlotContentContext).toolbar;
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'flex-start',
        gap: 1,
        borderBottom: 1,
        borderColor: 'divider',
        pr: 1,
      }}
    >
      <Box sx={{ flex: 1, minWidth: 0 }}>{content}</Box>
      <ColumnsPanelTrigger
        render={
          <Button size="small" startIcon={<ViewColumnOutlined />} sx={{ mt: 1, flexShrink: 0 }} />
        }
      >
        Columns
      </ColumnsPanelTrigger>
    </Box>
  );
}

function NoRowsOverlay() {
  const children = useContext(SlotContentContext).noRowsText;
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', height: '100%', p: 3 }}>
      <Typography color="text.secondary" sx={{ textAlign: 'center', maxWidth: 480 }}>
        {children}
      </Typography>
    </Box>
  );
}

export function ServerDataGrid<R extends GridValidRowModel>({
  label,
  rows,
  columns,
  getRowId,
  rowCount,
  loading,
  controls,
  filterSpecs,
  unit,
  pageSizes,
  visibilityKey,
  defaultVisibility,
  onRowOpen,
  noRowsText,
  pageFilters,
}: {
  /** Accessible name of the grid. */
  label: string;
  rows: readonly R[];
  columns: readonly GridColDef<R>[];
  getRowId: (row: R) => string;
  /** The total from `x-total-count`. */
  rowCount: number;
  loading: boolean;
  controls: GridViewStateControls;
  filterSpecs: readonly FilterFieldSpec[];
  unit: TDegreesUnit;
  pageSizes: readonly number[];
  /** localStorage key of the column visibility (per user). */
  visibilityKey: string;
  defaultVisibility: ColumnVisibility;
  onRowOpen?: (row: R) => void;
  noRowsText: ReactNode;
  /** Filters the page applies beside the grid's (shown in the filter bar). */
  pageFilters?: PageFilters;
}) {
  const { state, draftFilter, setFilter, setOrderBy, setPage } = controls;
  const fields = useMemo(() => columns.map((column) => column.field), [columns]);
  const [visibility, setVisibility] = useState<{ key: string; model: ColumnVisibility }>(() => ({
    key: visibilityKey,
    model: readColumnVisibility(browserLocalStorage(), visibilityKey, defaultVisibility, fields),
  }));
  let visibilityModel = visibility.model;
  if (visibility.key !== visibilityKey) {
    // Another user signed in on this page: their choice.
    visibilityModel = readColumnVisibility(
      browserLocalStorage(),
      visibilityKey,
      defaultVisibility,
      fields,
    );
    setVisibility({ key: visibilityKey, model: visibilityModel });
  }

  // A new sort model makes the grid go back to the first page: keep its identity
  // while the order stays the same (the URL state is read afresh on every change).
  const sortKey = JSON.stringify(orderByToSortModel(state.orderBy));
  const sortModel = useMemo(() => JSON.parse(sortKey) as GridSortModel, [sortKey]);
  const filterModel = useMemo(
    () => ({ items: [], logicOperator: state.filterModel.logicOperator as GridLogicOperator }),
    [state.filterModel.logicOperator],
  );

  const toolbar = (
    <GridFilterBar
      specs={filterSpecs}
      filter={draftFilter}
      onChange={setFilter}
      unit={unit}
      pageFilters={pageFilters}
    />
  );

  return (
    <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
      <SlotContentContext.Provider value={{ toolbar, noRowsText }}>
        <DataGrid<R>
          aria-label={label}
          rows={rows}
          columns={columns}
          getRowId={getRowId}
          rowCount={rowCount}
          loading={loading}
          autoHeight
          paginationMode="server"
          sortingMode="server"
          filterMode="server"
          paginationModel={{ page: state.pageNumber, pageSize: state.pageSize }}
          onPaginationModelChange={(model) => setPage(model.page, model.pageSize)}
          pageSizeOptions={pageSizeOptions(pageSizes, state.pageSize)}
          sortModel={sortModel}
          onSortModelChange={(model) => setOrderBy(sortModelToOrderByItems(model))}
          filterModel={filterModel}
          disableColumnFilter
          disableRowSelectionOnClick
          columnVisibilityModel={visibilityModel as GridColumnVisibilityModel}
          onColumnVisibilityModelChange={(model) => {
            const next = { ...model };
            setVisibility({ key: visibilityKey, model: next });
            writeColumnVisibility(browserLocalStorage(), visibilityKey, next);
          }}
          onRowClick={onRowOpen ? (params) => onRowOpen(params.row) : undefined}
          onCellKeyDown={
            onRowOpen
              ? (params, event) => {
                  if (event.key === 'Enter' && params.field !== '__check__') {
                    event.preventDefault();
                    onRowOpen(params.row);
                  }
                }
              : undefined
          }
          showToolbar
          slots={{
            toolbar: ServerGridToolbar,
            noRowsOverlay: NoRowsOverlay,
          }}
          slotProps={{
            loadingOverlay: { variant: 'skeleton', noRowsVariant: 'skeleton' },
          }}
          density="standard"
          sx={{
            border: 0,
            '--DataGrid-overlayHeight': '180px',
            '& .MuiDataGrid-row': { cursor: onRowOpen ? 'pointer' : undefined },
            '& .MuiDataGrid-cell:focus, & .MuiDataGrid-columnHeader:focus': {
              outline: '2px solid',
              outlineColor: 'secondary.main',
              outlineOffset: -2,
            },
            '& .tabular-nums': { fontVariantNumeric: 'tabular-nums' },
            '& .MuiDataGrid-columnHeaderTitle': { fontWeight: 600 },
            // 8 px instead of 10 px each side: the record columns fit 1280 px screens.
            '& .MuiDataGrid-cell, & .MuiDataGrid-columnHeader': { px: 1 },
          }}
        />
      </SlotContentContext.Provider>
    </Paper>
  );
}
