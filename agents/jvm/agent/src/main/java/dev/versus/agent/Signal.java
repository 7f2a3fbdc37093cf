package dev.versus.agent;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A one-way switch with a reason, like an AbortSignal: loops sleep on it so that stopping cuts
 * their waits short, and listeners react at once (e.g. a shutdown stops the running job).
 */
public final class Signal {
  private final CountDownLatch fired = new CountDownLatch(1);
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private volatile String reason;

  /** Fires with this reason; the first reason wins. Returns whether this call fired it. */
  public boolean fire(String why) {
    synchronized (this) {
      if (reason != null) return false;
      reason = why;
    }
    fired.countDown();
    for (Runnable listener : listeners) listener.run();
    return true;
  }

  public boolean fired() {
    return reason != null;
  }

  /** Why it fired; null while it has not. */
  public String reason() {
    return reason;
  }

  /** Waits up to ms; true when the signal fired (at once, or during the wait). */
  public boolean sleep(long ms) {
    if (ms <= 0) return fired();
    try {
      return fired.await(ms, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    }
  }

  /** Runs the listener when the signal fires (at once if it has); the result removes it. */
  public Runnable onFire(Runnable listener) {
    listeners.add(listener);
    if (fired() && listeners.remove(listener)) listener.run();
    return () -> listeners.remove(listener);
  }

  /** A signal that fires (with its reason) when any of these does. */
  public static Signal any(Signal... signals) {
    Signal combined = new Signal();
    for (Signal signal : signals) signal.onFire(() -> combined.fire(signal.reason()));
    return combined;
  }
}
