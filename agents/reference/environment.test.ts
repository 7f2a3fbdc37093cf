// Container limits from cgroup files (v2 and v1), and the environment every run carries.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { captureEnvironment, readCgroupLimits } from "./environment";

const dirs: string[] = [];
function cgroupRoot(files: Record<string, string>) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "cgroup-"));
  dirs.push(root);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("readCgroupLimits", () => {
  it("reads cgroup v2 limits", () => {
    expect(readCgroupLimits(cgroupRoot({ "cpu.max": "150000 100000\n", "memory.max": "2147483648\n" }))).toEqual({
      cpuLimit: 1.5,
      memoryLimitBytes: 2147483648,
    });
  });
  it("says nothing for cgroup v2 without limits", () => {
    expect(readCgroupLimits(cgroupRoot({ "cpu.max": "max 100000\n", "memory.max": "max\n" }))).toEqual({});
  });
  it("reads cgroup v1 limits and ignores v1's 'no limit' number", () => {
    expect(
      readCgroupLimits(
        cgroupRoot({ "cpu/cpu.cfs_quota_us": "100000", "cpu/cpu.cfs_period_us": "100000", "memory/memory.limit_in_bytes": "9223372036854771712" }),
      ),
    ).toEqual({ cpuLimit: 1 });
  });
  it("says nothing when there are no cgroup files", () => {
    expect(readCgroupLimits(cgroupRoot({}))).toEqual({});
  });
});

it("captures CPU, cores, memory, OS, kernel and Node", () => {
  const environment = captureEnvironment();
  expect(environment).toMatchObject({
    cores: expect.any(Number),
    memoryBytes: os.totalmem(),
    os: process.platform,
    kernel: os.release(),
    node: process.version,
  });
  expect(environment.cpuModel).toEqual(expect.any(String));
});
