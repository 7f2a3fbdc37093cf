// The drift check is only worth having if it fails on drift. Here both sides come from
// schema.prisma, one of them edited, so each kind of difference can be shown without a database.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compareSchemas, expectedSchemaFromPrisma, NO_EXTRAS, type SchemaDescription } from "./schema-drift";
import { sqlOnlyObjects } from "./sql-only-objects";

const schemaText = fs.readFileSync(path.resolve(import.meta.dirname, "../../prisma/schema.prisma"), "utf8");
// Parsed once; each test edits its own copy.
const unedited = expectedSchemaFromPrisma(schemaText);
const database = () => structuredClone(unedited);

/** schema.prisma with `from` replaced by `to` inside `model <name> { … }` only. */
function editModel(model: string, from: string | RegExp, to: string): string {
  const block = new RegExp(`model ${model} \\{[\\s\\S]*?\\n\\}`).exec(schemaText)?.[0];
  if (!block) throw new Error(`no model ${model} in schema.prisma`);
  const edited = block.replace(from, to);
  if (edited === block) throw new Error(`${String(from)} not found in model ${model}`);
  return schemaText.replace(block, edited);
}

const drift = (schema: string, actual: SchemaDescription = database()) => compareSchemas(expectedSchemaFromPrisma(schema), actual, NO_EXTRAS);

describe("compareSchemas", () => {
  it("finds nothing when both sides are the same schema", () => {
    expect(drift(schemaText)).toEqual([]);
  });

  it("reports a field the database lacks", () => {
    expect(drift(editModel("Project", "model Project {", "model Project {\n  foo String"))).toEqual([
      'column "Project"."foo" is in schema.prisma but not in the database',
    ]);
  });

  it("reports a column the schema lacks", () => {
    const actual = database();
    actual.tables.Project!.columns.foo = { type: "text", notNull: false };
    expect(drift(schemaText, actual)).toEqual(['column "Project"."foo" is in the database but not in schema.prisma']);
  });

  it("reports changed nullability", () => {
    expect(drift(editModel("Run", /gitCommit(\s+)String\?/, "gitCommit$1String"))).toEqual([
      'column "Run"."gitCommit": schema.prisma says text NOT NULL, database has text NULL',
    ]);
  });

  it("reports a changed type, native types included", () => {
    expect(drift(editModel("Experiment", /alpha(\s+)Float/, "alpha$1Decimal"))).toEqual([
      'column "Experiment"."alpha": schema.prisma says numeric(65,30) NOT NULL, database has double precision NOT NULL',
    ]);
    expect(drift(editModel("Member", /userId(\s+)String/, "userId$1String @db.VarChar(30)"))).toEqual([
      'column "Member"."userId": schema.prisma says character varying(30) NOT NULL, database has text NOT NULL',
    ]);
  });

  it("reports a missing table and a missing enum value", () => {
    const extraModel = `${schemaText}\nmodel Extra {\n  id String @id\n}\n`;
    expect(drift(extraModel)).toEqual(['table "Extra" is in schema.prisma but not in the database']);
    const extraValue = schemaText.replace("enum ShareMode {\n  live\n  snapshot\n", "enum ShareMode {\n  live\n  snapshot\n  embed\n");
    expect(drift(extraValue)).toEqual([`enum "ShareMode": schema.prisma says ('live', 'snapshot', 'embed'), database has ('live', 'snapshot')`]);
  });

  it("reports an index the database lacks", () => {
    const actual = expectedSchemaFromPrisma(editModel("Run", "@@index([experimentId, gitCommit])", ""));
    expect(drift(schemaText, actual)).toEqual([
      'index "Run_experimentId_gitCommit_idx" (INDEX ON "Run" USING btree ("experimentId", "gitCommit")) is in schema.prisma but not in the database',
    ]);
  });

  it("reports a unique constraint the database lacks, and one it has beyond the schema", () => {
    const withoutUnique = editModel("Agent", "@@unique([projectId, name])", "");
    expect(drift(schemaText, expectedSchemaFromPrisma(withoutUnique))).toEqual([
      'unique index "Agent_projectId_name_key" (UNIQUE INDEX ON "Agent" USING btree ("projectId", "name")) is in schema.prisma but not in the database',
    ]);
    expect(drift(withoutUnique)).toEqual([
      'unique index "Agent_projectId_name_key" (UNIQUE INDEX ON "Agent" USING btree ("projectId", "name")) is in the database but neither in schema.prisma nor in server/db/sql-only-objects.ts',
    ]);
  });

  it("reports a changed column order or sort direction in an index", () => {
    expect(drift(editModel("Experiment", "updatedAt(sort: Desc)", "updatedAt"))).toEqual([
      'index "Experiment_projectId_updatedAt_idx": schema.prisma says INDEX ON "Experiment" USING btree ("projectId", "updatedAt"), ' +
        'database has INDEX ON "Experiment" USING btree ("projectId", "updatedAt" DESC)',
    ]);
  });

  it("reports a changed onDelete, and applies Prisma's default when none is given", () => {
    expect(drift(editModel("Run", "references: [id], onDelete: SetNull", "references: [id], onDelete: Cascade"))).toEqual([
      'foreign key "Run"("ingestRequestId") → "IngestRequest"("id"): schema.prisma says ON DELETE CASCADE ON UPDATE CASCADE, ' +
        "database has ON DELETE SET NULL ON UPDATE CASCADE",
    ]);
    // A required relation without onDelete means Restrict.
    expect(drift(editModel("Member", "references: [id], onDelete: Cascade)\n  user", "references: [id])\n  user"))).toEqual([
      'foreign key "Member"("projectId") → "Project"("id"): schema.prisma says ON DELETE RESTRICT ON UPDATE CASCADE, ' +
        "database has ON DELETE CASCADE ON UPDATE CASCADE",
    ]);
  });

  it("reports a missing foreign key and a changed primary key", () => {
    const actual = database();
    actual.tables.Job!.foreignKeys = actual.tables.Job!.foreignKeys.filter((fk) => fk.columns.join() !== "agentId");
    actual.tables.User!.primaryKey = { name: "User_pkey", columns: ["email"] };
    expect(drift(schemaText, actual)).toEqual([
      'foreign key "Job"("agentId") → "Agent"("id") is in schema.prisma but not in the database',
      'primary key of "User": schema.prisma says "User_pkey" ("id"), database has "User_pkey" ("email")',
    ]);
  });

  it("compares defaults when the expected side knows them (database against database)", () => {
    const expected = database();
    const actual = database();
    expected.tables.Job!.columns.maxAttempts!.default = "3";
    actual.tables.Job!.columns.maxAttempts!.default = "5";
    expect(compareSchemas(expected, actual, NO_EXTRAS)).toEqual([
      'column "Job"."maxAttempts": schema.prisma says integer NOT NULL DEFAULT 3, database has integer NOT NULL DEFAULT 5',
    ]);
  });
});

