/** A 1-based page: its rows and the number of rows of every page. */
export interface Paged<T> {
  total: number;
  rows: T[];
}
