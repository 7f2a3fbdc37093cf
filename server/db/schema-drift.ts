// Detects drift between schema.prisma and the database the migrations produce. Both sides are
// reduced to a SchemaDescription; everything schema.prisma describes must be present and equal,
// and anything more in the database is drift too, except the hand-written SQL-only objects,
// which in turn must exist. Framework-free: the tests and any script can call it.
import {
  columnList,
  describeColumn,
  describeForeignKey,
  describeForeignKeyActions,
  describeIndex,
  quote,
  type ForeignKeyDescription,
  type IndexDescription,
  type KeyDescription,
  type SchemaDescription,
  type TableDescription,
} from "./schema-description";
import { sqlOnlyObjects } from "./sql-only-objects";

export { expectedSchemaFromPrisma } from "./schema-from-prisma";
export { actualSchemaFromDatabase } from "./schema-from-database";
export type { SchemaDescription } from "./schema-description";

/** Database objects accepted beyond schema.prisma, by name (see sql-only-objects.ts). */
export interface AllowedExtras {
  checkConstraints: readonly string[];
  indexes: readonly string[];
  triggers: readonly string[];
  /** Functions the server's own statements call (those a listed trigger runs are accepted with it). */
  functions: readonly string[];
}

export const NO_EXTRAS: AllowedExtras = { checkConstraints: [], indexes: [], triggers: [], functions: [] };

const SOURCE = "schema.prisma";
const LISTED = "server/db/sql-only-objects.ts";

/** Human-readable differences; an empty list means no drift. */
export function compareSchemas(expected: SchemaDescription, actual: SchemaDescription, allowedExtras: AllowedExtras = sqlOnlyObjects): string[] {
  const problems: string[] = [];
  compareEnums(expected, actual, problems);

  for (const name of sortedUnion(Object.keys(expected.tables), Object.keys(actual.tables))) {
    const want = expected.tables[name];
    const have = actual.tables[name];
    if (!have) problems.push(`table ${quote(name)} is in ${SOURCE} but not in the database`);
    else if (!want) problems.push(`table ${quote(name)} is in the database but not in ${SOURCE}`);
    else compareTable(name, want, have, allowedExtras, problems);
  }

  requireSqlOnlyObjects(actual, allowedExtras, problems);
  for (const label of actual.otherRelations) {
    if (!expected.otherRelations.includes(label)) problems.push(`${label} is in the database but not in ${SOURCE}`);
  }
  // A function is accepted when an accepted trigger runs it (the trigger is what needs it).
  const acceptedTriggers = new Set([...allowedExtras.triggers, ...allTriggers(expected).map((t) => t.name)]);
  const neededFunctions = new Set(
    allTriggers(actual)
      .filter((t) => acceptedTriggers.has(t.name))
      .map((t) => t.function),
  );
  for (const fn of actual.functions) {
    if (!neededFunctions.has(fn) && !allowedExtras.functions.includes(fn) && !expected.functions.includes(fn)) {
      problems.push(`function ${quote(fn)} is in the database but neither in ${SOURCE} nor listed in ${LISTED} (itself or a trigger running it)`);
    }
  }
  return problems;
}

function compareEnums(expected: SchemaDescription, actual: SchemaDescription, problems: string[]) {
  for (const name of sortedUnion(Object.keys(expected.enums), Object.keys(actual.enums))) {
    const want = expected.enums[name];
    const have = actual.enums[name];
    const list = (values: string[]) => `(${values.map((v) => `'${v}'`).join(", ")})`;
    if (!have) problems.push(`enum ${quote(name)} is in ${SOURCE} but not in the database`);
    else if (!want) problems.push(`enum ${quote(name)} is in the database but not in ${SOURCE}`);
    else if (list(want) !== list(have)) problems.push(`enum ${quote(name)}: ${SOURCE} says ${list(want)}, database has ${list(have)}`);
  }
}

