// A project of its own for a test that stores uploads through ingestResults directly: a new owner,
// a project named `<prefix>-<random>`, and the ingest options of an upload to it (no
// Idempotency-Key, links on http://test.local).
import crypto from "node:crypto";
import type { Db } from "../server/db/client";
import { createProject } from "../server/projects/projects";
import type { IngestOptions } from "../server/runs/ingest-results";
import { signedInUser } from "./signed-in";

export async function uploadProject(db: Db, prefix: string): Promise<IngestOptions> {
  const owner = await signedInUser(db, prefix);
  const slug = `${prefix}-${crypto.randomBytes(4).toString("hex")}`;
  const project = await createProject(db, { name: slug, slug, description: "" }, owner.id);
  return { projectId: project.id, projectSlug: slug, source: "upload", bodySha256: "", baseUrl: "http://test.local" };
}
