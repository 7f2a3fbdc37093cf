package dev.versus.agent.probe;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;

/**
 * A job's probes from {@code job.probes}, each checked before any load is sent: the target
 * answers with what the probe reads (every series its presets need), or the job fails naming
 * the probe and what was wrong ({@code probe "app-1": GET http://…: connection refused}).
 */
public final class Probes {
  private Probes() {}

  /** What this agent can probe, as it advertises them: {@code probe:prometheus}, and {@code probe:process} where /proc is. */
  public static List<String> capabilities() {
    List<String> capabilities = new ArrayList<>();
    capabilities.add("probe:" + ProbeSpec.PROMETHEUS);
    if (ProcessProbe.supported()) capabilities.add("probe:" + ProbeSpec.PROCESS);
    return capabilities;
  }

  /** A probe that cannot be used; the message is the job's error. */
  public static final class ProbeCheckException extends Exception {
    private static final long serialVersionUID = 1L;

    ProbeCheckException(String message) {
      super(message);
    }
  }

  /**
   * Reads, builds and checks a job's probes; returns a sampler over them (no probes: an empty one).
   *
   * @throws ProbeCheckException a probe is malformed or its target does not answer as it must
   */
  public static Sampler check(JsonNode probes, Logger log, String jobId) throws ProbeCheckException {
    List<ProbeSpec> specs;
    try {
      specs = ProbeSpec.parseAll(probes);
    } catch (IllegalArgumentException bad) {
      throw new ProbeCheckException(bad.getMessage());
    }
    List<Probe> checked = new ArrayList<>();
    double ticks = 0;
    for (ProbeSpec spec : specs) {
      try {
        Probe probe;
        if (spec.kind().equals(ProbeSpec.PROCESS)) {
          if (ticks == 0) ticks = ProcessProbe.ticksPerSecond();
          probe = ProcessProbe.find(spec, Path.of("/proc"), ticks);
        } else {
          probe = new PrometheusProbe(spec);
        }
        Exposition first = probe.read();
        for (Presets.Named named : probe.series()) {
          if (named.series().required() && named.series().reader().read(first) == null) {
            throw new Probe.ProbeException(named.origin() + ": no " + named.series().source() + " series");
          }
        }
        checked.add(probe);
      } catch (Probe.ProbeException failed) {
        throw new ProbeCheckException("probe \"" + spec.name() + "\": " + failed.getMessage());
      }
    }
    return new Sampler(checked, log, jobId);
  }
}
