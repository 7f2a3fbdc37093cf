package dev.versus.agent;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A test class whose every test has a fresh fake job API, closed after it. */
abstract class AgainstFakeJobApi {
  FakeJobApi api;

  @BeforeEach
  void startApi() throws Exception {
    api = new FakeJobApi();
  }

  @AfterEach
  void stopApi() {
    api.close();
  }
}
