package dev.versus.bench;

import dev.versus.workloads.GzipWorkload;
import dev.versus.workloads.TextPayload;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The gzip workload's operation as JMH measures it: the same payload (TextPayload, seed 1) and
 * the same method (GzipWorkload.gzip, level 6), average time per operation. {@code empty} is JMH's
 * own cost per operation, next to the harness's empty workload.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class GzipBenchmark {
  @Param({"80", "51200"})
  public int sizeBytes;

  private byte[] payload;

  @Setup
  public void setup() {
    payload = TextPayload.generate(sizeBytes, 1);
  }

  @Benchmark
  public byte[] gzip() throws IOException {
    return GzipWorkload.gzip(payload, 6);
  }
}
