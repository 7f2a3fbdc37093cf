package dev.versus.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.agent.api.ApiClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The agent's credential on disk, in the reference agent's format (agents/reference/agent/
 * credential.ts), mode 0600: it is a password. Written once at registration; the server keeps
 * only its hash, so losing this file means enrolling again.
 */
public final class CredentialStore {
  /** The saved credential; url is the server it belongs to (it is sent nowhere else). */
  public record Saved(String url, String agentId, String name, String project, String credential, int heartbeatIntervalSeconds, int claimWaitSeconds) {}

  private CredentialStore() {}

  /** The saved credential, or null when there is no file. */
  public static Saved load(Path file) throws IOException {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException absent) {
      return null;
    }
    JsonNode json;
    try {
      json = ApiClient.JSON.readTree(text);
    } catch (IOException bad) {
      throw new IOException(file + " is not a credential file this agent wrote: " + bad.getMessage(), bad);
    }
    for (String field : new String[] {"url", "agentId", "name", "project", "credential"}) {
      if (json == null || !json.path(field).isTextual() || json.path(field).asText().isEmpty()) {
        throw new IOException(file + " is not a credential file this agent wrote: " + field + " is missing");
      }
    }
    return new Saved(
        json.path("url").asText(),
        json.path("agentId").asText(),
        json.path("name").asText(),
        json.path("project").asText(),
        json.path("credential").asText(),
        json.path("heartbeatIntervalSeconds").asInt(10) > 0 ? json.path("heartbeatIntervalSeconds").asInt(10) : 10,
        json.path("claimWaitSeconds").asInt(30));
  }

  public static void save(Path file, Saved saved) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    ObjectNode json = ApiClient.JSON.createObjectNode()
        .put("url", saved.url())
        .put("agentId", saved.agentId())
        .put("name", saved.name())
        .put("project", saved.project())
        .put("credential", saved.credential())
        .put("heartbeatIntervalSeconds", saved.heartbeatIntervalSeconds())
        .put("claimWaitSeconds", saved.claimWaitSeconds());
    Path temporary = dir.resolve(file.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
    Files.writeString(temporary, ApiClient.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(json) + "\n", StandardCharsets.UTF_8);
    ownerOnly(temporary);
    moveAtomically(temporary, file);
  }

  /** Mode 0600 where the file system has POSIX modes. */
  static void ownerOnly(Path file) throws IOException {
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException notPosix) {
      file.toFile().setReadable(false, false);
      file.toFile().setReadable(true, true);
    }
  }

  /** rename is atomic: a crash leaves the old file or the new one, never half of one. */
  static void moveAtomically(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException unsupported) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
