// A Node http server on a free loopback port that hands each request to `handle` (which calls
// the exported route handlers, as the CLI tests do), for tests that run the CLI or an agent as a
// child process against real HTTP.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RouteServer {
  url: string;
  close(): Promise<void>;
}

export async function startRouteServer(handle: (req: http.IncomingMessage, res: http.ServerResponse, url: string) => Promise<void>): Promise<RouteServer> {
  let url = "";
  const server = http.createServer((req, res) => {
    handle(req, res, url).catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
