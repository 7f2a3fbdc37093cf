package dev.versus.agent;

import dev.versus.harness.Platform;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.agent.api.ApiClient;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The machine as register reports it (CPU, cores, memory, OS, JVM), with the reference agent's
 * keys. Each run carries its own, fuller capture from the harness.
 */
final class Environment {
  private Environment() {}

  static ObjectNode capture() {
    ObjectNode env = ApiClient.JSON.createObjectNode();
    String cpu = cpuModel();
    if (cpu != null) env.put("cpuModel", cpu);
    env.put("cores", Runtime.getRuntime().availableProcessors());
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      env.put("memoryBytes", os.getTotalMemorySize());
    }
    env.put("os", Platform.os());
    env.put("kernel", System.getProperty("os.version"));
    env.put("arch", Platform.arch());
    env.put("javaVendor", System.getProperty("java.vm.vendor"));
    env.put("javaVersion", System.getProperty("java.runtime.version"));
    return env;
  }

  private static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) return line.substring(line.indexOf(':') + 1).trim();
      }
    } catch (IOException | RuntimeException notLinux) {
      // other systems: leave it out
    }
    return null;
  }
}
