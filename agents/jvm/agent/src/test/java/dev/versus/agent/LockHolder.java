package dev.versus.agent;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Another agent of the machine, for MachineLockTest: {@code java -cp … dev.versus.agent.LockHolder
 * <file>} takes the machine lock, prints "held", and keeps it until its stdin closes. (The lock is
 * a per-process record lock, so contending for it takes another process.)
 */
public final class LockHolder {
  private LockHolder() {}

  public static void main(String[] args) throws Exception {
    try (FileChannel channel = FileChannel.open(Path.of(args[0]), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      FileLock lock = channel.tryLock();
      if (lock == null) {
        System.out.println("already locked");
        System.exit(1);
      }
      System.out.println("held");
      System.out.flush();
      while (System.in.read() >= 0) {
        // until stdin closes
      }
    }
  }
}
