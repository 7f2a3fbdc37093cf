package dev.versus.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** Plugin jars the tests compile: real classes and a services file, as a user's plugin has. */
final class TestPluginJars {
  private TestPluginJars() {}

  /**
   * Compiles sources (class name → body) under work and writes them, plus a services file, into
   * pluginsDir/name.jar.
   */
  static Path jar(Path work, Path pluginsDir, String name, Map<String, String> sources, String services) throws IOException {
    Path src = Files.createDirectories(work.resolve("src-" + name));
    Path classes = Files.createDirectories(work.resolve("classes-" + name));
    List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-cp", System.getProperty("java.class.path"), "--release", "17", "-nowarn"));
    for (Map.Entry<String, String> source : sources.entrySet()) {
      Path file = src.resolve(source.getKey().replace('.', '/') + ".java");
      Files.createDirectories(file.getParent());
      Files.writeString(file, source.getValue());
      args.add(file.toString());
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (!sources.isEmpty()) assertEquals(0, javac.run(null, null, null, args.toArray(String[]::new)), "the test plugin compiles");
    Path jar = Files.createDirectories(pluginsDir).resolve(name + ".jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar)); Stream<Path> files = Files.walk(classes)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        out.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
        out.write(Files.readAllBytes(file));
      }
      if (services != null) {
        out.putNextEntry(new JarEntry("META-INF/services/dev.versus.workload.Workload"));
        out.write(services.getBytes(StandardCharsets.UTF_8));
      }
    }
    return jar;
  }

  /** The source of a workload class named name whose constructor runs constructorBody. */
  static String workload(String pkg, String cls, String name, String constructorBody) {
    return "package " + pkg + ";\n"
        + "public class " + cls + " implements dev.versus.workload.Workload {\n"
        + "  public " + cls + "() { " + constructorBody + " }\n"
        + "  public String name() { return \"" + name + "\"; }\n"
        + "  public String description() { return \"test plugin\"; }\n"
        + "  public String settingsSchema() { return \"{\\\"type\\\":\\\"object\\\"}\"; }\n"
        + "  public dev.versus.workload.Benchmark prepare(com.fasterxml.jackson.databind.JsonNode s) { return bh -> bh.consume(1); }\n"
        + "}\n";
  }
}
