package dev.versus.targetapp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code java -jar versus-target-jvm.jar}: the payload endpoints of the Go agent's bundled target
 * on a JVM, with its heap and GC at /metrics. The first line on stdout is
 * "listening on http://ADDR/", as the Go target prints it; SIGTERM or SIGINT stops it. Exit codes:
 * 2 a bad flag, 1 it could not listen.
 */
@Command(
    name = "versus-target-jvm",
    mixinStandardHelpOptions = true,
    description = {
      "Serves /payload/binary and /payload/json (GET sends ?size= bytes as application/octet-stream or as {\"payload\": \"<base64>\"};"
          + " POST reads one and answers {\"receivedBytes\": N}) and Micrometer's JVM metrics at /metrics."
    })
public final class TargetApp implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--addr", defaultValue = "127.0.0.1:0", description = "host:port to listen on (port 0: any free port); default ${DEFAULT-VALUE}")
  String addr;

  @Option(names = "--payload-size", defaultValue = "1048576", description = "bytes of a /payload answer when the request gives no ?size= (0 – 64 MiB); default ${DEFAULT-VALUE}")
  int payloadSize;

  @Option(names = "--threads", defaultValue = "16", description = "request threads (1 – 1000); default ${DEFAULT-VALUE}")
  int threads;

  private final CountDownLatch stopped = new CountDownLatch(1);

  public static void main(String[] args) {
    System.exit(new CommandLine(new TargetApp()).execute(args));
  }

  @Override
  public Integer call() throws InterruptedException {
    InetSocketAddress address = address();
    if (payloadSize < 0 || payloadSize > Payloads.MAX_PAYLOAD)
      throw new ParameterException(spec.commandLine(), "--payload-size must be from 0 to " + Payloads.MAX_PAYLOAD + " bytes (got " + payloadSize + ")");
    if (threads < 1 || threads > 1000)
      throw new ParameterException(spec.commandLine(), "--threads must be from 1 to 1000 (got " + threads + ")");
    TargetServer server;
    try {
      server = TargetServer.start(address, payloadSize, threads);
    } catch (IOException cannotListen) {
      spec.commandLine().getErr().println("versus-target-jvm: cannot listen on " + addr + ": " + cannotListen.getMessage());
      return 1;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      stopped.countDown();
    }));
    System.out.println("listening on http://" + server.address().getHostString() + ":" + server.address().getPort() + "/");
    System.out.flush();
    stopped.await();
    return 0;
  }

  private InetSocketAddress address() {
    int colon = addr.lastIndexOf(':');
    try {
      if (colon > 0) {
        int port = Integer.parseInt(addr.substring(colon + 1));
        if (port >= 0 && port <= 65535) return new InetSocketAddress(addr.substring(0, colon), port);
      }
    } catch (NumberFormatException notAPort) {
      // answered below
    }
    throw new ParameterException(spec.commandLine(), "--addr must be host:port, e.g. 127.0.0.1:8090 (got \"" + addr + "\")");
  }
}
