package dev.versus.harness;

/**
 * Told when the measured iterations start and end (after warm-up, before the figures are
 * collected), so something outside the run can observe the same window: the agent's probes
 * sample the system under test over it. Called on the harness's control thread while the
 * measuring threads wait, so it must return quickly. In a forked run the fork reports both
 * moments on its log stream and the parent calls this as it reads them (a few milliseconds later).
 */
public interface MeasuredWindow {
  MeasuredWindow NONE = new MeasuredWindow() {
    @Override
    public void opened() {}

    @Override
    public void closed() {}
  };

  /** The measured iterations start now. */
  void opened();

  /** The measured iterations are done (or the run failed or was cancelled after opened()). */
  void closed();
}
