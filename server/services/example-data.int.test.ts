// Example data is loaded once per installation: the first start creates the "examples" project
// with the S3 write-up, later starts leave it alone, and a user who deleted it keeps it deleted.
// The marker row in InstanceSetting is global and the database is shared with other test files,
// so every test starts by clearing the marker and any example project left behind.
import { afterAll, beforeEach, describe, expect, inject, it } from "vitest";
import { createPrismaClient, type Db } from "../db/client";
import { EXAMPLE_PROJECT_SLUG, loadExampleDataOnce } from "./example-data";

const MARKER = "exampleDataLoaded";
const S3_EXPERIMENT_SLUG = "s3-upload-plain-vs-gzip";

const db = createPrismaClient(inject("databaseUrl"));

afterAll(() => db.$disconnect());

/** As on a brand-new installation: no marker, no example project. */
async function resetToFreshInstallation() {
  await db.instanceSetting.deleteMany({ where: { key: MARKER } });
  await db.project.deleteMany({ where: { slug: EXAMPLE_PROJECT_SLUG } });
}

function findExampleProject() {
  return db.project.findUnique({
    where: { slug: EXAMPLE_PROJECT_SLUG },
    include: {
      experiments: {
        include: { variants: { orderBy: { position: "asc" } }, metrics: { orderBy: { position: "asc" } } },
      },
    },
  });
}

/** `db`, except that every transaction fails — as if the database went away mid-load. */
function withFailingTransactions(real: Db): Db {
  return new Proxy(real, {
    get(target, property, receiver) {
      if (property === "$transaction") return () => Promise.reject(new Error("connection lost"));
      return Reflect.get(target, property, receiver);
    },
  });
}

describe("loadExampleDataOnce", () => {
  beforeEach(resetToFreshInstallation);

  it('loads the examples on the first call, then answers "already-loaded"', async () => {
    expect(await loadExampleDataOnce(db)).toBe("loaded");
    expect(await loadExampleDataOnce(db)).toBe("already-loaded");

    const project = await findExampleProject();
    expect(project).toMatchObject({ slug: "examples", name: "Examples" });
    expect(project!.experiments).toHaveLength(1);
    const [s3] = project!.experiments;
    expect(s3).toMatchObject({ slug: S3_EXPERIMENT_SLUG, title: "S3 upload: plain vs gzip", isExample: true, status: "completed" });
    expect(s3!.variants.map((v) => [v.name, v.isBaseline])).toEqual([
      ["Plain", true],
      ["Gzip", false],
    ]);
    expect(s3!.metrics.map((m) => [m.key, m.unit, m.direction])).toEqual([
      ["upload_latency_ms", "ms", "lower_is_better"],
      ["payload_bytes", "B", "lower_is_better"],
    ]);
    expect(await db.instanceSetting.findUnique({ where: { key: MARKER } })).not.toBeNull();
  });

  it("does not bring the examples back after the user deleted them", async () => {
    expect(await loadExampleDataOnce(db)).toBe("loaded");
    await db.project.delete({ where: { slug: EXAMPLE_PROJECT_SLUG } });

    expect(await loadExampleDataOnce(db)).toBe("already-loaded");

    expect(await findExampleProject()).toBeNull();
  });

  it("loads once when two processes start together", async () => {
    const outcomes = await Promise.all([loadExampleDataOnce(db), loadExampleDataOnce(db)]);

    expect(outcomes.sort()).toEqual(["already-loaded", "loaded"]);
    expect((await findExampleProject())!.experiments).toHaveLength(1);
  });

  it("forgets the marker when loading fails, so the next start tries again", async () => {
    await expect(loadExampleDataOnce(withFailingTransactions(db))).rejects.toThrow("connection lost");
    expect(await db.instanceSetting.findUnique({ where: { key: MARKER } })).toBeNull();

    // The project got as far as being created; the retry reuses it rather than failing on its slug.
    expect(await loadExampleDataOnce(db)).toBe("loaded");

    const project = await findExampleProject();
    expect(project!.experiments.map((e) => [e.slug, e.isExample])).toEqual([[S3_EXPERIMENT_SLUG, true]]);
  });

  it("leaves example rows that already exist alone when the marker was lost", async () => {
    expect(await loadExampleDataOnce(db)).toBe("loaded");
    const before = await findExampleProject();
    await db.instanceSetting.delete({ where: { key: MARKER } });

    expect(await loadExampleDataOnce(db)).toBe("loaded");

    expect(await findExampleProject()).toEqual(before);
  });
});
