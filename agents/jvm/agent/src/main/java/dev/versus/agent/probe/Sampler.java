package dev.versus.agent.probe;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.versus.harness.MeasuredWindow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;

/**
 * The probes' loop over the measured window: when the window opens each probe reads its
 * baseline, then one reading per interval until the window closes (a partial last interval is
 * not read, unless it lacked no more than {@link #lateEndNs}); {@link #finish} gives the metrics and warnings. One thread per probe, so a slow
 * target does not delay another's readings.
 */
public final class Sampler implements MeasuredWindow {
  /** The probes' metrics and the run's warnings; failure is set when a required probe had a gap. */
  public record Result(ArrayNode metrics, List<String> warnings, String failure) {}

  private final List<Probe> probes;
  /** What the probes' first readings found that the run should say (a series left out). */
  private final List<String> notes;
  private final List<ProbeTrack> tracks = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private final Logger log;
  private final String jobId;
  private final Object lock = new Object();
  private boolean closed;
  private volatile Instant windowStart;
  private volatile long openedNs;
  private volatile long closedNs;

  public Sampler(List<Probe> probes, List<String> notes, Logger log, String jobId) {
    this.probes = List.copyOf(probes);
    this.notes = List.copyOf(notes);
    this.log = log;
    this.jobId = jobId;
    for (Probe probe : probes) tracks.add(new ProbeTrack(probe.spec(), probe.series()));
  }

  @Override
  public void opened() {
    synchronized (lock) {
      if (windowStart != null || closed) return;
      windowStart = Instant.now();
      openedNs = System.nanoTime();
    }
    for (int i = 0; i < probes.size(); i++) {
      Probe probe = probes.get(i);
      ProbeTrack track = tracks.get(i);
      Thread thread = new Thread(() -> sample(probe, track), "probe-" + probe.spec().name());
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
  }

  @Override
  public void closed() {
    synchronized (lock) {
      if (closed) return;
      closed = true;
      closedNs = System.nanoTime();
      lock.notifyAll();
    }
  }

  /**
   * How long after the window closed an interval may still be due and count: the workload and the
   * probes time the window on separate clocks, so the workload's end can come a hair before the
   * last interval's; 5 % of an interval, at most 50 ms (as the Go agent does).
   */
  static long lateEndNs(long intervalNs) {
    return Math.min(intervalNs / 20, 50_000_000L);
  }

  private void sample(Probe probe, ProbeTrack track) {
    long intervalNs = Math.round(probe.spec().intervalSeconds() * 1e9);
    long lateEnd = lateEndNs(intervalNs);
    Reading first = read(probe);
    synchronized (track) {
      track.baseline(seconds(first.atNs()), first.exposition(), first.error());
    }
    for (long i = 1; ; i++) {
      long due = openedNs + i * intervalNs;
      synchronized (lock) {
        try {
          while (!closed && System.nanoTime() < due) TimeUnit.NANOSECONDS.timedWait(lock, due - System.nanoTime());
        } catch (InterruptedException interrupted) {
          return;
        }
        if (closed && closedNs + lateEnd < due) return;
      }
      Reading reading = read(probe);
      if (reading.error() != null) log.atWarn().setMessage("probe.unanswered").addKeyValue("job", jobId).addKeyValue("probe", probe.spec().name()).addKeyValue("error", reading.error()).log();
      synchronized (track) {
        track.interval(seconds(reading.atNs()), reading.exposition(), reading.error());
      }
    }
  }

  private record Reading(long atNs, Exposition exposition, String error) {}

  private static Reading read(Probe probe) {
    long at = System.nanoTime();
    try {
      return new Reading(at, probe.read(), null);
    } catch (Probe.ProbeException failed) {
      return new Reading(at, null, failed.getMessage());
    } catch (RuntimeException broken) {
      return new Reading(at, null, String.valueOf(broken));
    }
  }

  private double seconds(long ns) {
    return (ns - openedNs) / 1e9;
  }

  /** Stops sampling (if the window never closed) and returns what the probes saw. */
  public Result finish() {
    closed();
    for (Thread thread : threads) {
      try {
        thread.join(15_000);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    ArrayNode metrics = JsonNodeFactory.instance.arrayNode();
    List<String> warnings = new ArrayList<>(notes);
    String failure = null;
    for (int i = 0; i < probes.size(); i++) {
      ProbeSpec spec = probes.get(i).spec();
      ProbeTrack track = tracks.get(i);
      if (windowStart == null) {
        warnings.add("probe \"" + spec.name() + "\": the workload reported no measured window; nothing was sampled");
        continue;
      }
      synchronized (track) {
        if (track.intervals() == 0) {
          warnings.add("probe \"" + spec.name() + "\": the measured window (" + ProbeTrack.Seconds.format((closedNs - openedNs) / 1e9) + " s) was shorter than one interval (" + ProbeTrack.Seconds.format(spec.intervalSeconds()) + " s); nothing was sampled");
          continue;
        }
        String gap = track.gapWarning();
        if (gap != null) {
          warnings.add(gap);
          if (spec.required() && failure == null) failure = gap;
        }
        warnings.addAll(track.warnings());
        metrics.addAll(track.metrics(windowStart));
      }
    }
    return new Result(metrics, warnings, failure);
  }
}
