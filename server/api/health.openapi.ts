// GET /api/health in the OpenAPI document (openapi.ts collects it); the handler is health.ts.
import { z } from "zod";
import type { ZodOpenApiOperationObject } from "zod-openapi";

const ZHealth = z.object({
  status: z.enum(["ok", "degraded"]),
  app: z.object({ version: z.string(), uptimeSeconds: z.number() }),
  database: z.object({ status: z.enum(["ok", "unreachable"]), latencyMs: z.number().optional(), error: z.string().optional() }),
});

export const getHealthOperation: ZodOpenApiOperationObject = {
  summary: "Liveness and database reachability",
  security: [],
  responses: {
    "200": { description: "Up, database reachable", content: { "application/json": { schema: ZHealth } } },
    "503": { description: "Database unreachable", content: { "application/json": { schema: ZHealth } } },
  },
};
