import { AUTOCOMPLETE_PAGE_SIZE, type TRecord } from '@coldtrace/contract';
import ArrowForwardOutlined from '@mui/icons-material/ArrowForwardOutlined';
import CloseOutlined from '@mui/icons-material/CloseOutlined';
import SearchOutlined from '@mui/icons-material/SearchOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import InputBase from '@mui/material/InputBase';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { useId, useState, type KeyboardEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { useAppSettings } from '../../../lib/app-settings';
import { DecisionChip } from '../../records';
import { useSearchRecords } from '../api/search-records';
import { SEARCH_PATH, normalizeTerms, readSearchState, searchHref } from '../search-params';
import { useDebouncedValue } from '../use-debounced-value';

/** How long typing waits before the suggestions are asked for. */
export const SUGGEST_DEBOUNCE_MS = 250;

type Option =
  | { kind: 'record'; id: string; record: TRecord; href: string }
  | { kind: 'all'; id: string; total: number; href: string };

function recordHref(recordId: string): string {
  return `/recorddetails/${encodeURIComponent(recordId)}`;
}

/**
 * The top-bar search box (spec section 2): placeholder 'Search'; Enter goes
 * to /search with the trimmed terms and page 1 (on /search, the query is
 * replaced in place). While it has focus and results exist, a list of at
 * most 5 suggestions (record id and primary reference) opens under it, with
 * 'View all results' when there are more than 5. A combobox: arrows move
 * through the suggestions, Enter opens one, Escape closes the list. On
 * phones the box is an icon button that expands over the top bar.
 */
export function SearchBox() {
  const compact = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const [expanded, setExpanded] = useState(false);
  if (compact && !expanded) {
    return (
      <IconButton color="inherit" aria-label="Search" onClick={() => setExpanded(true)}>
        <SearchOutlined />
      </IconButton>
    );
  }
  return (
    <SearchField compact={compact} onCollapse={compact ? () => setExpanded(false) : undefined} />
  );
}

