package dev.versus.agent;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The file lock agents sharing a machine hold while they claim and run a job ({@code
 * --machine-lock}): `npm start` runs the Go and the JVM agent side by side, and two measurements
 * on one machine disturb each other's numbers, as two jobs in one agent would. FileChannel's lock
 * is a POSIX record lock (fcntl) on Linux and macOS, the one the Go agent takes, so the two
 * exclude each other.
 */
final class MachineLock {
  /** The claim's long poll while the lock is held: short, so an agent with nothing to do soon lets the others claim. */
  static final int CLAIM_WAIT_SECONDS = 2;
  private static final long POLL_MS = 100;

  private final Path path;
  private FileChannel channel;

  MachineLock(Path path) {
    this.path = path;
  }

  /** Waits until this process holds the lock; false when {@code until} fired first. */
  boolean acquire(Signal until) throws IOException {
    FileChannel opened = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    try {
      while (true) {
        FileLock lock = opened.tryLock();
        if (lock != null) {
          channel = opened;
          return true;
        }
        if (until.sleep(POLL_MS)) {
          opened.close();
          return false;
        }
      }
    } catch (IOException | RuntimeException failed) {
      opened.close();
      throw failed;
    }
  }

  /** Lets the machine's other agents have it (closing the channel drops the lock). */
  void release() {
    if (channel == null) return;
    try {
      channel.close();
    } catch (IOException ignored) {
      // The lock goes with the channel either way.
    }
    channel = null;
  }
}
