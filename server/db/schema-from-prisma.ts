// What schema.prisma requires of a PostgreSQL database, derived from Prisma's own parse of the
// schema (the DMMF from @prisma/prisma-schema-wasm, the parser `prisma generate` uses), so that
// every @map, @db.* type, @@unique and relation is read exactly as Prisma reads it.
// Assumes relationMode "foreignKeys" (the default), i.e. every relation is a real foreign key.
import prismaSchemaWasm from "@prisma/prisma-schema-wasm";
import { emptyTable, type IndexDescription, type ReferentialAction, type SchemaDescription, type TableDescription } from "./schema-description";

// The parts of Prisma's DMMF this module reads (see @prisma/dmmf for the full type).
interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: "scalar" | "object" | "enum" | "unsupported";
  type: string;
  isList: boolean;
  isRequired: boolean;
  isId: boolean;
  nativeType?: [string, string[]] | null;
  relationName?: string;
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
  relationOnUpdate?: string;
}
interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
}
interface DmmfIndex {
  model: string;
  type: "id" | "normal" | "unique" | "fulltext";
  dbName?: string;
  algorithm?: string;
  fields: { name: string; sortOrder?: "asc" | "desc" }[];
}
interface DmmfEnum {
  name: string;
  dbName?: string | null;
  values: { name: string; dbName: string | null }[];
}
interface Dmmf {
  datamodel: { models: DmmfModel[]; enums: DmmfEnum[]; indexes: DmmfIndex[] };
}

export function parsePrismaSchema(schemaText: string): Dmmf {
  let json: string;
  try {
    json = prismaSchemaWasm.get_dmmf(JSON.stringify({ prismaSchema: schemaText, noColor: true }));
  } catch (error) {
    // The engine throws its diagnostics as a JSON string; surface the readable part.
    const raw = error instanceof Error ? error.message : String(error);
    let message = raw;
    try {
      message = (JSON.parse(raw) as { message?: string }).message ?? raw;
    } catch {}
    throw new Error(`schema.prisma does not parse: ${message}`);
  }
  return JSON.parse(json) as Dmmf;
}

// Prisma's column types for scalars without @db.*, in PostgreSQL's format_type() spelling.
const SCALAR_TYPES: Record<string, string> = {
  String: "text",
  Int: "integer",
  BigInt: "bigint",
  Float: "double precision",
  Decimal: "numeric(65,30)",
  Boolean: "boolean",
  DateTime: "timestamp(3) without time zone",
  Json: "jsonb",
  Bytes: "bytea",
};

// Without an argument Prisma writes the bare type (PostgreSQL's own default precision).
const withPrecision = (type: string, args: string[], zone: string) => `${args[0] ? `${type}(${args[0]})` : type} ${zone}`;

// @db.* native types, in format_type() spelling (checked against the DDL Prisma's engine writes).
const NATIVE_TYPES: Record<string, (args: string[]) => string> = {
  Text: () => "text",
  Char: (a) => `character(${a[0] ?? 1})`,
  VarChar: (a) => (a[0] ? `character varying(${a[0]})` : "character varying"),
  Bit: (a) => `bit(${a[0] ?? 1})`,
  VarBit: (a) => (a[0] ? `bit varying(${a[0]})` : "bit varying"),
  Uuid: () => "uuid",
  Xml: () => "xml",
  Inet: () => "inet",
  Citext: () => "citext",
  SmallInt: () => "smallint",
  Integer: () => "integer",
  BigInt: () => "bigint",
  Oid: () => "oid",
  DoublePrecision: () => "double precision",
  Real: () => "real",
  Decimal: (a) => (a.length > 0 ? `numeric(${a.join(",")})` : "numeric"),
  Money: () => "money",
  Timestamp: (a) => withPrecision("timestamp", a, "without time zone"),
  Timestamptz: (a) => withPrecision("timestamp", a, "with time zone"),
  Date: () => "date",
  Time: (a) => withPrecision("time", a, "without time zone"),
  Timetz: (a) => withPrecision("time", a, "with time zone"),
  Boolean: () => "boolean",
  Json: () => "json",
  JsonB: () => "jsonb",
  ByteA: () => "bytea",
};

// PostgreSQL's identifier limit; Prisma truncates its default constraint names to fit it.
const MAX_IDENTIFIER_BYTES = 63;

function truncateBytes(text: string, maxBytes: number): string {
  let out = "";
  for (const char of text) {
    if (Buffer.byteLength(out + char) > maxBytes) break;
    out += char;
  }
  return out;
}

/** Prisma's default index name: {table}_{columns}_{suffix}, truncated like ConstraintNames does. */
function defaultIndexName(table: string, columns: string[], suffix: "_key" | "_idx"): string {
  const base = `${table}_${columns.join("_")}`;
  const limit = MAX_IDENTIFIER_BYTES - suffix.length;
  return (Buffer.byteLength(base) >= limit ? truncateBytes(base, limit) : base) + suffix;
}

function defaultPrimaryKeyName(table: string): string {
  const limit = MAX_IDENTIFIER_BYTES - 5;
  return (Buffer.byteLength(table) >= limit ? truncateBytes(table, limit) : table) + "_pkey";
}

