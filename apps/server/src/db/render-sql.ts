import type { SQL } from 'drizzle-orm';
import { CasingCache } from 'drizzle-orm/casing';
import { PgDialect } from 'drizzle-orm/pg-core';

/** A statement's text and its values ($1 … $n), as Drizzle renders one. */
export interface RenderedQuery {
  sql: string;
  params: unknown[];
}

const dialect = new PgDialect();

/**
 * How PgDialect.sqlToQuery renders, less the parameter typings: for every
 * bound value it asks the value's encoder which of nine column kinds it is
 * (`is` checks that walk the class chain), for drivers that send types with
 * the values. node-postgres takes none (Drizzle's own session drops them),
 * and they were two fifths of a search statement's rendering
 * (docs/decisions/list-performance.md, "Rendered tails"). The default
 * casing, as the app's Drizzle instances have.
 */
const config = {
  casing: new CasingCache(),
  escapeName: (name: string) => dialect.escapeName(name),
  escapeParam: (num: number) => dialect.escapeParam(num),
  escapeString: (text: string) => dialect.escapeString(text),
};

/** `fragment` as the text and values node-postgres runs: Drizzle's rendering, the same text and values. */
export function renderSql(fragment: SQL): RenderedQuery {
  const { sql, params } = fragment.toQuery(config);
  return { sql, params };
}
