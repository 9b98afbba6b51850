import type { TDegreesUnit } from '@coldtrace/contract';
import { formatDate, type FilterOperator } from '@coldtrace/domain';
import AddOutlined from '@mui/icons-material/AddOutlined';
import FilterListOutlined from '@mui/icons-material/FilterListOutlined';
import ReportProblemOutlined from '@mui/icons-material/ReportProblemOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import {
  filterItemProblem,
  isOperatorAllowed,
  operatorLabel,
  operatorsFor,
  operatorTakesList,
  operatorTakesNoValue,
  valueEntries,
  type FilterFieldSpec,
  type GridFilterItemLike,
} from './grid-filter';
import type { GridViewState } from './grid-url-state';

type FilterModel = GridViewState['filterModel'];

/**
 * A filter the page applies outside the grid's own filter model (All Records'
 * Review state and Release decision selects): shown in the bar as a chip like
 * the others, so the bar never says "None" while one is applied; removing the
 * chip clears it. Always combined with AND.
 */
export interface AppliedFilter {
  key: string;
  /** "Review state is Awaiting decision". */
  label: string;
  onRemove: () => void;
}

/**
 * The page's own filters and how to clear them together with the grid's: one
 * URL write (two writes in one event would each start from the same URL, and
 * the last would undo the first).
 */
export interface PageFilters {
  applied: readonly AppliedFilter[];
  /** Clears the page's filters and the grid's filter items at once. */
  clearAll: () => void;
}

/**
 * The filters of a server-mode grid, always in view above it: one chip per
 * filter ("Primary reference contains ACME"), a button to add one, the and/or
 * choice when there are several, and a small editor (column, operator,
 * value) in a popover. The community Data Grid filters by one column at a
 * time; this bar gives the URL's several filters and their logic a face.
 */
