// What the `public` schema of a live PostgreSQL database contains, read from pg_catalog and reduced
// to the same description schema.prisma is reduced to. Objects owned by an extension and Prisma's
// own `_prisma_migrations` bookkeeping table are left out: neither is part of the domain model.
import type pg from "pg";
import { emptyTable, type ReferentialAction, type SchemaDescription, type TableDescription } from "./schema-description";

export type Queryable = Pick<pg.ClientBase, "query">;

const MIGRATIONS_TABLE = "_prisma_migrations";

// confdeltype / confupdtype letters in pg_constraint.
const ACTIONS: Record<string, ReferentialAction> = {
  a: "NoAction",
  r: "Restrict",
  c: "Cascade",
  n: "SetNull",
  d: "SetDefault",
};

const NOT_FROM_EXTENSION = (catalog: string, oid: string) =>
  `NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = '${catalog}'::regclass AND d.objid = ${oid} AND d.deptype = 'e')`;

/** text[] of the column names behind attribute numbers `keys` of relation `rel`, in key order. */
const COLUMN_NAMES = (keys: string, rel: string) =>
  `ARRAY(SELECT a.attname::text FROM unnest(${keys}) WITH ORDINALITY k(attnum, ord)
         JOIN pg_attribute a ON a.attrelid = ${rel} AND a.attnum = k.attnum ORDER BY k.ord)`;

export async function actualSchemaFromDatabase(client: Queryable): Promise<SchemaDescription> {
  const description: SchemaDescription = { tables: {}, enums: {}, functions: [], otherRelations: [] };
  await readRelations(client, description);
  await readColumns(client, description);
  await readConstraints(client, description);
  await readIndexes(client, description);
  await readTriggers(client, description);
  await readEnums(client, description);
  await readFunctions(client, description);
  return description;
}

function tableOf(description: SchemaDescription, name: string): TableDescription | undefined {
  return name === MIGRATIONS_TABLE ? undefined : description.tables[name];
}

async function readRelations(client: Queryable, description: SchemaDescription) {
  const { rows } = await client.query<{ name: string; kind: string; owned_by_column: boolean }>(`
    SELECT c.relname AS name, c.relkind AS kind,
           EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
                     AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')) AS owned_by_column
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f') AND ${NOT_FROM_EXTENSION("pg_class", "c.oid")}
    ORDER BY c.relname`);
  const labels: Record<string, string> = { v: "view", m: "materialized view", S: "sequence", f: "foreign table" };
  for (const row of rows) {
    if (row.name === MIGRATIONS_TABLE) continue;
    if (row.kind === "r" || row.kind === "p") description.tables[row.name] = emptyTable();
    // A sequence behind a serial/identity column belongs to that column (autoincrement()).
    else if (!(row.kind === "S" && row.owned_by_column)) description.otherRelations.push(`${labels[row.kind]} "${row.name}"`);
  }
}

async function readColumns(client: Queryable, description: SchemaDescription) {
  // Enums by bare name (format_type would quote mixed-case names); everything else as PostgreSQL spells it.
  const { rows } = await client.query<{ table: string; column: string; type: string; not_null: boolean; default_expr: string | null }>(`
    SELECT c.relname AS table, a.attname AS column, a.attnotnull AS not_null,
           pg_get_expr(ad.adbin, ad.adrelid) AS default_expr,
           CASE WHEN t.typtype = 'e' THEN t.typname::text
                WHEN et.typtype = 'e' THEN et.typname::text || '[]'
                ELSE format_type(a.atttypid, a.atttypmod) END AS type
    FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_type t ON t.oid = a.atttypid
    LEFT JOIN pg_type et ON et.oid = t.typelem AND t.typcategory = 'A'
    LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
    ORDER BY c.relname, a.attnum`);
  for (const row of rows) {
    const table = tableOf(description, row.table);
    if (table) table.columns[row.column] = { type: row.type, notNull: row.not_null, default: row.default_expr };
  }
}