export function expectedSchemaFromPrisma(schemaText: string): SchemaDescription {
  const { datamodel } = parsePrismaSchema(schemaText);
  const models = new Map(datamodel.models.map((model) => [model.name, model]));
  const enums = new Map(datamodel.enums.map((e) => [e.name, e]));
  const tableName = (model: DmmfModel) => model.dbName ?? model.name;
  const columnName = (model: DmmfModel, fieldName: string) => {
    const field = model.fields.find((f) => f.name === fieldName);
    if (!field) throw new Error(`model ${model.name} has no field ${fieldName}`);
    return field.dbName ?? field.name;
  };
  const modelNamed = (name: string) => {
    const model = models.get(name);
    if (!model) throw new Error(`schema.prisma refers to unknown model ${name}`);
    return model;
  };

  const description: SchemaDescription = { tables: {}, enums: {}, functions: [], otherRelations: [] };
  for (const e of datamodel.enums) description.enums[e.dbName ?? e.name] = e.values.map((v) => v.dbName ?? v.name);

  const columnType = (field: DmmfField): string => {
    let base: string;
    if (field.kind === "enum") {
      const e = enums.get(field.type);
      base = e?.dbName ?? field.type;
    } else if (field.nativeType) {
      const [name, args] = field.nativeType;
      const render = NATIVE_TYPES[name];
      if (!render) throw new Error(`no PostgreSQL spelling known for @db.${name}`);
      base = render(args);
    } else if (field.kind === "unsupported") {
      base = field.type.replace(/^Unsupported\("(.*)"\)$/, "$1").toLowerCase();
    } else {
      const scalar = SCALAR_TYPES[field.type];
      if (!scalar) throw new Error(`no PostgreSQL type known for Prisma type ${field.type}`);
      base = scalar;
    }
    return field.isList ? `${base}[]` : base;
  };

  for (const model of datamodel.models) {
    const table: TableDescription = emptyTable();
    for (const field of model.fields) {
      if (field.kind === "object") continue;
      // Scalar lists are nullable columns in Prisma's PostgreSQL DDL, whatever the field says.
      table.columns[field.dbName ?? field.name] = { type: columnType(field), notNull: field.isRequired && !field.isList };
    }
    for (const field of model.fields) {
      if (field.kind !== "object" || !field.relationFromFields?.length) continue;
      const target = modelNamed(field.type);
      table.foreignKeys.push({
        columns: field.relationFromFields.map((f) => columnName(model, f)),
        referencedTable: tableName(target),
        referencedColumns: (field.relationToFields ?? []).map((f) => columnName(target, f)),
        // Prisma's defaults: Restrict for a required relation, SetNull for an optional one.
        onDelete: (field.relationOnDelete ?? (field.isRequired ? "Restrict" : "SetNull")) as ReferentialAction,
        onUpdate: (field.relationOnUpdate ?? "Cascade") as ReferentialAction,
      });
    }
    description.tables[tableName(model)] = table;
  }

  for (const index of datamodel.indexes) {
    const model = modelNamed(index.model);
    const table = description.tables[tableName(model)];
    if (!table) continue;
    const columns = index.fields.map((f) => columnName(model, f.name));
    if (index.type === "id") {
      // PRIMARY KEY columns are NOT NULL whatever else is said about them.
      for (const c of columns) if (table.columns[c]) table.columns[c].notNull = true;
      table.primaryKey = { name: index.dbName ?? defaultPrimaryKeyName(tableName(model)), columns };
      continue;
    }
    const unique = index.type === "unique";
    const described: IndexDescription = {
      name: index.dbName ?? defaultIndexName(tableName(model), columns, unique ? "_key" : "_idx"),
      unique,
      method: (index.algorithm ?? "BTree").toLowerCase(),
      columns: index.fields.map((f) => ({ name: columnName(model, f.name), order: f.sortOrder === "desc" ? "DESC" : "" })),
      included: [],
      predicate: null,
    };
    table.indexes.push(described);
  }

  addImplicitManyToManyTables(datamodel.models, description, { tableName, columnName, columnType });
  return description;
}

/**
 * Implicit many-to-many relations (list fields on both sides, no `fields:`) get a join table
 * "_{relation}" with columns A and B, A pointing at the model whose name sorts first.
 */
function addImplicitManyToManyTables(
  models: DmmfModel[],
  description: SchemaDescription,
  helpers: {
    tableName: (model: DmmfModel) => string;
    columnName: (model: DmmfModel, field: string) => string;
    columnType: (field: DmmfField) => string;
  },
): void {
  const done = new Set<string>();
  for (const model of models) {
    for (const field of model.fields) {
      if (field.kind !== "object" || !field.isList || !field.relationName || done.has(field.relationName)) continue;
      const other = models.find((m) => m.name === field.type);
      const back = other?.fields.find((f) => f !== field && f.relationName === field.relationName && f.kind === "object" && f.type === model.name);
      if (!other || !back?.isList) continue;
      done.add(field.relationName);
      const [a, b] = [model, other].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0)) as [DmmfModel, DmmfModel];
      const name = `_${field.relationName}`;
      const table = emptyTable();
      for (const [column, target] of [
        ["A", a],
        ["B", b],
      ] as const) {
        const id = target.fields.find((f) => f.isId);
        if (!id) throw new Error(`implicit many-to-many ${name} needs a single-field @id on ${target.name}`);
        table.columns[column] = { type: helpers.columnType({ ...id, isList: false }), notNull: true };
        table.foreignKeys.push({
          columns: [column],
          referencedTable: helpers.tableName(target),
          referencedColumns: [helpers.columnName(target, id.name)],
          onDelete: "Cascade",
          onUpdate: "Cascade",
        });
      }
      table.primaryKey = { name: `${name}_AB_pkey`, columns: ["A", "B"] };
      table.indexes.push({
        name: `${name}_B_index`,
        unique: false,
        method: "btree",
        columns: [{ name: "B", order: "" }],
        included: [],
        predicate: null,
      });
      description.tables[name] = table;
    }
  }
}
