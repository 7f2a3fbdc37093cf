package dev.versus.harness;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.RuntimeMXBean;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The machine and JVM a run was measured on, captured in the JVM that measured (a fork has its
 * own flags). The machine's keys are the TypeScript reference agent's (agents/reference/
 * environment.ts: cpuModel, cores, memoryBytes, os, osRelease, kernel, arch, hostname,
 * loadAverage1m, cpuLimit, memoryLimitBytes; os and arch in Node's words, so runs of every agent
 * group alike); the JVM's are javaVendor, javaVersion, javaVmName, javaVmVersion, jvmArgs, gc and
 * maxHeapBytes.
 */
final class Environment {
  private Environment() {}

  static ObjectNode capture(ObjectMapper mapper, Path proc, Path cgroup) {
    ObjectNode env = mapper.createObjectNode();
    env.put("cpuModel", cpuModel(proc));
    env.put("cores", Runtime.getRuntime().availableProcessors());
    long memory = memTotal(proc);
    if (memory > 0) env.put("memoryBytes", memory);
    env.put("os", Platform.os());
    String release = read(proc.resolve("sys/kernel/version"));
    if (release != null) env.put("osRelease", release);
    env.put("kernel", System.getProperty("os.version", ""));
    env.put("arch", Platform.arch());
    try {
      env.put("hostname", InetAddress.getLocalHost().getHostName());
    } catch (IOException e) {
      // no name to record
    }
    double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    if (load >= 0) env.put("loadAverage1m", Math.round(load * 100) / 100.0);
    cgroupLimits(cgroup, env);

    RuntimeMXBean runtime = ManagementFactory.getRuntimeMXBean();
    env.put("javaVendor", System.getProperty("java.vendor", ""));
    env.put("javaVersion", System.getProperty("java.version", ""));
    env.put("javaVmName", runtime.getVmName());
    env.put("javaVmVersion", runtime.getVmVersion());
    env.set("jvmArgs", mapper.valueToTree(runtime.getInputArguments()));
    ArrayNode gcs = env.putArray("gc");
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) gcs.add(gc.getName());
    env.put("maxHeapBytes", Runtime.getRuntime().maxMemory());
    return env;
  }

  static ObjectNode capture(ObjectMapper mapper) {
    return capture(mapper, Path.of("/proc"), Path.of("/sys/fs/cgroup"));
  }

  /** The first "model name" of /proc/cpuinfo (x86), else "Hardware"/"Processor" (ARM), else os.arch. */
  static String cpuModel(Path proc) {
    String info = read(proc.resolve("cpuinfo"));
    if (info != null) {
      for (String key : new String[] {"model name", "Hardware", "Processor", "cpu model"}) {
        for (String line : info.split("\n")) {
          int colon = line.indexOf(':');
          if (colon > 0 && line.substring(0, colon).trim().equals(key) && !line.substring(colon + 1).isBlank()) {
            return line.substring(colon + 1).trim();
          }
        }
      }
    }
    return "unknown";
  }

  static long memTotal(Path proc) {
    String info = read(proc.resolve("meminfo"));
    if (info == null) return -1;
    for (String line : info.split("\n")) {
      if (line.startsWith("MemTotal:")) {
        String[] parts = line.substring(9).trim().split("\\s+");
        try {
          return Long.parseLong(parts[0]) * 1024;
        } catch (NumberFormatException e) {
          return -1;
        }
      }
    }
    return -1;
  }

  /** cgroup v2 (cpu.max, memory.max), else v1 (cfs quota, memory.limit_in_bytes), as the reference agent reads them. */
  static void cgroupLimits(Path root, ObjectNode env) {
    String cpuMax = read(root.resolve("cpu.max"));
    try {
      if (cpuMax != null) {
        String[] parts = cpuMax.split("\\s+");
        if (parts.length == 2 && !parts[0].equals("max")) env.put("cpuLimit", Double.parseDouble(parts[0]) / Double.parseDouble(parts[1]));
      } else {
        String quota = read(root.resolve("cpu/cpu.cfs_quota_us"));
        String period = read(root.resolve("cpu/cpu.cfs_period_us"));
        if (quota != null && period != null && Double.parseDouble(quota) > 0 && Double.parseDouble(period) > 0) {
          env.put("cpuLimit", Double.parseDouble(quota) / Double.parseDouble(period));
        }
      }
      String memoryMax = read(root.resolve("memory.max"));
      if (memoryMax == null) memoryMax = read(root.resolve("memory/memory.limit_in_bytes"));
      // cgroup v1 writes "no limit" as a huge number near 2^63.
      if (memoryMax != null && !memoryMax.equals("max")) {
        double memory = Double.parseDouble(memoryMax);
        if (memory < Math.pow(2, 60)) env.put("memoryLimitBytes", (long) memory);
      }
    } catch (NumberFormatException e) {
      // unreadable limits are left out
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file).trim();
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
