package dev.versus.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.workload.SettingsException;
import java.io.ByteArrayInputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GzipWorkloadTest {
  /**
   * The reference agent's payloads, byte for byte. The hashes come from its generator:
   * npx tsx -e "import {textPayload} from './agents/reference/workloads/text-payload'; import crypto from 'node:crypto';
   *   console.log(crypto.createHash('sha256').update(textPayload(SIZE, SEED)).digest('hex'))"
   */
  @ParameterizedTest
  @CsvSource({
    "80, 1, 74141ce4b4f20281201138f08c119e4cd49fe6f4b815634740f27868a9d879d6",
    "51200, 1, 7bc0b5cbfe83d0bcca620842bc627712d956b228149c4fac31ba5d40b7a7008d",
    "1000, 7, 21e313a9f9f230f79011fa04212801e57b2c3aeb9d7e771efffee3b839d9289e",
  })
  void thePayloadIsTheReferenceAgents(int size, long seed, String sha256) throws Exception {
    byte[] payload = TextPayload.generate(size, seed);
    assertEquals(size, payload.length);
    assertEquals(sha256, HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(payload)));
  }

  @Test
  void gzipReportsTimeAndBytesAndTheStreamDecompressesToThePayload() throws Exception {
    ObjectNode run = Runs.run(new GzipWorkload(), "{\"sizeBytes\": 51200, \"level\": 6, " + Runs.BRIEF + "}");
    assertEquals("us", Runs.metric(run, "compress_time").get("unit").asText());
    assertEquals(40, Runs.metric(run, "compress_time").get("summary").get("n").asLong());
    long sent = Runs.metric(run, "payload_bytes").get("summary").get("mean").asLong();
    assertEquals(51200, Runs.metric(run, "input_bytes").get("summary").get("mean").asLong());
    assertTrue(sent > 1000 && sent < 51200 / 2, "text compresses: " + sent);
    byte[] gz = GzipWorkload.gzip(TextPayload.generate(51200, 1), 6);
    assertEquals(sent, gz.length);
    byte[] back = new GZIPInputStream(new ByteArrayInputStream(gz)).readAllBytes();
    assertEquals(HexFormat.of().formatHex(TextPayload.generate(51200, 1)), HexFormat.of().formatHex(back));
  }

  @Test
  void plainSendsThePayloadAsItIs() throws Exception {
    ObjectNode run = Runs.run(new GzipWorkload(), "{\"sizeBytes\": 80, \"compress\": false, " + Runs.BRIEF + "}");
    assertEquals(80, Runs.metric(run, "payload_bytes").get("summary").get("mean").asLong());
  }

  @Test
  void aLevelOutOfRangeNamesLevel() {
    SettingsException e = assertThrows(SettingsException.class, () -> Runs.run(new GzipWorkload(), "{\"level\": 10}"));
    assertEquals("level", e.field());
  }
}
