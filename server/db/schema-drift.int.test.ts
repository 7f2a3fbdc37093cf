import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { actualSchemaFromDatabase, compareSchemas, expectedSchemaFromPrisma } from "./schema-drift";

const schemaText = fs.readFileSync(path.resolve(import.meta.dirname, "../../prisma/schema.prisma"), "utf8");

describe("schema.prisma and the migrated database", () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: inject("databaseUrl") });
    await client.connect();
  });
  afterAll(() => client.end());

  it("match", async () => {
    const actual = await actualSchemaFromDatabase(client);
    fs.writeFileSync("/tmp/probe/actual.json", JSON.stringify(actual, null, 1));
    fs.writeFileSync("/tmp/probe/expected.json", JSON.stringify(expectedSchemaFromPrisma(schemaText), null, 1));
    expect(compareSchemas(expectedSchemaFromPrisma(schemaText), actual)).toEqual([]);
  });
});
