// What the machine looked like when a run was measured: CPU, cores, memory, OS, kernel, Node,
// and the container's CPU and memory limits when the cgroup files can be read (a benchmark in a
// container limited to one CPU on a 64-core host measures the limit, not the host).
import fs from "node:fs";
import os from "node:os";

export interface CgroupLimits {
  /** CPUs the cgroup may use (quota / period), when limited. */
  cpuLimit?: number;
  memoryLimitBytes?: number;
}

function read(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    return undefined;
  }
}

/** cgroup v2 (cpu.max, memory.max), else v1 (cfs quota, memory.limit_in_bytes). */
export function readCgroupLimits(root = "/sys/fs/cgroup"): CgroupLimits {
  const limits: CgroupLimits = {};
  const cpuMax = read(`${root}/cpu.max`);
  if (cpuMax) {
    const [quota, period] = cpuMax.split(/\s+/);
    if (quota && quota !== "max" && period) limits.cpuLimit = Number(quota) / Number(period);
  } else {
    const quota = Number(read(`${root}/cpu/cpu.cfs_quota_us`));
    const period = Number(read(`${root}/cpu/cpu.cfs_period_us`));
    if (quota > 0 && period > 0) limits.cpuLimit = quota / period;
  }
  const memoryMax = read(`${root}/memory.max`) ?? read(`${root}/memory/memory.limit_in_bytes`);
  const memory = Number(memoryMax);
  // cgroup v1 writes "no limit" as a huge number near 2^63.
  if (memoryMax && memoryMax !== "max" && Number.isFinite(memory) && memory < 2 ** 60) limits.memoryLimitBytes = memory;
  return limits;
}

export function captureEnvironment(): Record<string, unknown> {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    cores: os.availableParallelism(),
    memoryBytes: os.totalmem(),
    os: process.platform,
    osRelease: os.version(),
    kernel: os.release(),
    arch: process.arch,
    hostname: os.hostname(),
    node: process.version,
    loadAverage1m: Math.round(os.loadavg()[0]! * 100) / 100,
    ...readCgroupLimits(),
  };
}
