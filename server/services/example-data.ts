// Example data loaded on first start, labelled as such and easy to delete (delete the project).
// Loaded once per installation: a marker in InstanceSetting keeps deleted examples deleted.
import type { Db } from "../db/client";
import { isUniqueViolation } from "../db/prisma-errors";
import { ZExperimentInput } from "../schemas/experiment";
import { createExperiment } from "./experiments";
import { createProject } from "./projects";

const MARKER = "exampleDataLoaded";
export const EXAMPLE_PROJECT_SLUG = "examples";

/** The S3 upload write-up (../shared/EXAMPLES.md §1): plain vs gzip on two payloads. */
const s3Upload = ZExperimentInput.parse({
  title: "S3 upload: plain vs gzip",
  slug: "s3-upload-plain-vs-gzip",
  hypothesis: "Gzipping text payloads before PutObject makes uploads faster because fewer bytes cross the network.",
  description:
    "Spring Batch writer uploading notification payloads to S3. Each combination uploads the payload " +
    "20 times to warm up, then 100 measured times; latency is end to end (gzip + PutObject).\n\n" +
    "The authors concluded there was **no speed gain** — the fixed cost is auth and network round-trips, " +
    "not payload size — but large byte savings for text.",
  environmentNotes: "AWS ap-northeast-2, container limited to 1 vCPU / 2 GB",
  status: "completed",
  parameters: [
    { name: "payloads", value: "email.html (~50 KB), sms.txt (~80 B)" },
    { name: "uploads per run", value: "100 measured after 20 warm-up" },
  ],
  warmupRuns: 0,
  measuredRuns: 1,
  tags: ["s3", "gzip", "example"],
  variants: [
    { name: "Plain", description: "PutObject of the raw payload", isBaseline: true },
    { name: "Gzip", description: "gzip, then PutObject", isBaseline: false },
  ],
  metrics: [
    { key: "upload_latency_ms", label: "Upload latency", unit: "ms", direction: "lower_is_better", aggregation: "mean" },
    { key: "payload_bytes", label: "Payload size", unit: "B", direction: "lower_is_better", aggregation: "mean" },
  ],
});

export async function loadExampleDataOnce(db: Db): Promise<"loaded" | "already-loaded"> {
  // The marker row doubles as a lock: of two processes starting at once, one inserts it.
  try {
    await db.instanceSetting.create({ data: { key: MARKER, value: { at: new Date().toISOString() } } });
  } catch (error) {
    if (isUniqueViolation(error)) return "already-loaded";
    throw error;
  }
  try {
    await loadExamples(db);
  } catch (error) {
    await db.instanceSetting.delete({ where: { key: MARKER } });
    throw error;
  }
  return "loaded";
}

async function loadExamples(db: Db) {
  const project =
    (await db.project.findUnique({ where: { slug: EXAMPLE_PROJECT_SLUG } })) ??
    (await createProject(db, {
      name: "Examples",
      slug: EXAMPLE_PROJECT_SLUG,
      description: "Example data from published performance write-ups. Delete this project any time.",
    }));
  const existing = await db.experiment.findUnique({ where: { projectId_slug: { projectId: project.id, slug: s3Upload.slug as string } } });
  if (!existing) await createExperiment(db, project.slug, s3Upload, { isExample: true });
}
