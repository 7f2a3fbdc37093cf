// TCP ports nothing listens on right now, for servers a test starts.
import net from "node:net";

export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port!;
}

// n different ports: each is held until all are chosen, since ports closed one by one may be
// handed out again (two servers of one test would then fight over one port).
export async function freePorts(n: number): Promise<number[]> {
  const probes: net.Server[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const probe = net.createServer();
      probes.push(probe);
      await new Promise<void>((resolve, reject) => {
        probe.once("error", reject);
        probe.listen(0, "127.0.0.1", resolve);
      });
    }
    return probes.map((probe) => (probe.address() as net.AddressInfo).port);
  } finally {
    await Promise.all(probes.map((probe) => new Promise((resolve) => probe.close(resolve))));
  }
}
