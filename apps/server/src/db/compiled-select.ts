import { createHash } from 'node:crypto';
import {
  Column,
  getTableColumns,
  is,
  Param,
  Placeholder,
  SQL,
  sql,
  StringChunk,
  Table,
} from 'drizzle-orm';
import { PgTimestamp, type PreparedQueryConfig } from 'drizzle-orm/pg-core';
import type { Db } from './client';
import { renderSql, type RenderedQuery } from './render-sql';
import { parseTimestamptz } from './timestamptz-text';

/**
 * A select whose large part (`SELECT <every field> FROM … JOIN …`) is rendered
 * to SQL once, and whose rows are decoded by decoders picked once
 * (docs/decisions/list-performance.md, "Compiled select"): per request only
 * the tail (WHERE, ORDER BY, LIMIT, OFFSET) is rendered by Drizzle. Drizzle
 * otherwise renders the whole select again on every call and decodes every
 * value of every row through type checks (`is(field, Column)`, …), which was
 * a fifth of the records list's CPU.
 *
 * Each row comes as one JSON array of its fields (`json_build_array`), which
 * the driver parses with JSON.parse: one text per row instead of one per
 * field, each through its own type parser, which was half the Node CPU of a
 * records list page (list-performance.md, "JSON-array rows"). The values are
 * what the columns' decoders take from the text protocol too (numbers,
 * strings, booleans, arrays and objects); a `timestamp with time zone` column
 * is read by `parseTimestamptz` (either form of its text).
 *
 * The rows are what Drizzle's `select(selection)` answers: the same SQL (Drizzle
 * renders the head), the same driver settings (Drizzle's own session, rows as
 * arrays), the same column decoders; a nested object of a left-joined table
 * listed in `nullable` is null when its first column is (as Drizzle does).
 */

type Selection = Record<string, unknown>;

interface Leaf {
  path: readonly string[];
  /** What the row's array holds at this leaf's place. */
  sql: SQL | Column;
  decode: ((value: unknown) => unknown) | null;
}

/** The decoder of a column: a timestamp with time zone by `parseTimestamptz`, falling back to Drizzle's. */
function columnDecoder(column: Column): (value: unknown) => unknown {
  if (is(column, PgTimestamp) && column.withTimezone) {
    const fallback = (text: string) => column.mapFromDriverValue(text);
    return (v) =>
      typeof v === 'string' ? parseTimestamptz(v, fallback) : column.mapFromDriverValue(v as never);
  }
  return (v) => column.mapFromDriverValue(v);
}

/** PostgreSQL's most arguments of a function (FUNC_MAX_ARGS), so of one json_build_array. */
const MAX_FIELDS = 100;

/** The selected fields in the order Drizzle renders them (its `orderSelectedFields`). */
function leavesOf(selection: Selection, prefix: readonly string[] = []): Leaf[] {
  const out: Leaf[] = [];
  for (const [name, field] of Object.entries(selection)) {
    const path = [...prefix, name];
    if (is(field, Column)) {
      out.push({ path, sql: field, decode: columnDecoder(field) });
    } else if (is(field, SQL) || is(field, SQL.Aliased)) {
      // `.mapWith()` sets a decoder (a column's: as that column's value);
      // plain `sql` fields pass the driver's value on.
      const owner = is(field, SQL) ? field : field.sql;
      const decoder = (
        owner as unknown as { decoder?: { mapFromDriverValue(v: unknown): unknown } }
      ).decoder;
      const decode = !decoder
        ? null
        : is(decoder, Column)
          ? columnDecoder(decoder)
          : (v: unknown) => decoder.mapFromDriverValue(v);
      out.push({ path, sql: owner, decode });
    } else if (is(field, Table)) {
      out.push(...leavesOf(getTableColumns(field) as Selection, path));
    } else if (field !== null && typeof field === 'object') {
      out.push(...leavesOf(field as Selection, path));
    } else {
      throw new Error(`compiledSelect: field ${path.join('.')} is not a column or SQL`);
    }
  }
  return out;
}

