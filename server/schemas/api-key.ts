import { z } from "zod";
import { ZSlug } from "./common";

/** What a key may do: upload results and read (the default, and every key made before scopes), or also start and cancel runs. */
export const apiKeyScopes = ["upload", "run"] as const;
export const ZApiKeyScope = z.enum(apiKeyScopes, { error: `scope must be one of ${apiKeyScopes.join(", ")}` });
export type TApiKeyScope = z.output<typeof ZApiKeyScope>;

export const ZCreateApiKey = z.object({
  projectSlug: ZSlug,
  scope: ZApiKeyScope.default("upload"),
  name: z.string({ error: "name is required" }).trim().min(1, "name is required").max(100, "name must be at most 100 characters"),
});

export const ZRevokeApiKey = z.object({ projectSlug: ZSlug, keyId: z.string().min(1) });
