package dev.versus.harness;

import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class SinkBlackholeTest {
  @Test
  void primitiveConsumesNeverTakeTheirBranchWhateverTheValue() {
    // The compare trick must be false for every value, the fields' own values included.
    SinkBlackhole blackhole = new SinkBlackhole();
    for (int v = -3; v <= 3; v++) {
      blackhole.consume(v);
      blackhole.consume((long) v);
      blackhole.consume((double) v);
    }
    blackhole.consume(Integer.MIN_VALUE);
    blackhole.consume(Long.MAX_VALUE);
    blackhole.consume(Double.NaN);
    blackhole.consume(true);
    blackhole.consume(false);
    assertNull(blackhole.sink());
  }
}
