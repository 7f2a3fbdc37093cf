package dev.versus.agent.probe;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/** Scrapes a Prometheus / OpenMetrics text endpoint (Micrometer, client_golang, node_exporter …). */
public final class PrometheusProbe extends Probe {
  /** The text formats, OpenMetrics first: never the protobuf one. */
  private static final String ACCEPT = "application/openmetrics-text;version=1.0.0;q=0.9,text/plain;version=0.0.4;q=0.5";
  /** One client for every probe of every job: java.net.http's clients cannot be closed before Java 21. */
  private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).version(HttpClient.Version.HTTP_1_1).build();

  private final String url;
  private final Duration timeout;

  public PrometheusProbe(ProbeSpec spec) {
    super(spec, Presets.of(spec.presets(), spec.series()));
    this.url = spec.url();
    // A scrape may take up to one interval (at least 1 s: a loaded target still answers in time).
    this.timeout = Duration.ofMillis(Math.round(Math.min(10, Math.max(1, spec.intervalSeconds())) * 1000));
  }

  @Override
  public Exposition read() throws ProbeException {
    String at = "GET " + url + ": ";
    HttpResponse<String> response;
    try {
      HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(timeout).header("accept", ACCEPT).GET().build();
      response = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (ConnectException refused) {
      throw new ProbeException(at + "connection refused");
    } catch (HttpTimeoutException slow) {
      throw new ProbeException(at + "no answer within " + timeout.toMillis() + " ms");
    } catch (IOException broken) {
      throw new ProbeException(at + (broken.getMessage() == null ? broken.getClass().getSimpleName() : broken.getMessage()));
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw new ProbeException(at + "interrupted");
    }
    if (response.statusCode() / 100 != 2) throw new ProbeException(at + "HTTP " + response.statusCode());
    try {
      return ExpositionParser.parse(response.body());
    } catch (ExpositionParser.ParseException bad) {
      throw new ProbeException(at + "not the Prometheus text format: " + bad.getMessage());
    }
  }
}
