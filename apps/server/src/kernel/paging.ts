import { DEFAULT_PAGE_SIZE } from '@coldtrace/contract';

/** The paging query of every list call (`page_number` from 1, `page_size`). */
export interface PageQuery {
  page_number?: number | undefined;
  page_size?: number | undefined;
}

/** One page of a list: its number (from 1) and size, with the rows to skip. */
export interface Page {
  number: number;
  size: number;
  offset: number;
}

/** The page a list call asks for (page 1 of `DEFAULT_PAGE_SIZE` rows unless told). */
export function pageOf(query: PageQuery): Page {
  const number = query.page_number ?? 1;
  const size = query.page_size ?? DEFAULT_PAGE_SIZE;
  return { number, size, offset: (number - 1) * size };
}

/** A list page with the total of the whole list (the `x-total-count` header). */
export interface Listed<T> {
  total: number;
  items: T[];
}

/** `rows` in the order of `ids` (a page's ids read first, then its rows by id); an id without a row is left out. */
export function inOrderOf<T>(
  ids: readonly number[],
  rows: readonly T[],
  idOf: (row: T) => number,
): T[] {
  const byId = new Map(rows.map((row) => [idOf(row), row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row === undefined ? [] : [row];
  });
}
