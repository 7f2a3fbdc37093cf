// The shape both sides of the drift check are reduced to: what schema.prisma says the database
// must contain (schema-from-prisma.ts) and what PostgreSQL's catalog says it does contain
// (schema-from-database.ts). Plain JSON data, so tests can build, clone and edit it freely.

/** Referential actions in Prisma's spelling, so messages read like schema.prisma. */
export type ReferentialAction = "Cascade" | "Restrict" | "NoAction" | "SetNull" | "SetDefault";

export interface ColumnDescription {
  /** PostgreSQL's own spelling (format_type), enums by bare name, arrays with a "[]" suffix. */
  type: string;
  notNull: boolean;
  /**
   * DEFAULT expression as PostgreSQL prints it (null: none). Only a database can say this, so
   * schema.prisma's side leaves it out and defaults are then not compared; comparing two
   * databases (e.g. Prisma's own DDL against our migrations) does compare them.
   */
  default?: string | null;
}

export interface KeyDescription {
  name: string;
  columns: string[];
}

export interface ForeignKeyDescription {
  columns: string[];
  referencedTable: string;
  referencedColumns: string[];
  onDelete: ReferentialAction;
  onUpdate: ReferentialAction;
}

export interface IndexColumn {
  /** Column name, or the expression's text for an expression index. */
  name: string;
  /** "DESC", plus "NULLS FIRST/LAST" only when that differs from PostgreSQL's default. */
  order: string;
}

export interface IndexDescription {
  name: string;
  unique: boolean;
  /** Access method: btree, hash, gin, gist, brin, spgist. */
  method: string;
  columns: IndexColumn[];
  /** INCLUDE columns; schema.prisma cannot declare any. */
  included: string[];
  /** WHERE clause of a partial index; schema.prisma cannot declare one. */
  predicate: string | null;
}

export interface TriggerDescription {
  name: string;
  function: string;
}

export interface TableDescription {
  columns: Record<string, ColumnDescription>;
  primaryKey: KeyDescription | null;
  foreignKeys: ForeignKeyDescription[];
  indexes: IndexDescription[];
  /** Only a database has these: schema.prisma cannot express them. */
  checkConstraints: string[];
  triggers: TriggerDescription[];
}

export interface SchemaDescription {
  tables: Record<string, TableDescription>;
  /** Enum type name → labels in declaration order. */
  enums: Record<string, string[]>;
  /** Functions in the schema (only a database has these). */
  functions: string[];
  /** Views, sequences not owned by a column, foreign tables …: "view \"x\"" style labels. */
  otherRelations: string[];
}

export function emptyTable(): TableDescription {
  return { columns: {}, primaryKey: null, foreignKeys: [], indexes: [], checkConstraints: [], triggers: [] };
}

export const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

export const columnList = (columns: string[]) => `(${columns.map(quote).join(", ")})`;

const SQL_ACTIONS: Record<ReferentialAction, string> = {
  Cascade: "CASCADE",
  Restrict: "RESTRICT",
  NoAction: "NO ACTION",
  SetNull: "SET NULL",
  SetDefault: "SET DEFAULT",
};

export function describeForeignKey(table: string, fk: ForeignKeyDescription): string {
  return `${quote(table)}${columnList(fk.columns)} → ${quote(fk.referencedTable)}${columnList(fk.referencedColumns)}`;
}

export function describeForeignKeyActions(fk: ForeignKeyDescription): string {
  return `ON DELETE ${SQL_ACTIONS[fk.onDelete]} ON UPDATE ${SQL_ACTIONS[fk.onUpdate]}`;
}

/** The index as DDL-like text, so a mismatch shows both definitions side by side. */
export function describeIndex(table: string, index: IndexDescription): string {
  const columns = index.columns
    .map((c) => {
      // Expression index keys arrive as "(expression)" and are shown as they are.
      const key = c.name.startsWith("(") ? c.name : quote(c.name);
      return c.order ? `${key} ${c.order}` : key;
    })
    .join(", ");
  const include = index.included.length > 0 ? ` INCLUDE ${columnList(index.included)}` : "";
  const where = index.predicate ? ` WHERE ${index.predicate}` : "";
  return `${index.unique ? "UNIQUE " : ""}INDEX ON ${quote(table)} USING ${index.method} (${columns})${include}${where}`;
}

/** The column as DDL-like text; `withDefault` false leaves the DEFAULT out of it. */
export function describeColumn(column: ColumnDescription, withDefault = true): string {
  const text = `${column.type} ${column.notNull ? "NOT NULL" : "NULL"}`;
  if (!withDefault || column.default === undefined) return text;
  return column.default === null ? text : `${text} DEFAULT ${column.default}`;
}