/**
 * A row decoder built once: the source of one function that returns the row
 * as object literals (one shape per select, so V8 keeps it monomorphic), its
 * keys written as JSON strings, the decoders passed in (no type check per value).
 */
function decoderOf(leaves: readonly Leaf[], nullable: readonly string[]) {
  const decoders = leaves.map((l) => l.decode);
  const value = (i: number) =>
    decoders[i] === null ? `row[${i}]` : `(row[${i}] === null ? null : d[${i}](row[${i}]))`;
  const groups: { name: string; leaves: number[] }[] = [];
  leaves.forEach((leaf, i) => {
    if (leaf.path.length > 2) throw new Error('compiledSelect: nesting deeper than two levels');
    const name = leaf.path[0]!;
    const group = groups.find((g) => g.name === name);
    if (group && leaf.path.length === 2) group.leaves.push(i);
    else if (group) throw new Error(`compiledSelect: ${name} selected twice`);
    else groups.push({ name, leaves: [i] });
  });
  for (const name of nullable) {
    if (!groups.some((g) => g.name === name && leaves[g.leaves[0]!]!.path.length === 2)) {
      throw new Error(`compiledSelect: no object ${name} to make nullable`);
    }
  }
  const fields = groups.map(({ name, leaves: at }) => {
    const first = leaves[at[0]!]!;
    if (first.path.length === 1) return `${JSON.stringify(name)}: ${value(at[0]!)}`;
    const object = `{ ${at.map((i) => `${JSON.stringify(leaves[i]!.path[1])}: ${value(i)}`).join(', ')} }`;
    // Drizzle's rule for a left-joined table: no row (its first column null) is null.
    return nullable.includes(name)
      ? `${JSON.stringify(name)}: row[${at[0]}] === null ? null : ${object}`
      : `${JSON.stringify(name)}: ${object}`;
  });
  // Generated from the select's own field names (JSON-quoted), once per select.
  const decode = new Function('d', `return (row) => ({ ${fields.join(', ')} });`) as (
    d: readonly (((v: unknown) => unknown) | null)[],
  ) => (row: unknown[]) => Record<string, unknown>;
  return decode(decoders);
}

export interface CompiledSelect<Row> {
  /**
   * The head's rows with `tail` (`WHERE … ORDER BY … LIMIT …`, Drizzle SQL, or a
   * template's `query`, which needs no rendering) after it.
   * `prepared`: send it as a named (server-side) prepared statement, so each
   * connection parses it once and PostgreSQL may keep a generic plan instead of
   * planning it on every request. Only for tails whose plan does not depend on
   * the values bound (an id, an organization; page sizes and flags written as
   * constants): a generic plan is one plan for every value. At most
   * MAX_PREPARED texts per select are named; the others go unnamed.
   */
  run(db: Db, tail: SQL | RenderedQuery, opts?: { prepared?: boolean }): Promise<Row[]>;
  /**
   * `run(db, tail, { prepared: true })` when the statement has a name (or one
   * of the MAX_PREPARED is left); undefined, running nothing, when it would
   * go unnamed (the caller takes another way).
   */
  runNamed(db: Db, tail: RenderedQuery): Promise<Row[] | undefined>;
}