export function GridFilterBar({
  specs,
  filter,
  onChange,
  unit,
  pageFilters,
}: {
  specs: readonly FilterFieldSpec[];
  filter: FilterModel;
  onChange: (filter: FilterModel, options?: { immediate?: boolean }) => void;
  unit: TDegreesUnit;
  /** Filters of the page around the grid, applied with AND. */
  pageFilters?: PageFilters;
}) {
  const applied = pageFilters?.applied ?? [];
  const [editing, setEditing] = useState<{ id: number | string; anchor: HTMLElement } | null>(null);
  const byField = new Map(specs.map((spec) => [spec.field, spec]));
  const items = filter.items;

  const replaceItem = (id: number | string, item: GridFilterItemLike, immediate = false) =>
    onChange({ ...filter, items: items.map((i) => (i.id === id ? item : i)) }, { immediate });
  const removeItem = (id: number | string) =>
    onChange({ ...filter, items: items.filter((i) => i.id !== id) }, { immediate: true });

  const addItem = (anchor: HTMLElement) => {
    const spec = specs[0];
    if (!spec) return;
    const id = items.reduce((max, i) => Math.max(max, Number(i.id) || 0), 0) + 1;
    const operator = operatorsFor(spec)[0]!;
    onChange({ ...filter, items: [...items, { id, field: spec.field, operator, value: '' }] });
    setEditing({ id, anchor });
  };

  const closeEditor = () => {
    const item = editing && items.find((i) => i.id === editing.id);
    setEditing(null);
    // A filter left without a value filters nothing: drop it.
    if (item && !operatorTakesNoValue(item.operator) && valueEntries(item.value).length === 0) {
      removeItem(item.id!);
    }
  };

  const editedItem = editing ? items.find((i) => i.id === editing.id) : undefined;
  const editedSpec = editedItem ? byField.get(editedItem.field) : undefined;

  return (
    <Stack
      direction="row"
      sx={{ flexWrap: 'wrap', alignItems: 'center', gap: 1, px: 1.5, py: 1 }}
      role="group"
      aria-label="Filters"
    >
      <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', color: 'text.secondary' }}>
        <FilterListOutlined fontSize="small" aria-hidden />
        <Typography variant="body2" component="span" sx={{ fontWeight: 600 }}>
          Filters
        </Typography>
      </Stack>
      {applied.map((a, index) => (
        <Box key={a.key} sx={{ display: 'contents' }}>
          {index > 0 ? <AndCaption /> : null}
          <Chip
            label={a.label}
            color="primary"
            variant="outlined"
            title={a.label}
            onDelete={a.onRemove}
            aria-label={`Filter: ${a.label}`}
            // A long label ("Needs review (acknowledgement or decision)") wraps on a phone.
            sx={{
              maxWidth: '100%',
              height: 'auto',
              minHeight: 32,
              bgcolor: 'background.paper',
              '& .MuiChip-label': { whiteSpace: 'normal', py: 0.5 },
            }}
          />
        </Box>
      ))}
      {applied.length > 0 && items.length > 0 ? <AndCaption /> : null}
      {items.length === 0 && applied.length === 0 ? (
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ display: { xs: 'none', sm: 'block' } }}
        >
          None: every row is shown.
        </Typography>
      ) : null}
      {items.map((item, index) => {
        const spec = byField.get(item.field);
        const problem = spec ? filterItemProblem(spec, item) : `Unknown column '${item.field}'`;
        const label = spec ? chipLabel(spec, item, unit) : item.field;
        return (
          <Box key={item.id ?? index} sx={{ display: 'contents' }}>
            {index > 0 ? (
              <Typography
                variant="caption"
                color="text.secondary"
                sx={{ fontWeight: 600, textTransform: 'uppercase' }}
              >
                {filter.logicOperator}
              </Typography>
            ) : null}
            <Chip
              label={label}
              color={problem ? 'warning' : 'primary'}
              variant="outlined"
              icon={problem ? <ReportProblemOutlined /> : undefined}
              title={problem ? `${label} (not applied: ${problem})` : label}
              onClick={(event) => setEditing({ id: item.id!, anchor: event.currentTarget })}
              onDelete={() => removeItem(item.id!)}
              aria-label={`Filter: ${label}${problem ? ` (not applied: ${problem})` : ''}. Edit`}
              sx={{ maxWidth: '100%', bgcolor: 'background.paper' }}
            />
          </Box>
        );
      })}
      <Button
        size="small"
        startIcon={<AddOutlined />}
        onClick={(event) => addItem(event.currentTarget)}
      >
        Add filter
      </Button>
      {items.length > 1 ? (
        <ToggleButtonGroup
          size="small"
          exclusive
          value={filter.logicOperator}
          onChange={(_event, value: 'and' | 'or' | null) => {
            if (value) onChange({ ...filter, logicOperator: value }, { immediate: true });
          }}
          aria-label="Combine filters"
        >
          <ToggleButton value="and" sx={{ py: 0.25, px: 1.25 }}>
            Match all
          </ToggleButton>
          <ToggleButton value="or" sx={{ py: 0.25, px: 1.25 }}>
            Match any
          </ToggleButton>
        </ToggleButtonGroup>
      ) : null}
      {items.length > 0 || applied.length > 0 ? (
        <Button
          size="small"
          color="inherit"
          onClick={() => {
            if (pageFilters && applied.length > 0) pageFilters.clearAll();
            else onChange({ ...filter, items: [] }, { immediate: true });
          }}
          sx={{ color: 'text.secondary' }}
        >
          Clear filters
        </Button>
      ) : null}
      <Popover
        open={Boolean(editing && editedItem && editedSpec)}
        anchorEl={editing?.anchor}
        onClose={closeEditor}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: { sx: { p: 2, width: 340, maxWidth: 'calc(100vw - 24px)' } } }}
      >
        {editedItem && editedSpec ? (
          <FilterEditor
            key={editedItem.id}
            specs={specs}
            spec={editedSpec}
            item={editedItem}
            unit={unit}
            onChange={(item, immediate) => replaceItem(editedItem.id!, item, immediate)}
            onRemove={() => {
              setEditing(null);
              removeItem(editedItem.id!);
            }}
            onDone={closeEditor}
          />
        ) : null}
      </Popover>
    </Stack>
  );
}

/** The "and" between the page's filters and the grid's. */
function AndCaption() {
  return (
    <Typography
      variant="caption"
      color="text.secondary"
      sx={{ fontWeight: 600, textTransform: 'uppercase' }}
    >
      and
    </Typography>
  );
}

function valueText(spec: FilterFieldSpec, entry: string, unit: TDegreesUnit): string {
  if (spec.type === 'temperature') return `${entry} °${unit}`;
  if (spec.type === 'date') return formatDate(entry, 'UTC');
  const option = spec.options?.find((o) => o.value.toLowerCase() === entry.toLowerCase());
  return option ? option.label : entry;
}

/** "Primary reference contains ACME", "Highest > 8 °C", "Status is any of OK, Alarm". */
export function chipLabel(spec: FilterFieldSpec, item: GridFilterItemLike, unit: TDegreesUnit) {
  const operator = isOperatorAllowed(spec, item.operator)
    ? operatorLabel(spec.type, item.operator)
    : item.operator;
  if (operatorTakesNoValue(item.operator)) return `${spec.label} ${operator}`;
  const entries = operatorTakesList(item.operator)
    ? valueEntries(item.value)
    : valueEntries(typeof item.value === 'string' ? [item.value] : item.value);
  const shown = entries.map((entry) => valueText(spec, entry, unit)).join(', ');
  return `${spec.label} ${operator} ${shown || '…'}`;
}

