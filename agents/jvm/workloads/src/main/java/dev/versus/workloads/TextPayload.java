package dev.versus.workloads;

import java.nio.charset.StandardCharsets;

/**
 * Text-like payloads of a given size, the same for the same seed — byte for byte the TypeScript
 * reference agent's (agents/reference/workloads/text-payload.ts): an HTML e-mail body built from a
 * small vocabulary, so gzip finds the repetition it finds in real templated text. The generator
 * and the order of its draws follow that file exactly; TextPayloadTest checks SHA-256 values
 * computed from it.
 */
public final class TextPayload {
  private TextPayload() {}

  private static final String[] WORDS = (
      "the order your account payment delivery invoice customer service update please confirm "
          + "shipping address total amount discount member coupon notice thank you for we have received "
          + "request details below status pending completed schedule today tomorrow week month contact "
          + "support team help center privacy policy terms unsubscribe settings profile password security")
      .split(" ");
  private static final String[] TAGS = {"p", "td", "span", "li", "strong", "a"};

  /** mulberry32, as the reference writes it with Math.imul and >>> 0: Java's int arithmetic wraps the same way. */
  static final class Mulberry32 {
    private int state;

    Mulberry32(long seed) {
      state = (int) seed; // seed >>> 0: the low 32 bits
    }

    double next() {
      state += 0x6d2b79f5;
      int t = state;
      t = (t ^ (t >>> 15)) * (t | 1);
      t ^= t + (t ^ (t >>> 7)) * (t | 61);
      return ((t ^ (t >>> 14)) & 0xffffffffL) / 4294967296.0;
    }
  }

  public static byte[] generate(int sizeBytes, long seed) {
    Mulberry32 random = new Mulberry32(seed);
    StringBuilder text = new StringBuilder(sizeBytes + 200).append("<html><body>");
    while (text.length() < sizeBytes) {
      String tag = TAGS[(int) Math.floor(random.next() * TAGS.length)];
      int count = 3 + (int) Math.floor(random.next() * 10);
      StringBuilder words = new StringBuilder();
      for (int i = 0; i < count; i++) {
        if (i > 0) words.append(' ');
        words.append(WORDS[(int) Math.floor(random.next() * WORDS.length)]);
      }
      if (random.next() < 0.2) words.append(' ').append((long) Math.floor(random.next() * 100_000));
      // The class's draw comes after the words', as in the reference's template literal.
      int cls = (int) Math.floor(random.next() * 8);
      text.append('<').append(tag).append(" class=\"c").append(cls).append("\">").append(words).append("</").append(tag).append(">\n");
    }
    text.setLength(sizeBytes);
    return text.toString().getBytes(StandardCharsets.US_ASCII);
  }
}
