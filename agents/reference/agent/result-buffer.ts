// Reports (a run, or a failure) that the server has not acknowledged yet, one file per job on
// disk. A report is written before the first attempt to send it and removed once the server
// answered, so neither a server outage nor an agent restart loses a measured result.
import fs from "node:fs/promises";
import path from "node:path";
import type { FailRequest, RunReport } from "../api/protocol";

export type Report = { jobId: string; leaseToken: string; savedAt: string } & (
  { kind: "complete"; run: RunReport } | { kind: "fail"; fail: Omit<FailRequest, "leaseToken"> }
);

export class ResultBuffer {
  constructor(readonly dir: string) {}

  private file(jobId: string) {
    // Job ids are server-made (cuid); keep any other character out of the path anyway.
    return path.join(this.dir, `${jobId.replace(/[^A-Za-z0-9_-]/g, "_")}.json`);
  }

  async save(report: Report): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const target = this.file(report.jobId);
    const temporary = `${target}.${process.pid}.tmp`;
    const handle = await fs.open(temporary, "w", 0o600);
    try {
      await handle.writeFile(JSON.stringify(report));
      await handle.sync();
    } finally {
      await handle.close();
    }
    // rename is atomic: a crash leaves the old file or the new one, never half of one.
    await fs.rename(temporary, target);
  }

  async remove(jobId: string): Promise<void> {
    await fs.rm(this.file(jobId), { force: true });
  }

  /** Reports waiting to be sent, oldest first; unreadable files are set aside as `*.corrupt`. */
  async list(): Promise<{ reports: Report[]; corrupt: string[] }> {
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { reports: [], corrupt: [] };
      throw error;
    }
    const reports: Report[] = [];
    const corrupt: string[] = [];
    for (const name of names.filter((n) => n.endsWith(".json"))) {
      const file = path.join(this.dir, name);
      try {
        reports.push(JSON.parse(await fs.readFile(file, "utf8")) as Report);
      } catch {
        await fs.rename(file, `${file}.corrupt`);
        corrupt.push(name);
      }
    }
    reports.sort((a, b) => a.savedAt.localeCompare(b.savedAt));
    return { reports, corrupt };
  }
}
