package dev.versus.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versus.workload.Benchmark;
import dev.versus.workload.Blackhole;
import dev.versus.workload.Direction;
import dev.versus.workload.MetricSpec;
import dev.versus.workload.Recorder;
import dev.versus.workload.SettingsException;
import dev.versus.workload.Workload;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.util.Arrays;
import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-GCM encryption of a buffer with a JCE provider chosen by name (the "provider swap" story):
 * time per buffer, MB/s (data_rate) and the process's CPU (time, % mean, % of the busiest second
 * and a per-second series) come from the harness. Before measuring, one buffer is encrypted and
 * decrypted back with the chosen provider, so a provider that got it wrong fails the run. Each
 * operation encrypts the whole buffer with a fresh 96-bit IV (a counter: GCM must never reuse an
 * IV with a key) into a preallocated output, so the figures are the cipher's, not the copying's.
 */
public final class CipherWorkload implements Workload {
  static final String TRANSFORMATION = "AES/GCM/NoPadding";

  @Override
  public String name() {
    return "cipher";
  }

  @Override
  public String description() {
    return "Encrypt a buffer with AES-GCM using a JCE provider chosen by name (SunJCE, BC, or a plugin's): time per buffer, MB/s and the JVM's CPU % (mean, max)";
  }

  @Override
  public String settingsSchema() {
    return """
        {"type": "object", "additionalProperties": false, "properties": {
          "provider": {"type": "string", "minLength": 1, "default": "SunJCE", "examples": ["SunJCE", "BC"], "description": "JCE provider by name: SunJCE (the JDK's), BC (Bouncy Castle, shipped with the agent), or a provider jar's in the plugins directory (e.g. ACCP's AmazonCorrettoCryptoProvider where its native library loads)"},
          "sizeMB": {"type": "number", "x-unit": "MiB", "exclusiveMinimum": 0, "maximum": 1024, "default": 1, "description": "Size of the buffer encrypted per operation, in MB (2^20 bytes)"},
          "keyBits": {"type": "integer", "x-unit": "bits", "enum": [128, 192, 256], "default": 256, "description": "AES key size"}
        }}""";
  }

  @Override
  public MetricSpec operationTime() {
    return new MetricSpec("encrypt_time", "ms", Direction.LOWER_IS_BETTER, "Time to encrypt one buffer");
  }

  @Override
  public Benchmark prepare(JsonNode settings) throws SettingsException {
    String name = settings.path("provider").asText("SunJCE");
    Provider provider = JceProviders.find(name)
        .orElseThrow(() -> new SettingsException("provider", "no JCE provider named " + name + "; available: " + String.join(", ", JceProviders.names())));
    int size = (int) Math.max(1, Math.round(settings.path("sizeMB").asDouble(1) * 1024 * 1024));
    int keyBits = settings.path("keyBits").asInt(256);
    Cipher cipher;
    try {
      cipher = Cipher.getInstance(TRANSFORMATION, provider);
    } catch (GeneralSecurityException e) {
      throw new SettingsException("provider", name + " does not offer " + TRANSFORMATION + ": " + e.getMessage());
    }
    Random random = new Random(1);
    byte[] key = new byte[keyBits / 8];
    random.nextBytes(key);
    byte[] input = new byte[size];
    random.nextBytes(input);
    SecretKeySpec secret = new SecretKeySpec(key, "AES");
    try {
      if (!Arrays.equals(input, roundTrip(provider, secret, input))) throw new IllegalStateException(name + ": AES-GCM decryption did not give back the plaintext");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(name + ": AES-GCM round trip failed: " + e.getMessage(), e);
    }
    return new Benchmark() {
      private final byte[] output = new byte[size + 16];
      private final byte[] iv = new byte[12];
      private long counter;

      @Override
      public void operation(Blackhole blackhole) throws GeneralSecurityException {
        ByteBuffer.wrap(iv).putLong(4, ++counter);
        cipher.init(Cipher.ENCRYPT_MODE, secret, new GCMParameterSpec(128, iv));
        blackhole.consume(cipher.doFinal(input, 0, input.length, output, 0));
        blackhole.consume(output[output.length - 1]);
      }

      @Override
      public long bytesPerOperation() {
        return size;
      }

      @Override
      public void report(Recorder recorder) {
        recorder.environment("jceProvider", provider.getName() + " " + provider.getVersionStr());
        recorder.environment("cipher", TRANSFORMATION + ", " + keyBits + "-bit key, " + size + " B per operation");
      }
    };
  }

  /** Encrypts with a fixed IV and decrypts back, both with {@code provider}: the plaintext again. */
  static byte[] roundTrip(Provider provider, SecretKeySpec key, byte[] plaintext) throws GeneralSecurityException {
    GCMParameterSpec spec = new GCMParameterSpec(128, new byte[12]);
    Cipher encrypt = Cipher.getInstance(TRANSFORMATION, provider);
    encrypt.init(Cipher.ENCRYPT_MODE, key, spec);
    byte[] sealed = encrypt.doFinal(plaintext);
    Cipher decrypt = Cipher.getInstance(TRANSFORMATION, provider);
    decrypt.init(Cipher.DECRYPT_MODE, key, spec);
    return decrypt.doFinal(sealed);
  }
}
