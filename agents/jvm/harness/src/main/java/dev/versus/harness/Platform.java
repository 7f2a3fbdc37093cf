package dev.versus.harness;

import java.util.Locale;

/**
 * This machine's OS and architecture in Node's words (process.platform, process.arch), as the
 * TypeScript reference agent and the Go agent label themselves and fill "os"/"arch" of a run's
 * environment: a job pinned to arch=x64 runs on any of the three agents, and runs group alike.
 */
public final class Platform {
  private Platform() {}

  public static String os() {
    return nodePlatform(System.getProperty("os.name", ""));
  }

  public static String arch() {
    return nodeArch(System.getProperty("os.arch", ""));
  }

  static String nodePlatform(String osName) {
    String name = osName.toLowerCase(Locale.ROOT);
    if (name.startsWith("linux")) return "linux";
    if (name.startsWith("mac") || name.startsWith("darwin")) return "darwin";
    if (name.startsWith("windows")) return "win32";
    if (name.startsWith("freebsd")) return "freebsd";
    return name;
  }

  static String nodeArch(String osArch) {
    return switch (osArch) {
      case "amd64", "x86_64" -> "x64";
      case "aarch64" -> "arm64";
      case "x86", "i386", "i686" -> "ia32";
      default -> osArch;
    };
  }
}