/** A prepared statement's name from its text: one name is always one text (node-postgres refuses a name reused for another). */
function statementName(prefix: string, text: string): string {
  return `${prefix}_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
}

/**
 * Names for prepared statements by their text, at most `max` (the others:
 * undefined, sent unnamed; each connection keeps every text it has prepared).
 */
export function statementNames(prefix: string, max: number): (text: string) => string | undefined {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < max) {
      name = statementName(prefix, text);
      names.set(text, name);
    }
    return name;
  };
  return nameOf;
}

/** Most distinct statement texts one select names (each connection keeps each it has run). */
export const MAX_PREPARED = 16;

/**
 * What builds a head: the select of `fields` without its tail
 * (`db.select(fields).from(…).leftJoin(…)`). It is typed as taking the
 * selection (so a builder that also serves Drizzle's own select keeps its
 * row type), but it is passed the one JSON array field: it must hand its
 * `fields` to `db.select` and read nothing of them.
 */
export type BuildHead<S extends Selection = Selection> = (
  db: Db,
  fields: S,
) => { toSQL(): { sql: string; params: unknown[] } };

/**
 * Every compiled select made, with what it was made from: the test that
 * compares each one's rows with Drizzle's own select reads them
 * (compiled-select.test.ts).
 */
export const compiledSelects: {
  selection: Selection;
  build: BuildHead;
  select: CompiledSelect<Record<string, unknown>>;
}[] = [];

/**
 * `build(db, fields)` is the select without its tail (`db.select(fields).from(…).leftJoin(…)`),
 * rendered once, on first use, with `fields` the one JSON array of
 * `selection`'s fields; `selection` is the object the rows take the shape of.
 * The head may hold no bound parameter (write constants into its SQL), so the
 * tail's are $1….
 */
export function compiledSelect<Row, S extends Selection = Selection>(
  selection: S,
  build: BuildHead<S>,
  opts: { nullable?: readonly string[] } = {},
): CompiledSelect<Row> {
  let compiled:
    { headText: string; decode: (row: unknown[]) => Record<string, unknown> } | undefined;
  /**
   * Each named statement by its tail's text (the head is the same for all):
   * its whole text, joined once, and its name; at most MAX_PREPARED. Looked
   * up by the tail, not the whole text: a template's tail is the same string
   * on every call, whose hash V8 keeps, where the whole text joined anew was
   * hashed on every call (4.5–6.3 kB for a records page or a search: 1.4 ns
   * a byte, so 6–9 µs a request; list-performance.md, "Named statements").
   * The driver is then handed the same text each time too.
   */
  const named = new Map<string, { text: string; name: string }>();
  const namedStatement = (headText: string, tailText: string) => {
    let statement = named.get(tailText);
    if (statement === undefined && named.size < MAX_PREPARED) {
      const text = `${headText} ${tailText}`;
      statement = { text, name: statementName('cs', text) };
      named.set(tailText, statement);
    }
    return statement;
  };
  const compile = (db: Db) => {
    if (compiled === undefined) {
      const leaves = leavesOf(selection);
      if (leaves.length > MAX_FIELDS) {
        throw new Error(`compiledSelect: ${leaves.length} fields, more than ${MAX_FIELDS}`);
      }
      const fields = sql`json_build_array(${sql.join(
        leaves.map((l) => l.sql),
        sql`, `,
      )})`;
      const { sql: text, params } = build(db, { row: fields } as unknown as S).toSQL();
      if (params.length > 0) {
        throw new Error(`compiledSelect: the head binds parameters (${JSON.stringify(params)})`);
      }
      compiled = { headText: text, decode: decoderOf(leaves, opts.nullable ?? []) };
    }
    return compiled;
  };
  const execute = (db: Db, query: RenderedQuery, name: string | undefined) => {
    const { decode } = compile(db);
    const statement = db._.session.prepareQuery<PreparedQueryConfig & { execute: Row[] }>(
      query,
      undefined,
      name,
      true,
      // One field per row: the JSON array of the selection's fields.
      (rows) => rows.map((row) => decode((row as unknown[])[0] as unknown[]) as Row),
    );
    return statement.execute();
  };
  const select: CompiledSelect<Row> = {
    async run(db, tail, { prepared = false } = {}) {
      const { headText } = compile(db);
      // The head binds nothing, so the tail's $1 … $n are the statement's.
      const rendered = is(tail, SQL) ? renderSql(tail) : tail;
      const statement = prepared ? namedStatement(headText, rendered.sql) : undefined;
      const text = statement?.text ?? `${headText} ${rendered.sql}`;
      return execute(db, { sql: text, params: rendered.params }, statement?.name);
    },
    async runNamed(db, tail) {
      const statement = namedStatement(compile(db).headText, tail.sql);
      return statement === undefined
        ? undefined
        : execute(db, { sql: statement.text, params: tail.params }, statement.name);
    },
  };
  compiledSelects.push({
    selection,
    build: build as BuildHead,
    select: select as CompiledSelect<Record<string, unknown>>,
  });
  return select;
}

/**
 * A fragment that binds no value (columns, constants, joins), rendered to SQL
 * text once: per request Drizzle then appends one raw chunk instead of walking
 * the fragment's pieces again (list-performance.md, "Rendered tails": the
 * search's text expression and its page's joins were a fifth of a search's
 * Node CPU). The text is what Drizzle renders for it in a statement.
 */
export function renderedOnce(fragment: SQL): SQL {
  const { sql: text, params } = renderSql(fragment);
  if (params.length > 0) throw new Error('renderedOnce: the fragment binds values');
  return sql.raw(text);
}

/** A fragment rendered once (`renderedTemplate`), with its values per call. */
export interface RenderedTemplate<K extends string> {
  /**
   * The fragment with `values` bound, to place in a larger statement (Drizzle
   * appends its text as it is). A value that is Drizzle SQL (a condition
   * built for the request) takes its placeholder's place as SQL, not as a
   * bound value.
   */
  sql(values: Readonly<Record<K, unknown>>): SQL;
  /** The fragment as a statement of its own (or a compiled select's whole tail): its text and `values` as $1 … $n. */
  query(values: Readonly<Record<K, unknown>>): RenderedQuery;
}

/**
 * A fragment whose values are named placeholders (`sql.placeholder('org')`),
 * rendered to SQL text once (list-performance.md, "Rendered tails": Drizzle
 * takes about half a microsecond for every piece of a fragment, and the
 * records page's tail and a search's condition have dozens of pieces, rendered
 * on every request). Per call:
 * - `sql`: its text between the values as raw chunks and the values bound in
 *   their places (or, for a value that is SQL, that SQL), which Drizzle
 *   appends without walking the fragment again;
 * - `query`: its text as it is and the values in order, with no rendering.
 * The statement is the one Drizzle renders for the fragment with the values
 * in place of the placeholders: the same text, the same values in the same
 * order. A value is bound as given (a column's encoder is not applied, as
 * Drizzle applies none to a placeholder): pass what the driver takes (text,
 * numbers, arrays). A fragment that binds a value of its own is refused.
 */
export function renderedTemplate<K extends string>(fragment: SQL): RenderedTemplate<K> {
  const { sql: text, params } = renderSql(fragment);
  const names = params.map((p) => {
    // A placeholder, or one passed through `sql.param` (Drizzle lists the Param).
    const placeholder = is(p, Param) ? p.value : p;
    if (!is(placeholder, Placeholder))
      throw new Error('renderedTemplate: the fragment binds values');
    return placeholder.name as K;
  });
  // The text around Drizzle's $1 … $n, in order; a "$<digits>" of the text itself is refused.
  const pieces = text.split(/\$(\d+)/);
  const numbers = pieces.filter((_, i) => i % 2 === 1);
  if (numbers.length !== names.length || numbers.some((n, i) => n !== String(i + 1))) {
    throw new Error('renderedTemplate: the text has a $n that is not one of its placeholders');
  }
  const texts = pieces.filter((_, i) => i % 2 === 0).map((t) => new StringChunk(t));
  const valuesOf = (values: Readonly<Record<K, unknown>>) =>
    names.map((name) => {
      if (!Object.hasOwn(values, name)) {
        throw new Error(`renderedTemplate: no value for placeholder ${name}`);
      }
      return values[name];
    });
  return {
    sql(values) {
      const bound = valuesOf(values);
      const chunks: (StringChunk | Param | SQL)[] = [texts[0]!];
      bound.forEach((value, i) =>
        chunks.push(is(value, SQL) ? value : new Param(value), texts[i + 1]!),
      );
      return new SQL(chunks);
    },
    query(values) {
      const params = valuesOf(values);
      if (params.some((v) => is(v, SQL))) {
        throw new Error('renderedTemplate: a whole statement takes values only, not SQL');
      }
      return { sql: text, params };
    },
  };
}
