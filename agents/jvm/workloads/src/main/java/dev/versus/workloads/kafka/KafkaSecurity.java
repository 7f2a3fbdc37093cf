package dev.versus.workloads.kafka;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The producer's security settings (TLS, SASL) from the agent's environment, never from a job:
 * {@code VERSUS_KAFKA_SECURITY_PROTOCOL=SASL_SSL} becomes {@code security.protocol},
 * {@code VERSUS_KAFKA_SASL_JAAS_CONFIG} {@code sasl.jaas.config}, {@code VERSUS_KAFKA_SSL_TRUSTSTORE_LOCATION}
 * {@code ssl.truststore.location}, and so on: the name after the prefix, lower case, {@code _} as
 * {@code .}. Only {@code security.protocol}, {@code sasl.*} and {@code ssl.*} are taken, so the
 * environment cannot change what the experiment measures. Values are never logged or recorded;
 * the run's environment names the properties that were set, and the protocol.
 */
public final class KafkaSecurity {
  static final String PREFIX = "VERSUS_KAFKA_";

  private KafkaSecurity() {}

  /** The Kafka client properties these environment variables give. */
  public static Map<String, String> fromEnvironment(Map<String, String> environment) {
    Map<String, String> properties = new TreeMap<>();
    environment.forEach((name, value) -> {
      if (!name.startsWith(PREFIX) || value == null || value.isEmpty()) return;
      String property = name.substring(PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.');
      if (property.equals("security.protocol") || property.startsWith("sasl.") || property.startsWith("ssl.")) properties.put(property, value);
    });
    return properties;
  }
}
