import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useUpdateSearch } from '../../lib/url-search';
import type { OrderByItem } from '@coldtrace/domain';
import type { GridFilterModelLike } from './grid-filter';
import {
  filterKey,
  readGridViewState,
  writeGridViewState,
  type GridViewState,
} from './grid-url-state';

/** How long filter typing waits before the URL (and the request) follows. */
export const FILTER_DEBOUNCE_MS = 400;

type FilterModel = GridViewState['filterModel'];

export interface GridViewStateControls {
  /** The state the URL holds: what is requested. */
  state: GridViewState;
  /** The filter as edited: ahead of the URL while typing. */
  draftFilter: FilterModel;
  /** Edits the filter; the URL follows after a pause, or at once with `immediate`. */
  setFilter: (filter: FilterModel, options?: { immediate?: boolean }) => void;
  setOrderBy: (orderBy: OrderByItem[]) => void;
  setPage: (pageNumber: number, pageSize: number) => void;
}

/**
 * The table state of a grid page, kept in the URL (spec section 2). Changes
 * replace the history entry rather than pushing one per keystroke; filter
 * typing is debounced, and a filter change goes back to the first page.
 */
export function useGridViewState(defaultPageSize: number): GridViewStateControls {
  const [params] = useSearchParams();
  const updateSearch = useUpdateSearch();
  const state = useMemo(
    () => readGridViewState(params, defaultPageSize),
    [params, defaultPageSize],
  );
  const urlFilterKey = filterKey(state.filterModel);

  // The draft follows the URL when the URL changes by itself (back, a link);
  // when the change is one of our own writes, the draft is kept: it already
  // says the same, or the user has typed on while the write was landing (a
  // slow navigation must not throw away what was typed since, nor close the
  // filter editor).
  //
  // The render only derives this; the state takes the new URL in an effect,
  // that is once a render with it is committed. React may render the router's
  // new location in a transition and then drop that render for an urgent one
  // (typing) that still has the old location: a state set during the dropped
  // render made the old location look like a change from elsewhere, and the
  // typed filter and its editor were thrown away (seen on a busy machine).
  const [draft, setDraft] = useState<{ source: string; filter: FilterModel }>({
    source: urlFilterKey,
    filter: state.filterModel,
  });
  const [ownWrites, setOwnWrites] = useState<readonly string[]>([]);
  const followsUrl = (filter: FilterModel) =>
    !ownWrites.includes(urlFilterKey) && filterKey(filter) !== urlFilterKey;
  const current =
    draft.source === urlFilterKey
      ? draft
      : {
          source: urlFilterKey,
          filter: followsUrl(draft.filter) ? state.filterModel : draft.filter,
        };
  useEffect(() => {
    // The router's committed location is the outside state this follows.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setDraft((previous) =>
      previous.source === urlFilterKey
        ? previous
        : {
            source: urlFilterKey,
            filter: followsUrl(previous.filter) ? state.filterModel : previous.filter,
          },
    );
    setOwnWrites((previous) => {
      const own = previous.indexOf(urlFilterKey);
      return own >= 0 ? previous.slice(own + 1) : previous;
    });
    // Only a new URL filter moves the draft; the closure holds that render's state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [urlFilterKey]);

  const write = useCallback(
    (update: (state: GridViewState) => GridViewState) => {
      updateSearch((previous) =>
        writeGridViewState(previous, update(readGridViewState(previous, defaultPageSize))),
      );
    },
    [updateSearch, defaultPageSize],
  );

  const writeFilter = useCallback(
    (filter: GridFilterModelLike & { logicOperator: 'and' | 'or' }) => {
      setOwnWrites((previous) => [...previous.slice(-9), filterKey(filter)]);
      write((previous) =>
        filterKey(previous.filterModel) === filterKey(filter)
          ? previous
          : { ...previous, filterModel: filter, pageNumber: 0 },
      );
    },
    [write, setOwnWrites],
  );

  const [pending, setPending] = useState<FilterModel | null>(null);
  useEffect(() => {
    if (pending === null) return undefined;
    const timer = setTimeout(() => {
      writeFilter(pending);
      setPending(null);
    }, FILTER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [pending, writeFilter]);

  const setFilter = useCallback(
    (filter: FilterModel, options: { immediate?: boolean } = {}) => {
      setDraft((previous) => ({ ...previous, filter }));
      if (options.immediate) {
        setPending(null);
        writeFilter(filter);
      } else {
        setPending(filter);
      }
    },
    [writeFilter, setDraft],
  );

  const setOrderBy = useCallback(
    (orderBy: OrderByItem[]) => write((previous) => ({ ...previous, orderBy, pageNumber: 0 })),
    [write],
  );
  const setPage = useCallback(
    (pageNumber: number, pageSize: number) =>
      write((previous) => ({
        ...previous,
        pageNumber: pageSize === previous.pageSize ? pageNumber : 0,
        pageSize,
      })),
    [write],
  );

  return { state, draftFilter: current.filter, setFilter, setOrderBy, setPage };
}
