import { Column, getTableColumns, is, sql, SQL, Table } from 'drizzle-orm';
import { PgTimestamp, PgTimestampString } from 'drizzle-orm/pg-core';

/**
 * A select's fields as one JSON array a row (docs/decisions/list-performance.md,
 * "JSON-array rows"): `json_build_array(<fields>)`, which the driver parses with
 * one JSON.parse a row instead of one type parser a field, decoded into the
 * selection's shape by a decoder made once per selection from plain closures
 * (each field's decoder picked once, no type check per value).
 *
 * The rows are what Drizzle's `select(selection)` answers: the same column
 * decoders on the same values; a timestamp is selected as its text
 * (`::text`), the form Drizzle's decoder reads in its own selects; a nested
 * object of a left-joined table listed in `nullable` is null when its first
 * column is (Drizzle's rule).
 *
 * Use: `db.select({ row: jsonRow }).from(…)`, then each result's `row`.
 */

type Selection = Record<string, unknown>;
type Decode = (value: unknown) => unknown;

interface Leaf {
  path: readonly string[];
  /** What the row's array holds at this leaf's place. */
  sql: SQL | Column;
  decode: Decode | null;
}

/** PostgreSQL's most arguments of a function (FUNC_MAX_ARGS), so of one json_build_array. */
const MAX_FIELDS = 100;

const isTimestamp = (value: unknown) => is(value, PgTimestamp) || is(value, PgTimestampString);

function columnLeaf(path: readonly string[], column: Column): Leaf {
  const decode: Decode = (v) => column.mapFromDriverValue(v);
  // JSON writes a timestamp in ISO form, which the Date parser cannot read past
  // year 9999: its text form is what Drizzle's decoder reads in its own selects.
  if (isTimestamp(column)) return { path, sql: sql`${column}::text`, decode };
  return { path, sql: column, decode };
}

/** The selected fields in the order Drizzle renders them (its `orderSelectedFields`). */
function leavesOf(selection: Selection, prefix: readonly string[] = []): Leaf[] {
  const out: Leaf[] = [];
  for (const [name, field] of Object.entries(selection)) {
    const path = [...prefix, name];
    if (is(field, Column)) {
      out.push(columnLeaf(path, field));
    } else if (is(field, SQL) || is(field, SQL.Aliased)) {
      // `.mapWith()` sets a decoder (a column's: as that column's value);
      // plain `sql` fields pass the driver's value on.
      const owner = is(field, SQL) ? field : field.sql;
      const decoder = (owner as unknown as { decoder?: { mapFromDriverValue: Decode } }).decoder;
      const decode = decoder ? (v: unknown) => decoder.mapFromDriverValue(v) : null;
      // A timestamp column's decoder: the value as its text too (see columnLeaf).
      const asText = isTimestamp(decoder);
      out.push({ path, sql: asText ? sql`(${owner})::text` : owner, decode });
    } else if (is(field, Table)) {
      out.push(...leavesOf(getTableColumns(field) as Selection, path));
    } else if (field !== null && typeof field === 'object') {
      out.push(...leavesOf(field as Selection, path));
    } else {
      throw new Error(`jsonRow: field ${path.join('.')} is not a column or SQL`);
    }
  }
  return out;
}

/** The value at `i` of a row's array, decoded (null stays null). */
function valueAt(i: number, decode: Decode | null): (row: unknown[]) => unknown {
  if (decode === null) return (row) => row[i];
  return (row) => {
    const v = row[i];
    return v === null ? null : decode(v);
  };
}

/** The decoder of a row's array: one getter per top-level field, an object's built from its leaves. */
function decoderOf(leaves: readonly Leaf[], nullable: readonly string[]) {
  const groups: { name: string; at: number[] }[] = [];
  leaves.forEach((leaf, i) => {
    if (leaf.path.length > 2) throw new Error('jsonRow: nesting deeper than two levels');
    const name = leaf.path[0]!;
    const group = groups.find((g) => g.name === name);
    if (group && leaf.path.length === 2) group.at.push(i);
    else if (group) throw new Error(`jsonRow: ${name} selected twice`);
    else groups.push({ name, at: [i] });
  });
  const getters = groups.map(({ name, at }): [string, (row: unknown[]) => unknown] => {
    const first = leaves[at[0]!]!;
    if (first.path.length === 1) {
      if (nullable.includes(name)) throw new Error(`jsonRow: no object ${name} to make nullable`);
      return [name, valueAt(at[0]!, first.decode)];
    }
    const fields = at.map((i): [string, (row: unknown[]) => unknown] => [
      leaves[i]!.path[1]!,
      valueAt(i, leaves[i]!.decode),
    ]);
    const object = (row: unknown[]) => {
      const out: Record<string, unknown> = {};
      for (const [key, get] of fields) out[key] = get(row);
      return out;
    };
    // Drizzle's rule for a left-joined table: no row (its first column null) is null.
    const isNullable = nullable.includes(name);
    return [name, isNullable ? (row) => (row[at[0]!] === null ? null : object(row)) : object];
  });
  for (const name of nullable) {
    if (!groups.some((g) => g.name === name)) {
      throw new Error(`jsonRow: no object ${name} to make nullable`);
    }
  }
  return (row: unknown[]) => {
    const out: Record<string, unknown> = {};
    for (const [name, get] of getters) out[name] = get(row);
    return out;
  };
}

/**
 * Every JSON-array field made, with the selection it stands for and the
 * select it is used in: the test that compares each one's rows with
 * Drizzle's own select of the selection reads them (json-rows.test.ts).
 */
export const jsonRowSelections: {
  selection: Selection;
  field: SQL;
  build: (db: never, fields: never) => PromiseLike<unknown[]>;
}[] = [];

/**
 * `selection`'s fields as one JSON array, decoded to a `Row` (the shape of
 * Drizzle's `select(selection)`); `build` is that select without its tail
 * (`(db, fields) => db.select(fields).from(…).leftJoin(…)`), for the test.
 */
export function jsonRow<Row>(
  selection: Selection,
  build: (db: never, fields: never) => PromiseLike<unknown[]>,
  opts: { nullable?: readonly string[] } = {},
): SQL<Row> {
  const leaves = leavesOf(selection);
  if (leaves.length > MAX_FIELDS) {
    throw new Error(`jsonRow: ${leaves.length} fields, more than ${MAX_FIELDS}`);
  }
  const decode = decoderOf(leaves, opts.nullable ?? []);
  const field = sql<Row>`json_build_array(${sql.join(
    leaves.map((l) => l.sql),
    sql`, `,
  )})`.mapWith((row) => decode(row as unknown[]) as Row);
  jsonRowSelections.push({ selection, field, build });
  return field;
}