function compareTable(name: string, want: TableDescription, have: TableDescription, allowed: AllowedExtras, problems: string[]) {
  for (const column of sortedUnion(Object.keys(want.columns), Object.keys(have.columns))) {
    const w = want.columns[column];
    const h = have.columns[column];
    const label = `column ${quote(name)}.${quote(column)}`;
    if (!h) problems.push(`${label} is in ${SOURCE} but not in the database`);
    else if (!w) problems.push(`${label} is in the database but not in ${SOURCE}`);
    else {
      // Defaults are compared only when the expected side knows them (see ColumnDescription).
      const withDefault = w.default !== undefined;
      if (describeColumn(w, withDefault) !== describeColumn(h, withDefault)) {
        problems.push(`${label}: ${SOURCE} says ${describeColumn(w, withDefault)}, database has ${describeColumn(h, withDefault)}`);
      }
    }
  }

  const key = (pk: KeyDescription | null) => (pk ? `${quote(pk.name)} ${columnList(pk.columns)}` : "no primary key");
  if (key(want.primaryKey) !== key(have.primaryKey)) {
    problems.push(`primary key of ${quote(name)}: ${SOURCE} says ${key(want.primaryKey)}, database has ${key(have.primaryKey)}`);
  }

  compareForeignKeys(name, want.foreignKeys, have.foreignKeys, problems);
  compareIndexes(name, want.indexes, have.indexes, allowed, problems);

  for (const check of have.checkConstraints) {
    if (!want.checkConstraints.includes(check) && !allowed.checkConstraints.includes(check)) {
      problems.push(`check constraint ${quote(check)} on ${quote(name)} is in the database but neither in ${SOURCE} nor in ${LISTED}`);
    }
  }
  for (const check of want.checkConstraints) {
    if (!have.checkConstraints.includes(check)) problems.push(`check constraint ${quote(check)} on ${quote(name)} is not in the database`);
  }
  for (const trigger of have.triggers) {
    if (!want.triggers.some((t) => t.name === trigger.name) && !allowed.triggers.includes(trigger.name)) {
      problems.push(`trigger ${quote(trigger.name)} on ${quote(name)} is in the database but neither in ${SOURCE} nor in ${LISTED}`);
    }
  }
  for (const trigger of want.triggers) {
    if (!have.triggers.some((t) => t.name === trigger.name)) problems.push(`trigger ${quote(trigger.name)} on ${quote(name)} is not in the database`);
  }
}

/** Foreign keys are matched by what they connect; Prisma's DMMF does not expose their names. */
function compareForeignKeys(table: string, want: ForeignKeyDescription[], have: ForeignKeyDescription[], problems: string[]) {
  const byTarget = (fks: ForeignKeyDescription[]) => new Map(fks.map((fk) => [describeForeignKey(table, fk), fk]));
  const wanted = byTarget(want);
  const present = byTarget(have);
  for (const label of sortedUnion([...wanted.keys()], [...present.keys()])) {
    const w = wanted.get(label);
    const h = present.get(label);
    if (!h) problems.push(`foreign key ${label} is in ${SOURCE} but not in the database`);
    else if (!w) problems.push(`foreign key ${label} is in the database but not in ${SOURCE}`);
    else if (describeForeignKeyActions(w) !== describeForeignKeyActions(h)) {
      problems.push(`foreign key ${label}: ${SOURCE} says ${describeForeignKeyActions(w)}, database has ${describeForeignKeyActions(h)}`);
    }
  }
}

/** Indexes (unique ones included) are matched by name, then compared column by column. */
function compareIndexes(table: string, want: IndexDescription[], have: IndexDescription[], allowed: AllowedExtras, problems: string[]) {
  const wanted = new Map(want.map((index) => [index.name, index]));
  const present = new Map(have.map((index) => [index.name, index]));
  for (const name of sortedUnion([...wanted.keys()], [...present.keys()])) {
    const w = wanted.get(name);
    const h = present.get(name);
    const kind = (w ?? h)?.unique ? "unique index" : "index";
    if (!h && w) problems.push(`${kind} ${quote(name)} (${describeIndex(table, w)}) is in ${SOURCE} but not in the database`);
    else if (!w && h && !allowed.indexes.includes(name)) {
      problems.push(`${kind} ${quote(name)} (${describeIndex(table, h)}) is in the database but neither in ${SOURCE} nor in ${LISTED}`);
    } else if (w && h && describeIndex(table, w) !== describeIndex(table, h)) {
      problems.push(`${kind} ${quote(name)}: ${SOURCE} says ${describeIndex(table, w)}, database has ${describeIndex(table, h)}`);
    }
  }
}

function requireSqlOnlyObjects(actual: SchemaDescription, allowed: AllowedExtras, problems: string[]) {
  const tables = Object.values(actual.tables);
  const checks = new Set(tables.flatMap((t) => t.checkConstraints));
  const indexes = new Set(tables.flatMap((t) => t.indexes.map((i) => i.name)));
  const triggers = new Set(allTriggers(actual).map((t) => t.name));
  for (const name of allowed.checkConstraints) {
    if (!checks.has(name)) problems.push(`check constraint ${quote(name)} listed in ${LISTED} is not in the database`);
  }
  for (const name of allowed.indexes) {
    if (!indexes.has(name)) problems.push(`index ${quote(name)} listed in ${LISTED} is not in the database`);
  }
  for (const name of allowed.triggers) {
    if (!triggers.has(name)) problems.push(`trigger ${quote(name)} listed in ${LISTED} is not in the database`);
  }
  for (const name of allowed.functions) {
    if (!actual.functions.includes(name)) problems.push(`function ${quote(name)} listed in ${LISTED} is not in the database`);
  }
}

function allTriggers(description: SchemaDescription) {
  return Object.values(description.tables).flatMap((t) => t.triggers);
}

function sortedUnion(a: string[], b: string[]): string[] {
  return [...new Set([...a, ...b])].sort();
}
