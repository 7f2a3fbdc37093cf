package dev.versus.workloads.kafka;

import dev.versus.workload.Recorder;
import dev.versus.workload.Summary;
import org.HdrHistogram.Histogram;

/**
 * What the measured sends gave: each record's time from send() to the broker's acknowledgement
 * (recorded in the producer's callback, on its I/O thread), each value's size as the serializer
 * wrote it, the records acknowledged and failed, and the time the sending took.
 */
final class SendStats {
  /** One hour in ns: a longer send is recorded as one hour. */
  private static final long HIGHEST_NS = 3_600_000_000_000L;

  private Histogram sendNs = new Histogram(HIGHEST_NS, 3);
  private double sendNsSum;
  private long sizes;
  private double sizeSum;
  private double sizeSquares;
  private long minSize = Long.MAX_VALUE;
  private long maxSize;
  private long acknowledged;
  private long failed;
  private long sendingNs;
  private String firstError;

  synchronized void reset() {
    sendNs = new Histogram(HIGHEST_NS, 3);
    sendNsSum = 0;
    sizes = 0;
    sizeSum = 0;
    sizeSquares = 0;
    minSize = Long.MAX_VALUE;
    maxSize = 0;
    acknowledged = 0;
    failed = 0;
    sendingNs = 0;
    firstError = null;
  }

  synchronized void size(int bytes) {
    sizes++;
    sizeSum += bytes;
    sizeSquares += (double) bytes * bytes;
    minSize = Math.min(minSize, bytes);
    maxSize = Math.max(maxSize, bytes);
  }

  synchronized void acknowledged(long ns) {
    acknowledged++;
    sendNs.recordValue(Math.max(0, Math.min(HIGHEST_NS, ns)));
    sendNsSum += ns;
  }

  synchronized void failed(Exception e) {
    failed++;
    if (firstError == null) firstError = e.toString();
  }

  synchronized void sending(long ns) {
    sendingNs += ns;
  }

  synchronized long failed() {
    return failed;
  }

  synchronized String firstError() {
    return firstError;
  }

  /** The metrics; sizes in B, send times in ms, rates over the time spent sending. */
  synchronized void report(Recorder recorder) {
    if (acknowledged > 0) {
      recorder.histogram("send_time", sendNs, 1e6);
      double min = sendNs.getMinValue() / 1e6;
      double max = sendNs.getMaxValue() / 1e6;
      double mean = Math.min(max, Math.max(min, sendNsSum / acknowledged / 1e6));
      double sd = acknowledged > 1 ? sendNs.getStdDeviation() / 1e6 * Math.sqrt((double) acknowledged / (acknowledged - 1)) : 0;
      recorder.summary("send_time", new Summary(acknowledged, mean, sd, min, max));
    }
    if (sizes > 0) {
      double mean = sizeSum / sizes;
      double variance = sizes > 1 ? Math.max(0, (sizeSquares - sizeSum * mean) / (sizes - 1)) : 0;
      recorder.summary("message_bytes", new Summary(sizes, mean, Math.sqrt(variance), (double) minSize, (double) maxSize));
    }
    if (sendingNs > 0) {
      double seconds = sendingNs / 1e9;
      recorder.summary("records_per_second", Summary.constant(1, acknowledged / seconds));
      recorder.summary("bytes_per_second", Summary.constant(1, sizes == 0 ? 0 : sizeSum / sizes * acknowledged / seconds));
    }
    recorder.summary("error_count", Summary.constant(1, failed));
    if (failed > 0) recorder.warn(failed + " of " + (failed + acknowledged) + " records were not acknowledged; the first error: " + firstError);
  }
}