function FilterEditor({
  specs,
  spec,
  item,
  unit,
  onChange,
  onRemove,
  onDone,
}: {
  specs: readonly FilterFieldSpec[];
  spec: FilterFieldSpec;
  item: GridFilterItemLike;
  unit: TDegreesUnit;
  onChange: (item: GridFilterItemLike, immediate?: boolean) => void;
  onRemove: () => void;
  onDone: () => void;
}) {
  const headingId = useId();
  const problem = filterItemProblem(spec, item);
  const operators = operatorsFor(spec);
  return (
    <Stack
      component="form"
      spacing={2}
      aria-labelledby={headingId}
      onSubmit={(event) => {
        event.preventDefault();
        onDone();
      }}
    >
      <Typography id={headingId} variant="subtitle2" component="h2">
        Filter
      </Typography>
      <TextField
        select
        size="small"
        label="Column"
        value={spec.field}
        onChange={(event) => {
          const next = specs.find((s) => s.field === event.target.value);
          if (!next) return;
          const operator = isOperatorAllowed(next, item.operator)
            ? item.operator
            : operatorsFor(next)[0]!;
          const keepValue = next.type === spec.type;
          onChange({ ...item, field: next.field, operator, value: keepValue ? item.value : '' });
        }}
      >
        {specs.map((s) => (
          <MenuItem key={s.field} value={s.field}>
            {s.label}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label="Operator"
        value={isOperatorAllowed(spec, item.operator) ? item.operator : ''}
        onChange={(event) => {
          const operator = event.target.value as FilterOperator;
          const wasList = operatorTakesList(item.operator);
          const isList = operatorTakesList(operator);
          const value = operatorTakesNoValue(operator)
            ? undefined
            : wasList === isList
              ? item.value
              : isList
                ? valueEntries(typeof item.value === 'string' ? [item.value] : item.value)
                : (valueEntries(item.value)[0] ?? '');
          onChange({ ...item, operator, value }, operatorTakesNoValue(operator));
        }}
      >
        {operators.map((operator) => (
          <MenuItem key={operator} value={operator}>
            {operatorLabel(spec.type, operator)}
          </MenuItem>
        ))}
      </TextField>
      {operatorTakesNoValue(item.operator) ? null : (
        <FilterValueInput
          key={`${spec.field}|${operatorTakesList(item.operator) ? 'list' : 'one'}`}
          spec={spec}
          item={item}
          unit={unit}
          problem={problem}
          onChange={(value, immediate) => onChange({ ...item, value }, immediate)}
        />
      )}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        <Button color="inherit" onClick={onRemove} sx={{ color: 'text.secondary' }}>
          Remove
        </Button>
        <Button type="submit" variant="contained">
          Done
        </Button>
      </Stack>
    </Stack>
  );
}

function FilterValueInput({
  spec,
  item,
  unit,
  problem,
  onChange,
}: {
  spec: FilterFieldSpec;
  item: GridFilterItemLike;
  unit: TDegreesUnit;
  problem: string | null;
  onChange: (value: string | string[], immediate?: boolean) => void;
}) {
  const list = operatorTakesList(item.operator);
  const entries = valueEntries(list ? item.value : [item.value]);
  const [text, setText] = useState(() =>
    list ? entries.join(', ') : typeof item.value === 'string' ? item.value : (entries[0] ?? ''),
  );
  const label = spec.type === 'temperature' ? `Value (°${unit})` : list ? 'Values' : 'Value';

  if (spec.options) {
    return (
      <TextField
        select
        size="small"
        label={list ? 'Values' : 'Value'}
        value={list ? entries : (entries[0] ?? '')}
        onChange={(event) => {
          const value = event.target.value as unknown;
          onChange(Array.isArray(value) ? (value as string[]) : String(value), true);
        }}
        slotProps={{
          select: {
            multiple: list,
            renderValue: list
              ? (selected: unknown) =>
                  (selected as string[])
                    .map((v) => spec.options?.find((o) => o.value === v)?.label ?? v)
                    .join(', ')
              : undefined,
          },
        }}
        error={Boolean(problem)}
        helperText={problem ?? undefined}
      >
        {spec.options.map((option) => (
          <MenuItem key={option.value} value={option.value}>
            {option.label}
          </MenuItem>
        ))}
      </TextField>
    );
  }

  const isDate = spec.type === 'date' && !list;
  const numeric = spec.type === 'number' || spec.type === 'temperature' || spec.type === 'id';
  return (
    <TextField
      size="small"
      label={label}
      type={isDate ? 'date' : 'text'}
      value={text}
      autoFocus
      onChange={(event) => {
        const next = event.target.value;
        setText(next);
        onChange(
          list
            ? next
                .split(',')
                .map((entry) => entry.trim())
                .filter(Boolean)
            : next,
        );
      }}
      error={Boolean(problem)}
      helperText={
        problem ??
        (isDate ? 'A day in your time zone' : list ? 'Separate values with commas' : undefined)
      }
      slotProps={{
        inputLabel: isDate ? { shrink: true } : undefined,
        htmlInput: numeric && !list ? { inputMode: 'decimal' } : undefined,
      }}
    />
  );
}
