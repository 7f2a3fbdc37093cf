package dev.versus.workloads.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class KafkaSecurityTest {
  @Test
  void onlySecurityPropertiesComeFromTheEnvironment() {
    Map<String, String> properties = KafkaSecurity.fromEnvironment(Map.of(
        "VERSUS_KAFKA_SECURITY_PROTOCOL", "SASL_SSL",
        "VERSUS_KAFKA_SASL_MECHANISM", "PLAIN",
        "VERSUS_KAFKA_SASL_JAAS_CONFIG", "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"p\";",
        "VERSUS_KAFKA_SSL_TRUSTSTORE_LOCATION", "/etc/kafka/truststore.jks",
        // Not security: the experiment's settings decide these.
        "VERSUS_KAFKA_ACKS", "0",
        "VERSUS_KAFKA_BOOTSTRAP_SERVERS", "elsewhere:9092",
        "VERSUS_KAFKA_SSL_KEY_PASSWORD", "",
        "KAFKA_SASL_MECHANISM", "SCRAM-SHA-512"));
    assertEquals(Map.of(
        "security.protocol", "SASL_SSL",
        "sasl.mechanism", "PLAIN",
        "sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"p\";",
        "ssl.truststore.location", "/etc/kafka/truststore.jks"), properties);
  }
}
