package dev.versus.agent.probe;

import java.util.List;

/** A target a probe samples: one reading at a time, and the series it is read for. */
public interface Probe {
  ProbeSpec spec();

  /** The series whose metrics this probe reports. */
  List<Presets.Named> series();

  /**
   * One reading now.
   *
   * @throws ProbeException the target did not answer or answered what cannot be read; the message
   *     says what was wrong ({@code GET http://…/metrics: connection refused})
   */
  Exposition read() throws ProbeException;

  /** A reading that failed; its message names the target and what went wrong. */
  final class ProbeException extends Exception {
    private static final long serialVersionUID = 1L;

    public ProbeException(String message) {
      super(message);
    }
  }
}
