package dev.versus.agent;

import java.util.Optional;

/**
 * {@code --exit-with-parent}: `npm start` runs the agent as its child, and if `npm start` is killed
 * without stopping it (SIGKILL, a closed terminal), the agent must not live on claiming jobs for
 * a server that is gone. Java has no parent-death signal, so a daemon thread looks once a second
 * whether the parent it started with is still its parent.
 */
final class ParentWatch {
  private ParentWatch() {}

  private static final long POLL_MS = 1000;

  static void start(Runnable onParentExit) {
    Optional<Long> parent = ProcessHandle.current().parent().map(ProcessHandle::pid);
    Thread watch = new Thread(() -> {
      while (true) {
        Optional<ProcessHandle> now = ProcessHandle.current().parent();
        // Orphaned: re-parented to init (or a subreaper), or the handle is gone.
        if (now.isEmpty() || !now.get().isAlive() || !now.map(ProcessHandle::pid).equals(parent)) {
          onParentExit.run();
          return;
        }
        try {
          Thread.sleep(POLL_MS);
        } catch (InterruptedException stop) {
          return;
        }
      }
    }, "versus-parent-watch");
    watch.setDaemon(true);
    watch.start();
  }
}
