// The OpenAPI document describes every REST route the app serves (found on disk, so a new route
// cannot be left out) with the errors it answers, and builds from the shared Zod schemas.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "./openapi";

const root = path.resolve(import.meta.dirname, "../..");

interface Operation {
  security?: Record<string, string[]>[];
  responses: Record<string, { description: string }>;
  requestBody?: unknown;
}

/** Every app/api/v1 route file as its URL path and the HTTP methods it exports. */
function routesOnDisk(): { path: string; methods: string[] }[] {
  const files = (fs.readdirSync(path.join(root, "app/api/v1"), { recursive: true }) as string[]).filter((file) => file.endsWith("route.ts"));
  return files
    .map((file) => {
      const source = fs.readFileSync(path.join(root, "app/api/v1", file), "utf8");
      const methods = [...source.matchAll(/export (?:const|function) (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => (m[1] as string).toLowerCase());
      const url = `/api/v1/${path.dirname(file).split(path.sep).join("/")}`.replace(/\[(\w+)\]/g, "{$1}");
      return { path: url, methods };
    })
    .filter((route) => route.path !== "/api/v1/openapi.json");
}

describe("the OpenAPI document", () => {
  const document = buildOpenApiDocument("http://versus.test") as unknown as {
    paths: Record<string, Record<string, Operation>>;
    components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
  };

  it("describes every REST route the app serves", () => {
    const routes = routesOnDisk();
    expect(routes.length).toBeGreaterThanOrEqual(10);
    for (const route of routes) {
      for (const method of route.methods) expect(document.paths[route.path]?.[method], `${method.toUpperCase()} ${route.path}`).toBeDefined();
    }
  });

  it("describes the agent protocol: its credentials, and for each call the errors it answers", () => {
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(["agentCredential", "apiKey", "enrollmentToken"]);
    const register = document.paths["/api/v1/agents/register"]?.post as Operation;
    expect(register.security).toEqual([{ enrollmentToken: [] }]);
    expect(Object.keys(register.responses).sort()).toEqual(["201", "400", "401", "409", "413", "415", "503"]);
    for (const action of ["lease", "complete", "fail", "release"]) {
      const operation = document.paths[`/api/v1/jobs/{id}/${action}`]?.post as Operation;
      expect(operation.security, action).toEqual([{ agentCredential: [] }]);
      expect(Object.keys(operation.responses), action).toEqual(expect.arrayContaining(["200", "400", "401", "404", "409", "503"]));
    }
    expect(Object.keys(document.paths["/api/v1/jobs/claim"]?.post?.responses ?? {}).sort()).toEqual(["200", "204", "400", "401", "503"]);
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(["ClaimedJob", "CompleteRequest", "FailRequest", "AgentRegister", "Heartbeat", "Error"]),
    );
  });

  it("documents complete's run without variant and repetition, which the job decides", () => {
    const schema = document.components.schemas.CompleteRequest as { properties: { run: { properties: Record<string, unknown> } } };
    const fields = Object.keys(schema.properties.run.properties);
    expect(fields).toEqual(expect.arrayContaining(["metrics", "environment", "startedAt"]));
    expect(fields).not.toContain("variant");
    expect(fields).not.toContain("repetition");
  });
});
