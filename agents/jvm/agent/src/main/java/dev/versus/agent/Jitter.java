package dev.versus.agent;

import java.util.concurrent.ThreadLocalRandom;

/** Waits moved at random, so a fleet of agents does not call in step. */
final class Jitter {
  private Jitter() {}

  /** ms moved by up to ±10% of itself, at random. */
  static long around(double ms) {
    return Math.round(ms * (0.9 + 0.2 * ThreadLocalRandom.current().nextDouble()));
  }
}