async function readConstraints(client: Queryable, description: SchemaDescription) {
  // Unique and exclusion constraints are read as the indexes behind them (readIndexes), constraint
  // triggers as triggers, and PostgreSQL 18's NOT NULL constraints as column nullability.
  const { rows } = await client.query<{
    name: string;
    type: "p" | "f" | "c";
    table: string;
    columns: string[];
    referenced_table: string | null;
    referenced_schema: string | null;
    referenced_columns: string[];
    on_delete: string;
    on_update: string;
  }>(`
    SELECT con.conname AS name, con.contype AS type, c.relname AS table,
           ${COLUMN_NAMES("con.conkey", "con.conrelid")} AS columns,
           rc.relname AS referenced_table, rn.nspname AS referenced_schema,
           ${COLUMN_NAMES("con.confkey", "con.confrelid")} AS referenced_columns,
           con.confdeltype AS on_delete, con.confupdtype AS on_update
    FROM pg_constraint con
    JOIN pg_class c ON c.oid = con.conrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_class rc ON rc.oid = con.confrelid
    LEFT JOIN pg_namespace rn ON rn.oid = rc.relnamespace
    WHERE n.nspname = 'public' AND con.contype IN ('p', 'f', 'c')
    ORDER BY c.relname, con.conname`);
  for (const row of rows) {
    const table = tableOf(description, row.table);
    if (!table) continue;
    if (row.type === "p") table.primaryKey = { name: row.name, columns: row.columns };
    else if (row.type === "c") table.checkConstraints.push(row.name);
    else {
      table.foreignKeys.push({
        columns: row.columns,
        referencedTable: row.referenced_schema === "public" ? (row.referenced_table ?? "") : `${row.referenced_schema}.${row.referenced_table}`,
        referencedColumns: row.referenced_columns,
        onDelete: ACTIONS[row.on_delete] ?? "NoAction",
        onUpdate: ACTIONS[row.on_update] ?? "NoAction",
      });
    }
  }
}

async function readIndexes(client: Queryable, description: SchemaDescription) {
  const { rows } = await client.query<{
    name: string;
    table: string;
    unique: boolean;
    method: string;
    key_count: number;
    columns: string[];
    options: number[];
    predicate: string | null;
  }>(`
    SELECT ic.relname AS name, c.relname AS table, i.indisunique AS unique, am.amname AS method,
           i.indnkeyatts AS key_count,
           ARRAY(SELECT CASE WHEN k.attnum = 0 THEN '(' || pg_get_indexdef(i.indexrelid, k.ord::int, true) || ')'
                             ELSE a.attname::text END
                 FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
                 LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                 ORDER BY k.ord) AS columns,
           i.indoption::int2[] AS options,
           pg_get_expr(i.indpred, i.indrelid, true) AS predicate
    FROM pg_index i
    JOIN pg_class ic ON ic.oid = i.indexrelid
    JOIN pg_class c ON c.oid = i.indrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_am am ON am.oid = ic.relam
    WHERE n.nspname = 'public' AND NOT i.indisprimary
    ORDER BY c.relname, ic.relname`);
  for (const row of rows) {
    const table = tableOf(description, row.table);
    if (!table) continue;
    table.indexes.push({
      name: row.name,
      unique: row.unique,
      method: row.method,
      columns: row.columns.slice(0, row.key_count).map((name, i) => ({ name, order: sortOrder(row.options[i] ?? 0) })),
      included: row.columns.slice(row.key_count),
      predicate: row.predicate,
    });
  }
}

/** pg_index.indoption bits: 1 = DESC, 2 = NULLS FIRST (the default only for DESC). */
function sortOrder(option: number): string {
  const desc = (option & 1) !== 0;
  const nullsFirst = (option & 2) !== 0;
  const nulls = nullsFirst === desc ? "" : nullsFirst ? "NULLS FIRST" : "NULLS LAST";
  return [desc ? "DESC" : "", nulls].filter(Boolean).join(" ");
}

async function readTriggers(client: Queryable, description: SchemaDescription) {
  const { rows } = await client.query<{ name: string; table: string; function: string }>(`
    SELECT t.tgname AS name, c.relname AS table, p.proname AS function
    FROM pg_trigger t
    JOIN pg_class c ON c.oid = t.tgrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_proc p ON p.oid = t.tgfoid
    WHERE n.nspname = 'public' AND NOT t.tgisinternal
    ORDER BY c.relname, t.tgname`);
  for (const row of rows) tableOf(description, row.table)?.triggers.push({ name: row.name, function: row.function });
}

async function readEnums(client: Queryable, description: SchemaDescription) {
  const { rows } = await client.query<{ name: string; labels: string[] }>(`
    SELECT t.typname AS name, array_remove(array_agg(e.enumlabel::text ORDER BY e.enumsortorder), NULL) AS labels
    FROM pg_type t
    JOIN pg_namespace n ON n.oid = t.typnamespace
    LEFT JOIN pg_enum e ON e.enumtypid = t.oid
    WHERE n.nspname = 'public' AND t.typtype = 'e' AND ${NOT_FROM_EXTENSION("pg_type", "t.oid")}
    GROUP BY t.typname
    ORDER BY t.typname`);
  for (const row of rows) description.enums[row.name] = row.labels;
}

async function readFunctions(client: Queryable, description: SchemaDescription) {
  const { rows } = await client.query<{ name: string }>(`
    SELECT p.proname AS name
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname = 'public' AND ${NOT_FROM_EXTENSION("pg_proc", "p.oid")}
    ORDER BY p.proname`);
  description.functions = rows.map((row) => row.name);
}
