// tRPC procedures take the same hostile input as the REST API: text PostgreSQL cannot hold and
// nesting beyond any real input are bad input (BAD_REQUEST naming the field), in every procedure,
// never an INTERNAL_SERVER_ERROR from the database. Real sessions on a real, migrated PostgreSQL.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { appRouter, createCaller } from "~/server/api/root";
import { db } from "~/server/db/client";
import { INT4_MAX, INT4_MIN } from "~/server/schemas/common";
import { anonymousCaller, signedInUser, type TestUser } from "~/test/signed-in";
import { expectTRPCError, fieldIssuesOfError } from "~/test/trpc-errors";

afterAll(() => db.$disconnect());

const suffix = () => crypto.randomBytes(4).toString("hex");
const paths = (issues: { path: (string | number)[] }[]) => issues.map((issue) => issue.path.join("."));

let owner: TestUser;
let projectSlug: string;

beforeAll(async () => {
  owner = await signedInUser(db, "owner");
  projectSlug = `trpc-input-${suffix()}`;
  await owner.caller.project.create({ name: "tRPC input", slug: projectSlug, description: "" });
});

function experiment(extra: Record<string, unknown> = {}) {
  return {
    title: "Plain vs gzip",
    slug: `exp-${suffix()}`,
    warmupRuns: 0,
    measuredRuns: 5,
    variants: [
      { name: "plain", isBaseline: true },
      { name: "gzip", isBaseline: false },
    ],
    metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better" as const }],
    ...extra,
  };
}

describe("tRPC: values PostgreSQL cannot hold are BAD_REQUEST naming the field", () => {
  it("a NUL in a project's name or an experiment's description", async () => {
    const project = await expectTRPCError(owner.caller.project.create({ name: "a\u0000b", slug: `nul-${suffix()}`, description: "" }), "BAD_REQUEST");
    expect(paths(fieldIssuesOfError(project))).toEqual(["name"]);
    const described = await expectTRPCError(
      owner.caller.experiment.create({ projectSlug, experiment: experiment({ description: "before\u0000after" }) }),
      "BAD_REQUEST",
    );
    expect(paths(fieldIssuesOfError(described))).toEqual(["experiment.description"]);
    expect(described.message).toContain("NUL");
  });

  it("a lone surrogate in a variant's free-form config, and a NUL in one of its keys", async () => {
    const variants = [
      { name: "plain", isBaseline: true, config: { note: "x\ud800y", "k\u0000": 1 } },
      { name: "gzip", isBaseline: false },
    ];
    const error = await expectTRPCError(owner.caller.experiment.create({ projectSlug, experiment: experiment({ variants }) }), "BAD_REQUEST");
    expect(paths(fieldIssuesOfError(error))).toEqual(["experiment.variants.0.config.note", "experiment.variants.0.config.k\u0000"]);
  });

  it("a variant config 4,000 levels deep → BAD_REQUEST naming the limit, and nothing is created", async () => {
    let deep: object = { leaf: 1 };
    for (let i = 0; i < 4000; i++) deep = { inner: deep };
    const before = await db.experiment.count();
    const variants = [
      { name: "plain", isBaseline: true, config: deep },
      { name: "gzip", isBaseline: false },
    ];
    const error = await expectTRPCError(owner.caller.experiment.create({ projectSlug, experiment: experiment({ variants }) }), "BAD_REQUEST");
    expect(error.message).toContain("nested deeper than 32 levels");
    expect(await db.experiment.count()).toBe(before);
  });

  it("every procedure refuses a NUL in its input before anything else, signed in or not", async () => {
    const procedures = Object.keys(appRouter._def.procedures).sort();
    expect(procedures.length).toBeGreaterThan(30);
    for (const caller of [anonymousCaller(db), createCaller(() => ({ db, headers: owner.headers(), user: null }))]) {
      for (const path of procedures) {
        const call = path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (input: unknown) => Promise<unknown>;
        const error = await expectTRPCError(call({ projectSlug: "x\u0000y", token: "t\u0000" }), "BAD_REQUEST");
        expect(paths(fieldIssuesOfError(error)), path).toEqual(["projectSlug", "token"]);
      }
    }
  });
});

describe("tRPC: integers fit the columns they are stored in", () => {
  it("every integer in every procedure's input has a minimum and a maximum within int4", () => {
    const integers: { path: string; minimum?: number; maximum?: number }[] = [];
    const walk = (schema: Record<string, unknown>, path: string) => {
      if (schema.type === "integer") integers.push({ path, minimum: schema.minimum as number | undefined, maximum: schema.maximum as number | undefined });
      for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Record<string, unknown>>)) walk(property, `${path}.${name}`);
      if (schema.items) walk(schema.items as Record<string, unknown>, `${path}[]`);
      for (const part of [...((schema.anyOf ?? []) as Record<string, unknown>[]), ...((schema.allOf ?? []) as Record<string, unknown>[])]) walk(part, path);
    };
    for (const [name, procedure] of Object.entries(appRouter._def.procedures)) {
      const inputs = (procedure as unknown as { _def: { inputs: z.ZodType[] } })._def.inputs;
      for (const input of inputs) walk(z.toJSONSchema(input, { io: "input", unrepresentable: "any" }) as Record<string, unknown>, name);
    }
    expect(integers.map((i) => i.path)).toContain("experiment.create.experiment.warmupRuns");
    for (const { path, minimum, maximum } of integers) {
      expect(minimum, path).toBeGreaterThanOrEqual(INT4_MIN);
      expect(maximum, path).toBeLessThanOrEqual(INT4_MAX);
    }
  });
});
