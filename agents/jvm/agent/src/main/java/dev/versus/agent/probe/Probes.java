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
    List<String> notes = new ArrayList<>();
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
        probe.settle(settle(spec, probe.series(), first, notes));
        checked.add(probe);
      } catch (Probe.ProbeException failed) {
        throw new ProbeCheckException("probe \"" + spec.name() + "\": " + failed.getMessage());
      }
    }
    return new Sampler(checked, notes, log, jobId);
  }

  /**
   * The series a probe reads, as its first reading found the target: a series it lacks takes its
   * fallback (read under the fallback's name, so a reset warning names what the target exports),
   * or, when not required, is left out with its metrics and a note for the run (notes); a
   * required one fails the probe naming it (and its fallback).
   */
  static List<Presets.Named> settle(ProbeSpec spec, List<Presets.Named> series, Exposition first, List<String> notes) throws Probe.ProbeException {
    List<Presets.Named> settled = new ArrayList<>();
    for (Presets.Named named : series) {
      Series one = named.series();
      if (one.reader().read(first) == null && one.fallback() != null) {
        if (one.fallback().reader().read(first) == null) {
          throw new Probe.ProbeException(named.origin() + ": no " + one.source() + " or " + one.fallback().source() + " series");
        }
        one = one.fallback();
      } else if (one.reader().read(first) == null) {
        if (one.required()) throw new Probe.ProbeException(named.origin() + ": no " + one.source() + " series");
        if (one.dropHint() != null) {
          notes.add("probe \"" + spec.name() + "\": " + named.origin() + ": the target has no " + one.source() + " series, so "
              + String.join(" and ", one.outputs().stream().map(Series.Output::suffix).toList()) + " are not reported; " + one.dropHint());
          continue;
        }
      }
      settled.add(new Presets.Named(named.origin(), one));
    }
    return settled;
  }
}