function SearchField({ compact, onCollapse }: { compact: boolean; onCollapse?: () => void }) {
  const navigate = useNavigate();
  const location = useLocation();
  const listId = useId();
  // On /search the box shows the terms searched for; leaving /search clears it.
  const urlTerms =
    location.pathname === SEARCH_PATH
      ? readSearchState(new URLSearchParams(location.search)).terms
      : null;
  const [value, setValue] = useState(urlTerms ?? '');
  // The display rule may hide the primary reference: the suggestion then shows the tag.
  const hideReference = useAppSettings().hiddenFields.includes('primary_reference');
  const [syncedTerms, setSyncedTerms] = useState(urlTerms);
  if (syncedTerms !== urlTerms) {
    setSyncedTerms(urlTerms);
    setValue(urlTerms ?? '');
  }
  const [focused, setFocused] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  // The option chosen with the arrow keys (Enter opens it) and the one under the mouse
  // (only shown): a list opening under a resting pointer must not change what Enter does.
  const [active, setActive] = useState(-1);
  const [hovered, setHovered] = useState(-1);

  const terms = useDebouncedValue(normalizeTerms(value), SUGGEST_DEBOUNCE_MS);
  const suggestions = useSearchRecords(
    { terms, page: 1, pageSize: AUTOCOMPLETE_PAGE_SIZE },
    { enabled: focused },
  );
  const records = (suggestions.data?.data ?? []).slice(0, AUTOCOMPLETE_PAGE_SIZE);
  const total = suggestions.data?.totalCount ?? records.length;
  const showingCurrentTerms = terms !== '' && terms === normalizeTerms(value);

  const options: Option[] = records
    .filter((record): record is TRecord & { id: string } => Boolean(record.id))
    .map((record) => ({
      kind: 'record' as const,
      id: `${listId}-record-${record.id}`,
      record,
      href: recordHref(record.id),
    }));
  if (options.length > 0 && total > AUTOCOMPLETE_PAGE_SIZE) {
    options.push({ kind: 'all', id: `${listId}-all`, total, href: searchHref(terms, 1) });
  }
  const open = focused && !dismissed && showingCurrentTerms && options.length > 0;
  const activeOption = open && active >= 0 ? options[active] : undefined;

  const reset = () => {
    setActive(-1);
    setHovered(-1);
    setDismissed(true);
  };

  const go = (href: string, replace = false) => {
    reset();
    if (!href.startsWith(SEARCH_PATH)) setValue('');
    (document.activeElement as HTMLElement | null)?.blur();
    void navigate(href, { replace });
    onCollapse?.();
  };

  const submit = () => {
    const normalized = normalizeTerms(value);
    if (normalized === '') return;
    go(searchHref(normalized, 1), location.pathname === SEARCH_PATH);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        if (options.length === 0) return;
        event.preventDefault();
        setDismissed(false);
        setActive((index) => (open ? (index + 1) % options.length : 0));
        break;
      case 'ArrowUp':
        if (options.length === 0) return;
        event.preventDefault();
        setDismissed(false);
        setActive((index) =>
          open ? (index <= 0 ? options.length - 1 : index - 1) : options.length - 1,
        );
        break;
      case 'Enter':
        event.preventDefault();
        if (activeOption) go(activeOption.href);
        else submit();
        break;
      case 'Escape':
        if (open) {
          event.preventDefault();
          reset();
        } else if (value !== '') {
          event.preventDefault();
          setValue('');
        } else {
          onCollapse?.();
        }
        break;
      default:
    }
  };

  return (
    <Box
      role="search"
      aria-label="Search records"
      sx={
        compact
          ? {
              position: 'absolute',
              inset: 0,
              zIndex: 2,
              display: 'flex',
              alignItems: 'center',
              gap: 0.5,
              px: 1,
              bgcolor: 'primary.main',
            }
          : { position: 'relative', flex: '0 1 420px', minWidth: 180, mx: { sm: 1.5, md: 3 } }
      }
    >
      <Box sx={{ position: 'relative', flex: 1, minWidth: 0 }}>
        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: 1,
            px: 1.5,
            height: 40,
            borderRadius: 2,
            bgcolor: (theme) => alpha(theme.palette.common.white, focused ? 0.22 : 0.14),
            '&:hover': { bgcolor: (theme) => alpha(theme.palette.common.white, 0.22) },
            transition: 'background-color 120ms',
          }}
        >
          <SearchOutlined fontSize="small" aria-hidden sx={{ opacity: 0.85 }} />
          <InputBase
            value={value}
            placeholder="Search"
            autoFocus={compact}
            onChange={(event) => {
              setValue(event.target.value);
              setActive(-1);
              setHovered(-1);
              setDismissed(false);
            }}
            onFocus={() => {
              setFocused(true);
              setDismissed(false);
            }}
            onBlur={() => {
              setFocused(false);
              setActive(-1);
              if (compact && value.trim() === '') onCollapse?.();
            }}
            onKeyDown={onKeyDown}
            inputProps={{
              role: 'combobox',
              'aria-label': 'Search',
              'aria-autocomplete': 'list',
              'aria-expanded': open,
              'aria-controls': listId,
              'aria-activedescendant': activeOption?.id,
              enterKeyHint: 'search',
              autoComplete: 'off',
              spellCheck: false,
            }}
            sx={{
              flex: 1,
              color: 'inherit',
              '& input::placeholder': { color: 'inherit', opacity: 0.85 },
            }}
          />
        </Box>
        <Paper
          elevation={8}
          id={listId}
          role="listbox"
          aria-label="Search suggestions"
          sx={{
            display: open ? 'block' : 'none',
            position: 'absolute',
            top: 'calc(100% + 6px)',
            left: 0,
            right: 0,
            minWidth: { sm: 360 },
            maxWidth: 'calc(100vw - 16px)',
            py: 0.5,
            color: 'text.primary',
            zIndex: (theme) => theme.zIndex.modal,
          }}
        >
          {open
            ? options.map((option, index) => (
                <Box
                  key={option.id}
                  id={option.id}
                  role="option"
                  aria-selected={index === active}
                  component={RouterLink}
                  to={option.href}
                  tabIndex={-1}
                  // Keep the focus in the box until the click has navigated.
                  onMouseDown={(event) => event.preventDefault()}
                  onMouseEnter={() => setHovered(index)}
                  onMouseLeave={() => setHovered(-1)}
                  onClick={(event) => {
                    event.preventDefault();
                    go(option.href);
                  }}
                  sx={{
                    display: 'flex',
                    alignItems: 'center',
                    gap: 1.5,
                    px: 2,
                    py: 1,
                    color: 'inherit',
                    textDecoration: 'none',
                    bgcolor:
                      index === active
                        ? 'action.selected'
                        : index === hovered
                          ? 'action.hover'
                          : undefined,
                    borderTop: option.kind === 'all' ? 1 : 0,
                    borderColor: 'divider',
                  }}
                >
                  {option.kind === 'record' ? (
                    <>
                      <Typography
                        component="span"
                        variant="body2"
                        sx={{ fontWeight: 700, fontVariantNumeric: 'tabular-nums', flexShrink: 0 }}
                      >
                        Record {option.record.id}
                      </Typography>
                      <Typography
                        component="span"
                        variant="body2"
                        color="text.secondary"
                        noWrap
                        sx={{ minWidth: 0 }}
                      >
                        {hideReference
                          ? option.record.tag_serial_number || ''
                          : option.record.primary_reference?.trim() || 'No primary reference'}
                      </Typography>
                      {option.record.disposition ? (
                        <Box component="span" sx={{ ml: 'auto', flexShrink: 0, display: 'flex' }}>
                          <DecisionChip decision={option.record.disposition.decision} />
                        </Box>
                      ) : null}
                    </>
                  ) : (
                    <>
                      <Typography
                        component="span"
                        variant="body2"
                        sx={{ fontWeight: 600, color: 'primary.main', flex: 1 }}
                      >
                        View all results ({option.total.toLocaleString('en-US')})
                      </Typography>
                      <ArrowForwardOutlined fontSize="small" aria-hidden color="primary" />
                    </>
                  )}
                </Box>
              ))
            : null}
        </Paper>
      </Box>
      {compact ? (
        <IconButton
          color="inherit"
          aria-label="Close search"
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => {
            setValue('');
            onCollapse?.();
          }}
        >
          <CloseOutlined />
        </IconButton>
      ) : null}
    </Box>
  );
}
