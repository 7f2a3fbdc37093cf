package dev.versus.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.agent.api.ApiClient;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reports (a run, or a failure) the server has not acknowledged yet, one file per job, in the
 * reference agent's format ({@code {jobId, leaseToken, savedAt, kind: "complete", run}} or
 * {@code kind: "fail", fail: {error, logTail, retryable, cancelled}}). A report is written before
 * the first attempt to send it and removed once the server answered, so neither a server outage
 * nor an agent restart loses a measured result.
 */
public final class ResultBuffer {
  private final Path dir;

  public ResultBuffer(Path dir) {
    this.dir = dir;
  }

  public Path dir() {
    return dir;
  }

  /** A report of a run. */
  public static ObjectNode complete(String jobId, String leaseToken, JsonNode run) {
    ObjectNode report = header(jobId, leaseToken, "complete");
    report.set("run", run);
    return report;
  }

  /** A report of a failure; logTail may be null. */
  public static ObjectNode fail(String jobId, String leaseToken, String error, String logTail, boolean retryable, boolean cancelled) {
    ObjectNode report = header(jobId, leaseToken, "fail");
    ObjectNode fail = report.putObject("fail").put("error", error.length() > 2000 ? error.substring(0, 2000) : error);
    if (logTail != null && !logTail.isEmpty()) fail.put("logTail", logTail);
    fail.put("retryable", retryable).put("cancelled", cancelled);
    return report;
  }

  private static ObjectNode header(String jobId, String leaseToken, String kind) {
    return ApiClient.JSON.createObjectNode().put("jobId", jobId).put("leaseToken", leaseToken).put("savedAt", Instant.now().toString()).put("kind", kind);
  }

  private Path file(String jobId) {
    // Job ids are server-made (cuid); keep any other character out of the path anyway.
    return dir.resolve(jobId.replaceAll("[^A-Za-z0-9_-]", "_") + ".json");
  }

  public void save(ObjectNode report) throws IOException {
    Files.createDirectories(dir);
    Path target = file(report.path("jobId").asText());
    Path temporary = dir.resolve(target.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
    try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
      channel.write(ByteBuffer.wrap(ApiClient.JSON.writeValueAsBytes(report)));
      channel.force(true);
    }
    CredentialStore.ownerOnly(temporary);
    CredentialStore.moveAtomically(temporary, target);
  }

  public void remove(String jobId) throws IOException {
    Files.deleteIfExists(file(jobId));
  }

  /** What list() found: reports oldest first, and the names of unreadable files set aside as *.corrupt. */
  public record Listing(List<ObjectNode> reports, List<String> corrupt) {}

  public Listing list() throws IOException {
    List<ObjectNode> reports = new ArrayList<>();
    List<String> corrupt = new ArrayList<>();
    if (!Files.isDirectory(dir)) return new Listing(reports, corrupt);
    List<Path> files;
    try (Stream<Path> entries = Files.list(dir)) {
      files = entries.filter(path -> path.getFileName().toString().endsWith(".json")).toList();
    }
    for (Path file : files) {
      try {
        JsonNode report = ApiClient.JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
        if (report == null || !report.isObject() || !report.path("jobId").isTextual() || !report.path("leaseToken").isTextual()) throw new IOException("not a report");
        reports.add((ObjectNode) report);
      } catch (IOException unreadable) {
        Files.move(file, file.resolveSibling(file.getFileName() + ".corrupt"));
        corrupt.add(file.getFileName().toString());
      }
    }
    reports.sort(Comparator.comparing(report -> report.path("savedAt").asText()));
    return new Listing(reports, corrupt);
  }
}
