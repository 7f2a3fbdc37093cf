// What `versus upload`, `import` and `run -- <command>` share: the Idempotency-Key of a file
// upload, an import's query, and the summary of what the server stored.
import crypto from "node:crypto";
import fs from "node:fs";

/** Same file and options → same key, so re-running a CI step never stores results twice. */
export function idempotencyKey(file: string, extra: string): string {
  const hash = crypto.createHash("sha256");
  hash.update(fs.readFileSync(file));
  hash.update(extra);
  return `cli-${hash.digest("hex").slice(0, 40)}`;
}

export function report(body: unknown) {
  const result = body as {
    experiment: { url: string };
    runs: { variant: string }[];
    replayed: boolean;
    created: { experiment: boolean; variants: string[]; metrics: string[] };
  };
  const variants = [...new Set(result.runs.map((r) => r.variant))];
  console.error(`${result.replayed ? "already stored earlier" : "stored"}: ${result.runs.length} run(s) of ${variants.map((v) => `"${v}"`).join(", ")}`);
  if (result.created.experiment) console.error("created the experiment");
  if (result.created.variants.length) console.error(`created variants: ${result.created.variants.join(", ")}`);
  if (result.created.metrics.length) console.error(`created metrics: ${result.created.metrics.join(", ")}`);
  console.log(result.experiment.url);
}

/** Where imported runs go and what they were measured at (`versus import`'s and `run -- <command>`'s flags). */
export interface ImportOptions {
  experiment: string;
  variant?: string;
  split?: string;
  create: boolean;
  commit?: string;
  branch?: string;
  commitMessage?: string;
  commitTime?: string;
}

/** The query of POST /api/v1/imports. */
export function importQuery(options: ImportOptions & { format: string }): URLSearchParams {
  const query = new URLSearchParams({ format: options.format, experiment: options.experiment });
  if (options.variant) query.set("variant", options.variant);
  if (options.split) query.set("split", options.split);
  if (options.create) query.set("create", "true");
  if (options.commit) query.set("commit", options.commit);
  if (options.branch) query.set("branch", options.branch);
  if (options.commitMessage) query.set("commitMessage", options.commitMessage);
  if (options.commitTime) query.set("commitTime", options.commitTime);
  return query;
}