describe("compareSchemas and the SQL-only objects", () => {
  /** The schema's description plus the hand-written objects the migrations add. */
  function withSqlOnlyObjects(): SchemaDescription {
    const actual = database();
    const experiment = actual.tables.Experiment!;
    const variant = actual.tables.Variant!;
    for (const name of sqlOnlyObjects.checkConstraints) experiment.checkConstraints.push(name);
    variant.indexes.push({
      name: "Variant_one_baseline_per_experiment",
      unique: true,
      method: "btree",
      columns: [{ name: "experimentId", order: "" }],
      included: [],
      predicate: '"isBaseline"',
    });
    experiment.triggers.push({ name: "Experiment_exactly_one_baseline", function: "versus_require_baseline" });
    variant.triggers.push({ name: "Variant_exactly_one_baseline", function: "versus_require_baseline" });
    actual.functions.push("versus_require_baseline");
    // Variant.runsVersion's triggers (stored histories' staleness marker).
    for (const event of ["inserted", "updated", "deleted"]) {
      actual.tables.Run!.triggers.push({ name: `Run_${event}_touch_runs_version`, function: "versus_touch_runs_version" });
      actual.tables.RunMetricResult!.triggers.push({ name: `RunMetricResult_${event}_touch_runs_version`, function: "versus_touch_runs_version_of_results" });
      actual.tables.RunTimeSeries!.triggers.push({ name: `RunTimeSeries_${event}_touch_runs_version`, function: "versus_touch_runs_version_of_results" });
    }
    actual.functions.push("versus_touch_runs_version", "versus_touch_runs_version_of_results");
    // The "runs stored" marks wake the background workers.
    actual.tables.RunsStoredTask!.triggers.push({ name: "RunsStoredTask_inserted_notify", function: "notify_runs_stored" });
    actual.functions.push("notify_runs_stored");
    // A change of what an API key grants makes every process forget it.
    actual.tables.ApiKey!.triggers.push({ name: "ApiKey_changed_notify", function: "notify_api_key_changed" });
    actual.tables.Project!.triggers.push({ name: "Project_slug_changed_notify", function: "notify_project_slug_changed" });
    actual.functions.push("notify_api_key_changed", "notify_project_slug_changed");
    actual.functions.push("versus_highest_repetition");
    // Experiment.definitionVersion's triggers (a process's kept copy of an experiment is checked against it).
    actual.tables.Variant!.triggers.push({ name: "Variant_changed_definition_version", function: "versus_touch_definition_version" });
    actual.tables.Metric!.triggers.push({ name: "Metric_changed_definition_version", function: "versus_touch_definition_version" });
    actual.functions.push("versus_touch_definition_version");
    actual.tables.Job!.indexes.push({
      name: "Job_claimable",
      unique: false,
      method: "btree",
      columns: ["projectId", "createdAt", "batchId", "position"].map((name) => ({ name, order: "" })),
      included: [],
      predicate: '"status" = ANY (ARRAY[\'queued\'::"JobStatus", \'leased\'::"JobStatus"])',
    });
    actual.tables.Job!.indexes.push({
      name: "Job_leased",
      unique: false,
      method: "btree",
      columns: ["projectId", "leaseExpiresAt"].map((name) => ({ name, order: "" })),
      included: [],
      predicate: '"status" = \'leased\'::"JobStatus"',
    });
    actual.tables.RunMetricResult!.indexes.push({
      name: "RunMetricResult_scaled",
      unique: false,
      method: "btree",
      columns: [{ name: "metricId", order: "" }],
      included: [],
      predicate: '"histogramScale" IS NOT NULL',
    });
    return actual;
  }

  it("accepts the listed objects, and the functions their triggers run", () => {
    expect(compareSchemas(database(), withSqlOnlyObjects())).toEqual([]);
  });

  it("requires every listed object to exist", () => {
    const actual = withSqlOnlyObjects();
    actual.tables.Experiment!.checkConstraints = actual.tables.Experiment!.checkConstraints.filter((c) => c !== "Experiment_run_counts_valid");
    actual.tables.Variant!.indexes = actual.tables.Variant!.indexes.filter((i) => !i.predicate);
    actual.tables.Variant!.triggers = actual.tables.Variant!.triggers.filter((t) => t.name !== "Variant_exactly_one_baseline");
    actual.functions = actual.functions.filter((f) => f !== "versus_highest_repetition");
    expect(compareSchemas(database(), actual)).toEqual([
      'check constraint "Experiment_run_counts_valid" listed in server/db/sql-only-objects.ts is not in the database',
      'index "Variant_one_baseline_per_experiment" listed in server/db/sql-only-objects.ts is not in the database',
      'trigger "Variant_exactly_one_baseline" listed in server/db/sql-only-objects.ts is not in the database',
      'function "versus_highest_repetition" listed in server/db/sql-only-objects.ts is not in the database',
    ]);
  });

  it("refuses unlisted extras: check constraints, indexes, triggers, functions, views", () => {
    const actual = withSqlOnlyObjects();
    actual.tables.Run!.checkConstraints.push("Run_repetition_positive");
    actual.tables.Run!.indexes.push({
      name: "Run_gitBranch_idx",
      unique: false,
      method: "btree",
      columns: [{ name: "gitBranch", order: "" }],
      included: [],
      predicate: null,
    });
    actual.tables.Run!.triggers.push({ name: "Run_touch", function: "touch" });
    actual.functions.push("touch");
    actual.otherRelations.push('view "RunSummary"');
    expect(compareSchemas(database(), actual)).toEqual([
      'index "Run_gitBranch_idx" (INDEX ON "Run" USING btree ("gitBranch")) is in the database but neither in schema.prisma nor in server/db/sql-only-objects.ts',
      'check constraint "Run_repetition_positive" on "Run" is in the database but neither in schema.prisma nor in server/db/sql-only-objects.ts',
      'trigger "Run_touch" on "Run" is in the database but neither in schema.prisma nor in server/db/sql-only-objects.ts',
      'view "RunSummary" is in the database but not in schema.prisma',
      'function "touch" is in the database but neither in schema.prisma nor listed in server/db/sql-only-objects.ts (itself or a trigger running it)',
    ]);
  });
});
