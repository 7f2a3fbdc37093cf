package dev.versus.agent.probe;

import java.util.List;

/** A target a probe samples: its spec, the series it is read for, and one reading at a time. */
public abstract class Probe {
  private final ProbeSpec spec;
  private List<Presets.Named> series;

  Probe(ProbeSpec spec, List<Presets.Named> series) {
    this.spec = spec;
    this.series = List.copyOf(series);
  }

  public final ProbeSpec spec() {
    return spec;
  }

  /** The series whose metrics this probe reports. */
  public final List<Presets.Named> series() {
    return series;
  }

  /** The series the target turned out to have at the start (fallbacks taken, absent optional ones left out). */
  final void settle(List<Presets.Named> settled) {
    series = List.copyOf(settled);
  }

  /**
   * One reading now.
   *
   * @throws ProbeException the target did not answer or answered what cannot be read; the message
   *     says what was wrong ({@code GET http://…/metrics: connection refused})
   */
  public abstract Exposition read() throws ProbeException;

  /** A reading that failed; its message names the target and what went wrong. */
  public static final class ProbeException extends Exception {
    private static final long serialVersionUID = 1L;

    public ProbeException(String message) {
      super(message);
    }
  }
}
